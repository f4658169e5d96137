import Foundation
import LodestoneTesting
import XCTest

/// `zwlr_screencopy_manager_v1` with `grim` (Debian's screenshot tool) and a pywayland
/// client (Tests/clients/screencopy_client.py): grim's picture is the test protocol's,
/// pixel for pixel; damage, timestamps and refused buffers.
final class ScreencopyTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/screencopy_client.py"
    private func read(_ path: String) -> String { textOfFile(path) }

    /// A window of four colours with the adaptive pointer resting on it, settled.
    private func scene() throws -> (AdaptiveFixture, PointerShape) {
        let f = try AdaptiveFixture()
        try f.session.launch(["python3", repositoryRoot + "/Tests/clients/surface_client.py", "viewport", "-1", "-1", "-1", "-1", "256", "192"],
                             output: f.session.runtimeDirectory + "/surface-client.txt")
        let w = try f.session.waitForWindow("viewport")
        let shape = try f.move(to: Double(w.x) + 40, Double(w.y) + 40)
        return (f, shape)
    }

    private func grim(_ f: AdaptiveFixture, _ arguments: [String], name: String) throws -> Screenshot {
        let path = f.session.runtimeDirectory + "/grim-\(name).png"
        let (status, output) = try run(["grim"] + arguments + [path], environment: f.session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        return try Screenshot(png: path)
    }

    private func differing(_ a: Screenshot, _ b: Screenshot, outside box: (x: Int, y: Int, w: Int, h: Int)? = nil) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                if let box, x >= box.x, x < box.x + box.w, y >= box.y, y < box.y + box.h { continue }
                if a[x, y] != b[x, y] { count += 1 }
            }
        }
        return count
    }

    func testGrimWithTheCursorEqualsTheTestCapture() throws {
        let (f, _) = try scene()
        let shot = try f.screenshot()
        let grimmed = try grim(f, ["-c"], name: "cursor")
        XCTAssertEqual(grimmed.width, shot.width)
        XCTAssertEqual(grimmed.height, shot.height)
        XCTAssertEqual(differing(grimmed, shot), 0, "grim -c shows the output exactly as composed")
    }

    func testGrimWithoutTheCursorLeavesOnlyThePointerOut() throws {
        let (f, shape) = try scene()
        let shot = try f.screenshot()
        let grimmed = try grim(f, [], name: "plain")
        // The pointer (and its shadow) is all that differs.
        let box = (x: Int(shape.x) - 12, y: Int(shape.y) - 12, w: Int(shape.width) + 24, h: Int(shape.height) + 24)
        XCTAssertEqual(differing(grimmed, shot, outside: box), 0)
        XCTAssertGreaterThan(differing(grimmed, shot), 20, "the capture with the pointer differs where it is drawn")
        // Under the pointer, the window's own red.
        XCTAssertEqual(grimmed[Int(shape.midX), Int(shape.midY)], 0xff0000)
    }

    func testGrimRegionIsThatPartOfTheOutput() throws {
        let (f, _) = try scene()
        let w = try f.control.windows()[0]
        let shot = try f.screenshot()
        let grimmed = try grim(f, ["-c", "-g", "\(w.x + 100),\(w.y + 70) 120x90"], name: "region")
        XCTAssertEqual(grimmed.width, 120)
        XCTAssertEqual(grimmed.height, 90)
        var count = 0
        for y in 0..<90 { for x in 0..<120 where grimmed[x, y] != shot[Int(w.x) + 100 + x, Int(w.y) + 70 + y] { count += 1 } }
        XCTAssertEqual(count, 0)
        // A corner of each quadrant.
        XCTAssertEqual([grimmed[0, 0], grimmed[119, 0], grimmed[0, 89], grimmed[119, 89]], [0xff0000, 0x00ff00, 0x0000ff, 0xffffff])
    }

    func testCopyWithDamageWaitsForAChangeAndIsStampedWithTheFrameClock() throws {
        let f = try AdaptiveFixture()
        try f.move(to: 600, 400, settle: 1234)
        // A change the client's copy composes at once, at the manual clock's time.
        try f.control.movePointer(x: 610, y: 400)
        let (now, _) = try f.control.advanceClock(milliseconds: 0)
        let log = f.session.runtimeDirectory + "/damage.txt"
        try f.session.launch(["python3", client, "damage"], environment: ["PROBE": "5,5"], output: log)
        XCTAssertTrue(try f.session.wait(timeout: 20) { self.read(log).contains("waiting") }, read(log))
        var lines = read(log).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("buffer 1280 800 5120 1"), "\(lines)")  // xrgb8888
        XCTAssertTrue(lines.contains("flags 0"), "never y-inverted: \(lines)")
        XCTAssertTrue(lines.contains("damage 0 0 1280 800"), "a manager's first copy is all damage: \(lines)")
        XCTAssertTrue(lines.contains("pixel 5 5 0x303446"), "the background: \(lines)")
        // The copied frame was composed at the manual clock's time.
        XCTAssertTrue(lines.contains("ready \(now / 1000) \(now % 1000 * 1_000_000)"), "ready at \(now) ms: \(lines)")

        // Nothing changes: the second copy waits, through frames without damage.
        try f.control.advanceClock(milliseconds: 100)
        XCTAssertEqual(read(log).split(separator: "\n").count, lines.count)
        // The pointer moves: the next frame has damage around it, and the copy completes.
        try f.control.advanceClock(milliseconds: 2000)  // the pointer settles first
        XCTAssertEqual(read(log).split(separator: "\n").count, lines.count)
        try f.control.movePointer(x: 700, y: 450)
        let (then, _) = try f.control.advanceClock(milliseconds: 16)
        XCTAssertTrue(try f.session.wait { self.read(log).split(separator: "\n").count >= lines.count + 3 }, read(log))
        lines = Array(read(log).split(separator: "\n").map(String.init).dropFirst(lines.count))
        XCTAssertEqual(lines.first, "flags 0")
        let box = lines.first { $0.hasPrefix("damage ") }.map { $0.split(separator: " ").dropFirst().compactMap { Int($0) } } ?? []
        XCTAssertEqual(box.count, 4, "\(lines)")
        if box.count == 4 {
            XCTAssertTrue(box[0] <= 700 && box[1] <= 450 && box[0] + box[2] >= 700 && box[1] + box[3] >= 450, "damage \(box) covers the pointer")
            XCTAssertLessThan(box[2] * box[3], 1280 * 800 / 4, "only what changed")
        }
        XCTAssertEqual(lines.last, "ready \(then / 1000) \(then % 1000 * 1_000_000)")
    }

    func testBadBuffersAreRefused() throws {
        let session = try Session()
        for (mode, expected, message): (String, String, String?) in [("wrong-size", "protocol-error", "error 1: buffer 1279×800"),
                                          ("narrow-stride", "protocol-error", "error 1: buffer 1280×800 (stride 2560"),
                                          ("twice", "protocol-error", "error 0: this zwlr_screencopy_frame_v1 was already used"),
                                          ("single-pixel", "failed", nil)] {
            let (status, output) = try run(["python3", client, mode], environment: session.clientEnvironment)
            XCTAssertEqual(status, 0, output)
            XCTAssertTrue(output.contains("RESULT: \(expected)"), "\(mode): \(output)")
            if let message { XCTAssertTrue(output.contains(message), "\(mode): \(output)") }
        }
        XCTAssertTrue(session.compositorIsRunning)
    }

    func testNoScreencopyWithdrawsTheGlobal() throws {
        let on = try Session()
        let (_, listed) = try run(["wayland-info"], environment: on.clientEnvironment)
        XCTAssertTrue(listed.contains("zwlr_screencopy_manager_v1"), listed)
        let off = try Session(extraArguments: ["--no-screencopy"])
        let (_, withdrawn) = try run(["wayland-info"], environment: off.clientEnvironment)
        XCTAssertTrue(withdrawn.contains("wl_compositor"), withdrawn)
        XCTAssertFalse(withdrawn.contains("zwlr_screencopy_manager_v1"), withdrawn)
        let (status, output) = try run(["grim", off.runtimeDirectory + "/refused.png"], environment: off.clientEnvironment)
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(output.contains("screencopy"), output)
    }
}
