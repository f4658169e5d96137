import Foundation
import LodestoneTesting
import XCTest

/// `wp_viewporter` with a pywayland client (Tests/clients/surface_client.py): a
/// 64×48 buffer of four quadrants (red, green / blue, white), cropped and scaled, and
/// a single-pixel buffer stretched, checked in the capture's pixels.
final class ViewporterTests: XCTestCase {
    static let red: UInt32 = 0xff0000, green: UInt32 = 0x00ff00, blue: UInt32 = 0x0000ff, white: UInt32 = 0xffffff

    private func window(_ session: Session, _ arguments: [String], title: String) throws -> (TestControl.WindowState, Screenshot) {
        try session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py"] + arguments,
                           output: session.runtimeDirectory + "/surface-client-\(title).txt")
        let window = try session.waitForWindow(title)
        return (window, try session.screenshot(title))
    }

    func testSinglePixelBufferStretchedToTheDestinationIsASolidFill() throws {
        let session = try Session()
        let (w, shot) = try window(session, ["single-pixel", "3366ccff", "200", "100"], title: "single-pixel")
        XCTAssertEqual(w.width, 200)
        XCTAssertEqual(w.height, 100)
        XCTAssertEqual(shot.countDiffering(from: 0x3366cc, x: Int(w.x), y: Int(w.y), width: 200, height: 100).differing, 0)
        XCTAssertNotEqual(shot[Int(w.x) + 200, Int(w.y) + 50], 0x3366cc, "no wider than the destination")
    }

    func testSourceCropAloneSetsTheSizeAndShowsOnlyTheCrop() throws {
        let session = try Session()
        // The bottom-right quadrant, unscaled: the window is 32×24 of white.
        let (w, shot) = try window(session, ["viewport", "32", "24", "32", "24", "-1", "-1"], title: "viewport")
        XCTAssertEqual(w.width, 32)
        XCTAssertEqual(w.height, 24)
        XCTAssertEqual(shot.countDiffering(from: Self.white, x: Int(w.x), y: Int(w.y), width: 32, height: 24).differing, 0)
    }

    func testDestinationAloneScalesTheWholeBuffer() throws {
        let session = try Session()
        let (w, shot) = try window(session, ["viewport", "-1", "-1", "-1", "-1", "128", "96"], title: "viewport")
        XCTAssertEqual(w.width, 128)
        XCTAssertEqual(w.height, 96)
        let x = Int(w.x), y = Int(w.y)
        // Each quadrant doubled to 64×48; well inside each, the pure colour.
        XCTAssertEqual(shot.countDiffering(from: Self.red, x: x + 4, y: y + 4, width: 56, height: 40).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.green, x: x + 68, y: y + 4, width: 56, height: 40).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.blue, x: x + 4, y: y + 52, width: 56, height: 40).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.white, x: x + 68, y: y + 52, width: 56, height: 40).differing, 0)
    }

    func testCropAndScaleTogether() throws {
        let session = try Session()
        // The middle 32×24 (a corner of each quadrant) scaled to 96×72: quadrants of 48×36.
        let (w, shot) = try window(session, ["viewport", "16", "12", "32", "24", "96", "72"], title: "viewport")
        XCTAssertEqual(w.width, 96)
        XCTAssertEqual(w.height, 72)
        let x = Int(w.x), y = Int(w.y)
        XCTAssertEqual(shot.countDiffering(from: Self.red, x: x, y: y, width: 44, height: 32).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.green, x: x + 52, y: y, width: 44, height: 32).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.blue, x: x, y: y + 40, width: 44, height: 32).differing, 0)
        XCTAssertEqual(shot.countDiffering(from: Self.white, x: x + 52, y: y + 40, width: 44, height: 32).differing, 0)
    }

    /// Each misuse named by the protocol is that protocol error.
    func testBadRequestsAreProtocolErrors() throws {
        let session = try Session()
        let expected: [(String, String)] = [
            ("bad-source", "wp_viewport 0"), ("bad-destination", "wp_viewport 0"),
            ("bad-size", "wp_viewport 1"), ("out-of-buffer", "wp_viewport 2"),
            ("no-surface", "wp_viewport 3"), ("viewport-exists", "wp_viewporter 0"),
        ]
        for (mode, error) in expected {
            let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "error", mode],
                                           environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("RESULT: protocol-error"), "\(mode):\n\(output)")
            // libwayland-client logs "wp_viewport#7: error 2: source rectangle ...".
            let line = output.split(separator: "\n").first { $0.contains(": error ") } ?? ""
            let interface = line.prefix { $0 != "#" }
            let code = line.range(of: ": error ").map { line[$0.upperBound...].prefix { $0.isNumber } } ?? ""
            let logged = "\(interface) \(code)"
            XCTAssertEqual(logged, error, "\(mode): \(line)")
        }
        XCTAssertTrue(session.compositorIsRunning)
    }

    /// mpv's shared-memory output (`--vo=wlshm`) shows its video: ffmpeg's test card, in a
    /// window of the video's size under Lodestone's title bar (mpv asks for server-side decorations).
    func testMpvShowsItsVideoWithWlshm() throws {
        try requireProgram("mpv")
        let session = try Session()
        try session.launch(["mpv", "--vo=wlshm", "--no-audio", "--no-config", "--loop", "--title=mpv-video",
                            "av://lavfi:testsrc=size=320x240:rate=25"], output: session.runtimeDirectory + "/mpv.txt")
        let w = try session.waitForWindow("mpv-video", timeout: 40)
        XCTAssertEqual(w.width, 320)
        XCTAssertEqual(w.height, 240)
        XCTAssertTrue(try session.wait(timeout: 20) {
            // The test card's bars and gradient: far more colours than any blank window.
            try session.screenshot().distinctColors(x: Int(w.x), y: Int(w.y), width: 320, height: 240) > 50
        }, "mpv drew no video")
        let shot = try session.screenshot()
        XCTAssertNotEqual(shot[Int(w.x) + 4, Int(w.y) - 26], 0x303446, "its title bar is drawn")
    }
}
