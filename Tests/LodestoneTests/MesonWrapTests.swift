import Foundation
import LodestoneTesting
import XCTest

/// meson-wrap/: the protocol XML for C projects. Installed, `pkg-config --variable=pkgdatadir
/// lodestone-protocols` finds it; as a subproject (meson-wrap/example/subprojects/), a C client
/// generates its bindings from it with wayland-scanner, and that client's region works in the
/// headless compositor.
final class MesonWrapTests: XCTestCase {
    static let wrap = repositoryRoot + "/meson-wrap"
    static let protocolXML = repositoryRoot + "/protocols/adaptive-pointer-v1.xml"
    static let blue: UInt32 = 0x2060d0       // the example's button (main.c)
    static let background: UInt32 = 0xe8e8e8 // the example's window

    private var scratch: String!

    override func setUpWithError() throws {
        try requireTools(["meson", "ninja", "wayland-scanner", "pkg-config"], install: "apt-get install -y meson ninja-build; make deps")
        scratch = NSTemporaryDirectory() + "lodestone-meson-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    /// Runs a build step and fails with its output if it fails.
    @discardableResult
    private func step(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let (status, output) = try run(arguments, environment: environment)
        guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(status)):\n\(output)") }
        return output
    }

    func testInstalledPkgConfigNamesTheProtocolDirectory() throws {
        let prefix = scratch + "/prefix"
        try step(["meson", "setup", "--prefix", prefix, scratch + "/build", Self.wrap])
        try step(["meson", "install", "-C", scratch + "/build"])

        var env = ProcessInfo.processInfo.environment
        env["PKG_CONFIG_PATH"] = prefix + "/share/pkgconfig"
        env.removeValue(forKey: "PKG_CONFIG_SYSROOT_DIR")
        let directory = try step(["pkg-config", "--variable=pkgdatadir", "lodestone-protocols"], environment: env)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual((directory as NSString).standardizingPath, prefix + "/share/lodestone-protocols")

        // The installed XML is a real file with the compositor's protocol in it, not a link
        // back into the source tree or a stale copy.
        let installed = directory + "/adaptive-pointer-v1.xml"
        let type = try FileManager.default.attributesOfItem(atPath: installed)[.type] as? FileAttributeType
        XCTAssertEqual(type, .typeRegular)
        XCTAssertEqual(FileManager.default.contents(atPath: installed), FileManager.default.contents(atPath: Self.protocolXML))
    }

    func testCClientBuiltFromTheWrapLiftsItsButton() throws {
        // Configure and build the example; the subproject is forced so an installed copy of
        // lodestone-protocols cannot stand in for the wrap.
        let build = scratch + "/example"
        let setup = try step(["meson", "setup", "--force-fallback-for=lodestone-protocols", build, Self.wrap + "/example"])
        XCTAssertTrue(setup.contains("Executing subproject lodestone-protocols"), setup)
        try step(["ninja", "-C", build])
        let client = build + "/adaptive-pointer-example"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: client))

        // Run it in the headless compositor; it leaves by itself after 120 s if we crash.
        let f = try AdaptiveFixture()
        let output = f.session.runtimeDirectory + "/meson-example.out"
        try f.session.launch([client, "120"], output: output)
        let printed = { textOfFile(output) }
        XCTAssertTrue(try f.session.wait { printed().contains("ready\n") }, "the client did not declare its region: \(printed())")
        _ = try f.session.waitForWindow("meson-example")
        try f.control.moveWindow("meson-example", x: 100, y: 100)

        // The button is at (100, 70) 120×60 in the surface: (200, 170) on the output.
        let s = try f.move(to: 260, 200)
        XCTAssertTrue(s.targeted)
        XCTAssertEqual(s.identifier, 42)
        XCTAssertEqual(s.effect, .lift)
        XCTAssertGreaterThan(s.effectScale, 1.05, "the button grows")
        XCTAssertLessThan(s.alpha, 0.1, "the pointer fades beneath the button")
        let shot = try f.screenshot()
        XCTAssertLessThan(distance(shot[198, 200], Self.blue), 60, "the lifted button's edge moved outward")
        XCTAssertGreaterThan(distance(shot[198, 200], Self.background), 100)
        XCTAssertTrue(try f.session.wait { printed().contains("entered 42\n") }, "no region entered event: \(printed())")

        // Away from the button the pointer is a plain circle again and the client hears it left.
        let away = try f.move(to: 700, 600)
        XCTAssertFalse(away.targeted)
        XCTAssertEqual(away.kind, .circle)
        XCTAssertTrue(try f.session.wait { printed().contains("left 42\n") }, "no region left event: \(printed())")
    }
}
