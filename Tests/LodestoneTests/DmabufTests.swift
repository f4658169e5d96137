import Foundation
import LodestoneTesting
import XCTest

/// `zwp_linux_dmabuf_v1` version 4 in a headless Lodestone, with a pywayland client
/// (Tests/clients/dmabuf_client.py): the feedback, every protocol error of bad parameters with
/// its message, `failed` for an fd that is no dmabuf, the fds Lodestone holds counted in
/// /proc before and after, and a linear XRGB8888 dmabuf shown where this machine can make one
/// (/dev/udmabuf, or a DRM node for a dumb buffer; `make test-tty`'s dmabuf scenario always can).
final class DmabufTests: XCTestCase {
    private var session: Session!

    override func setUpWithError() throws {
        let (status, _) = try run(["python3", "-c", "import pywayland"])
        if status != 0 {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("pywayland is missing; run make deps") }
            throw XCTSkip("pywayland is missing; run make deps")
        }
        session = try Session()
    }

    override func tearDown() {
        session?.stop()
        session = nil
    }

    private func client(_ arguments: String...) throws -> String {
        let (status, output) = try run(["python3", repositoryRoot + "/Tests/clients/dmabuf_client.py"] + arguments, environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, "dmabuf_client.py \(arguments) crashed:\n\(output)")
        return output
    }

    /// The fds the compositor holds (/proc/PID/fd).
    private func compositorFds() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(session.compositorPID)/fd").count
    }

    /// The count once a client that just left is gone from the compositor too: the same in
    /// two readings 0.2 s apart.
    private func settledFds() throws -> Int {
        var last = try compositorFds()
        while true {
            Thread.sleep(forTimeInterval: 0.2)
            let now = try compositorFds()
            if now == last { return now }
            last = now
        }
    }

    /// Each bad request gets its error, with a message naming what was wrong, and only the
    /// bad client is disconnected; then hundreds of params, failed imports and buffers, and a
    /// client that passes the fd limit: afterwards Lodestone holds the fds it held before.
    func testBadParametersGetTheProtocolsErrorsAndNoFdLeaks() throws {
        _ = try client("feedback")  // the format table made, the first client's fds come and go
        let before = try settledFds()
        let errors: [(mode: String, code: Int, says: String)] = [
            ("already-used", 0, "already made a wl_buffer"),
            ("plane-idx", 1, "plane index 4 is out of bounds"),
            ("plane-set", 2, "plane 0 was already added"),
            ("incomplete-none", 3, "no plane was added"),
            ("incomplete-gap", 3, "plane 1 is missing"),
            ("incomplete-planes", 3, "XR24:0x0 has one plane, 2 were added"),
            ("invalid-format", 4, "NV12:0x0 were not advertised"),
            ("invalid-modifier", 4, "XR24:0xffffffffffffff were not advertised"),
            ("modifier-mismatch", 4, "every plane needs the same"),
            ("invalid-dimensions", 5, "0×120: both must be positive"),
            ("out-of-bounds", 6, "past the dmabuf's 1048576"),
            ("short-stride", 6, "stride 796 is less than a row, 800 bytes"),
            ("invalid-wl-buffer", 7, "its plane is not a dmabuf"),
        ]
        for e in errors {
            let output = try client(e.mode)
            // libwayland-client logs "zwp_linux_buffer_params_v1#5: error 6: plane 0: ..."
            let logged = output.split(separator: "\n").first { $0.contains("zwp_linux_buffer_params_v1#") && $0.contains(": error ") }
            XCTAssertTrue(output.contains("RESULT: protocol-error"), "\(e.mode): \(output)")
            XCTAssertTrue(logged?.contains(": error \(e.code): ") == true, "\(e.mode): expected error \(e.code), got \(output)")
            XCTAssertTrue(logged?.contains(e.says) == true, "\(e.mode): expected '\(e.says)' in \(logged ?? "nothing")")
        }
        // An fd that maps but is no dmabuf: `failed` after create, the client carries on; the
        // same for version 3's implicit modifier, which Lodestone cannot read.
        for mode in ["failed", "failed-v3-implicit"] {
            let output = try client(mode)
            XCTAssertTrue(output.contains("failed\n") && output.contains("RESULT: ok"), "\(mode): \(output)")
        }
        XCTAssertTrue(try client("churn", "100").contains("RESULT: ok"))
        let flood = try client("fd-flood")
        XCTAssertTrue(flood.contains("stopped after 256 planes") && flood.contains("256 dmabuf fds in Lodestone, the limit"), flood)
        XCTAssertTrue(session.compositorIsRunning, session.log)
        // Every client has gone; the compositor lets go of their fds as it sees them leave.
        let after = try settledFds()
        print("compositor fds: \(before) before, \(after) after 13 errors, 2 failed imports, 100 × 3 params and buffers and 256 planes of a flood")
        XCTAssertEqual(after, before, "the compositor holds \(after - before) more fds than before")
    }

    /// Version 4's feedback: a sealed table of XRGB8888 and ARGB8888 with the LINEAR modifier,
    /// the main device (this machine's first render node, or 0:0 without /dev/dri), one tranche
    /// for it, for the default and a surface's feedback alike; version 3 hears the modifiers,
    /// version 1 the formats.
    func testFeedbackOffersLinearXRGBAndARGBOnTheMainDevice() throws {
        let output = try client("feedback")
        let device = Self.expectedMainDevice()
        for which in ["default", "surface"] {
            XCTAssertTrue(output.contains("\(which) table XR24:0x0 AR24:0x0\n"), output)  // no bogus entry: the write was refused
            XCTAssertTrue(output.contains("\(which) main_device \(device)\n"), output)
            XCTAssertTrue(output.contains("\(which) tranche \(device) flags 0 formats XR24:0x0 AR24:0x0\n\(which) done"), output)
        }
        XCTAssertTrue(output.contains("v3 modifier XR24:0x0\nv3 modifier AR24:0x0\n"), output)
        XCTAssertFalse(output.contains("v3 format"), "version 3 hears modifier events only: \(output)")
        XCTAssertTrue(output.contains("v1 format XR24\nv1 format AR24\n"), output)
        XCTAssertTrue(output.contains("RESULT: ok"), output)
    }

    /// The main device headless: the first /dev/dri/renderD*, else card*, else 0:0.
    private static func expectedMainDevice() -> String {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        for prefix in ["renderD", "card"] {
            if let name = nodes.filter({ $0.hasPrefix(prefix) }).sorted().first {
                var s = stat()
                guard stat("/dev/dri/" + name, &s) == 0 else { continue }
                // glibc's gnu_dev_major and gnu_dev_minor, as Python's os.major and os.minor.
                let d = UInt64(s.st_rdev)
                return "\((d >> 8 & 0xfff) | (d >> 32 & ~0xfff)):\((d & 0xff) | (d >> 12 & ~0xff))"
            }
        }
        return "0:0"
    }

    /// A linear XRGB8888 dmabuf (stride padded, at an offset, the X byte 0) is drawn as its four
    /// quadrants, opaque. Needs a dmabuf this machine can make: /dev/udmabuf, or a DRM node for
    /// a dumb buffer. Here there may be neither (no DRM in a container; Debian 12's kernel has no
    /// udmabuf); make test-tty's dmabuf scenario shows the same client on a TTY in the guest.
    func testLinearXRGBDmabufIsDrawn() throws {
        guard FileManager.default.fileExists(atPath: "/dev/udmabuf") || FileManager.default.fileExists(atPath: "/dev/dri") else {
            throw XCTSkip("this machine makes no dmabuf: no /dev/udmabuf (CONFIG_UDMABUF) and no /dev/dri; make test-tty's dmabuf scenario checks the picture")
        }
        let output = session.runtimeDirectory + "/dmabuf-client.txt"
        try session.launch(["python3", repositoryRoot + "/Tests/clients/dmabuf_client.py", "show"], output: output)
        XCTAssertTrue(try session.wait(timeout: 20) { textOfFile(output).contains("mapped") || textOfFile(output).contains("RESULT") }, textOfFile(output))
        guard !textOfFile(output).contains("RESULT: no-dmabuf") else {
            throw XCTSkip("no dmabuf could be made here (\(textOfFile(output))); make test-tty's dmabuf scenario checks the picture")
        }
        let window = try session.waitForWindow("dmabuf-client")
        XCTAssertEqual(window.width, 200)
        XCTAssertEqual(window.height, 120)
        let shot = try session.screenshot()
        let (x, y) = (Int(window.x), Int(window.y))
        // Each quadrant's middle and corners, in its colour.
        for (i, colour) in [UInt32(0xff0000), 0x00ff00, 0x0000ff, 0xffffff].enumerated() {
            let qx = x + (i % 2) * 100, qy = y + (i / 2) * 60
            for (dx, dy) in [(0, 0), (99, 0), (0, 59), (99, 59), (50, 30)] {
                XCTAssertEqual(shot[qx + dx, qy + dy], colour, "quadrant \(i) at (\(dx), \(dy))")
            }
        }
    }
}
