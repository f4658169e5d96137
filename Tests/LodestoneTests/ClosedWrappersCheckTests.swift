import Foundation
import XCTest

/// `Scripts/check-closed-wrappers`, which `make test` runs first: it passes on `Sources/` and
/// fails on a wrapper that exposes its C pointer (issue 25).
final class ClosedWrappersCheckTests: XCTestCase {
    private let script = repositoryRoot + "/Scripts/check-closed-wrappers"

    /// An empty directory of the test's own for the script to check, removed afterwards.
    private func scratchDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "closed-wrappers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        return directory
    }

    /// A file whose header says so (the generated wl_interface tables) is skipped whole.
    func testAFileMarkedAllowedIsSkipped() throws {
        let directory = try scratchDirectory()
        let tables = "// closed-wrappers: allowed in this file (static tables)\npackage enum T {\n    package static var a: UnsafePointer<wl_interface> { x() }\n}\n"
        try tables.write(toFile: directory + "/Tables.swift", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run([script, directory]).status, 0)
        try "public final class W {\n    package let p: OpaquePointer\n}\n".write(toFile: directory + "/W.swift", atomically: true, encoding: .utf8)
        let (status, output) = try run([script, directory])
        XCTAssertEqual(status, 1, "the marker covers its own file only:\n\(output)")
        XCTAssertFalse(output.contains("Tables.swift"), output)
    }

    /// errno is read through LodestoneSystem's funnel only: a bare read fails the check, a
    /// comment and an `errno:` label do not.
    func testABareErrnoReadFailsTheCheck() throws {
        let directory = try scratchDirectory()
        let fine = "func f() throws {\n    // errno in a comment\n    throw SystemError(\"x\", errno: lastErrno)\n}\n"
        try fine.write(toFile: directory + "/F.swift", atomically: true, encoding: .utf8)
        XCTAssertEqual(try run([script, directory]).status, 0)
        try "func g() -> Bool {\n    errno == EINTR\n}\n".write(toFile: directory + "/G.swift", atomically: true, encoding: .utf8)
        let (status, output) = try run([script, directory])
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains("G.swift:2"), output)
    }

    func testSourcesExposeNoRawPointer() throws {
        let (status, output) = try run([script])
        XCTAssertEqual(status, 0, output)
    }

    /// Each way a wrapper could hand its C value out fails the check; a `with…Pointer`
    /// closure and a pointer taken in (an initializer's argument) do not.
    func testAPublicRawPointerFailsTheCheck() throws {
        let directory = try scratchDirectory()
        let exposed = [
            "    public let pointer: OpaquePointer",
            "    public var data: UnsafeMutablePointer<UInt32> { raw }",
            "    public private(set) var handle: UnsafeMutableRawPointer?",
            "    public func array(_ i: Int) -> UnsafeMutablePointer<wl_array>? { base[i].a }",
            "    open func resource() throws -> OpaquePointer {",
            // Package level is beyond the module too (issue 35).
            "    package let pointer: OpaquePointer",
            "    package var data: UnsafeMutableRawPointer { raw }",
            "    package func object(_ i: Int) -> OpaquePointer? { base[i].o }",
        ]
        for line in exposed {
            try "public final class Wrapper {\n\(line)\n}\n".write(toFile: directory + "/Wrapper.swift", atomically: true, encoding: .utf8)
            let (status, output) = try run([script, directory])
            XCTAssertEqual(status, 1, "not caught: \(line)\n\(output)")
            XCTAssertTrue(output.contains(line.trimmingCharacters(in: .whitespaces)), output)
        }
        let closed = [
            "    let pointer: OpaquePointer",
            "    public func withPointer<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(pointer) }",
            "    public init(borrowing data: UnsafeMutableRawPointer, width: Int32) {}",
            "    package func withResource<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R { try body(resource) }",
            "    package let data: UnsafeMutableRawPointer  // closed-wrappers: allowed (a reason given)",
        ]
        for line in closed {
            try "public final class Wrapper {\n\(line)\n}\n".write(toFile: directory + "/Wrapper.swift", atomically: true, encoding: .utf8)
            let (status, output) = try run([script, directory])
            XCTAssertEqual(status, 0, "refused: \(line)\n\(output)")
        }
    }
}
