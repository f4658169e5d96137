import XCTest

/// The committed wayland-scanner output, and the Swift interface bindings generated beside it
/// (WaylandServer/ProtocolInterfaces.swift), must match a fresh regeneration.
final class GeneratedProtocolTests: XCTestCase {
    func testCommittedProtocolCodeMatchesRegeneration() throws {
        let (status, output) = try run(["bash", repositoryRoot + "/Scripts/generate-protocols", "--check"], directory: repositoryRoot)
        XCTAssertEqual(status, 0, "regenerate with Scripts/generate-protocols:\n\(output)")
    }

    /// Handlers conform to their interface's generated protocol (`WlSurfaceHandler`): none
    /// hand-writes `static var interface` or a `Request` enum of opcodes.
    func testNoHandlerHandWritesItsInterfaceOrOpcodes() throws {
        let (_, output) = try run(["grep", "-rnE", "--include=*.swift",
                                   "static var interface: UnsafePointer<wl_interface> \\{|enum Request: UInt32",
                                   "Sources"], directory: repositoryRoot)
        let handWritten = output.split(separator: "\n").filter {
            !$0.hasPrefix("Sources/WaylandServer/ProtocolInterfaces.swift:") && !$0.hasSuffix("{ get }")  // ProtocolObject's requirement
        }
        XCTAssertEqual(handWritten, [], "conform to the generated XHandler or XInterface instead")
    }
}
