import Foundation
import XCTest

/// `Scripts/check-closed-wrappers`, which `make test` runs first: it passes on `Sources/` and
/// fails on a wrapper that exposes its C pointer (issue 25).
final class ClosedWrappersCheckTests: XCTestCase {
    private let script = repositoryRoot + "/Scripts/check-closed-wrappers"

    func testSourcesExposeNoRawPointer() throws {
        let (status, output) = try run([script])
        XCTAssertEqual(status, 0, output)
    }

    /// Each way a wrapper could hand its C value out fails the check; a `with…Pointer`
    /// closure and a pointer taken in (an initializer's argument) do not.
    func testAPublicRawPointerFailsTheCheck() throws {
        let directory = NSTemporaryDirectory() + "closed-wrappers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let exposed = [
            "    public let pointer: OpaquePointer",
            "    public var data: UnsafeMutablePointer<UInt32> { raw }",
            "    public private(set) var handle: UnsafeMutableRawPointer?",
            "    public func array(_ i: Int) -> UnsafeMutablePointer<wl_array>? { base[i].a }",
            "    open func resource() throws -> OpaquePointer {",
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
            "    package let pointer: OpaquePointer",
        ]
        for line in closed {
            try "public final class Wrapper {\n\(line)\n}\n".write(toFile: directory + "/Wrapper.swift", atomically: true, encoding: .utf8)
            let (status, output) = try run([script, directory])
            XCTAssertEqual(status, 0, "refused: \(line)\n\(output)")
        }
    }
}
