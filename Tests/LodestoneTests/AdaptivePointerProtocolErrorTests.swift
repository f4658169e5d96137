import AdaptivePointerClient
import CWaylandClient
import LodestoneTesting
import XCTest

/// Bad adaptive_pointer_v1 requests: each is answered with its protocol error, naming the
/// problem; only the offending client goes, and a well-behaved client keeps its regions.
final class AdaptivePointerProtocolErrorTests: XCTestCase {
    private var fixture: AdaptiveFixture!
    private var good: RegionClient!

    override func setUpWithError() throws {
        fixture = try AdaptiveFixture()
        good = try RegionClient(session: fixture.session, title: "good")
        try fixture.control.moveWindow("good", x: 600, y: 100)
        try good.declare(RegionDescription(frame: (50, 50, 60, 30), effect: .highlight, identifier: 42))
    }

    override func tearDown() {
        good = nil
        fixture = nil
    }

    /// Runs `provoke` in a fresh client and checks the error it earns.
    private func expectError(interface: String, code: UInt32,
                             file: StaticString = #filePath, line: UInt = #line,
                             _ provoke: (RegionClient, PointerRegion) throws -> Void) throws {
        let bad = try RegionClient(session: fixture.session, title: "bad")
        let region = try bad.declare(RegionDescription(frame: (10, 10, 20, 20)))
        XCTAssertThrowsError(try { try provoke(bad, region); try bad.sync() }(), file: file, line: line)
        let error = try XCTUnwrap(bad.connection.protocolError, "no protocol error", file: file, line: line)
        XCTAssertEqual(error.interface, interface, file: file, line: line)
        XCTAssertEqual(error.code, code, file: file, line: line)
        // Everyone else carries on: the good client's region still captures the pointer.
        XCTAssertTrue(fixture.session.compositorIsRunning, file: file, line: line)
        let s = try fixture.move(to: 600 + 80, 100 + 65)
        XCTAssertTrue(s.targeted, "the good client's region survives", file: file, line: line)
        XCTAssertEqual(s.identifier, 42, file: file, line: line)
        try good.sync()
        XCTAssertTrue(try fixture.control.windows().contains { $0.title == "good" }, file: file, line: line)
        _ = try fixture.move(to: 5, 5)
    }

    func testNegativeSize() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 0) { _, r in
            r.request { adaptive_pointer_region_v1_set_frame($0, 0, 0, -4, 10) }
        }
    }

    func testUnknownEnum() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 1) { _, r in
            r.request { adaptive_pointer_region_v1_set_effect($0, 99) }
        }
    }

    func testMoreThanFourAccessories() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 3) { _, r in
            for angle in stride(from: 0.0, to: 360, by: 72) { r.addAccessory(.init(.plus, angle: angle)) }
        }
    }

    func testTooManyRegionsOnASurface() throws {
        try expectError(interface: "adaptive_pointer_surface_v1", code: 0) { bad, _ in
            // Stops one past the limit of 512 (with the declared one): requests written after
            // Lodestone hung up would fail with EPIPE before the error event could be read.
            for i in 0..<512 {
                bad.regions.add(RegionDescription(frame: (Int32(i % 20), 0, 4, 4)))
                if i % 100 == 99 { try bad.sync() }  // see testTooManyRegionsAcrossOneClientsSurfaces
            }
        }
    }

    func testTooManyRegionsAcrossOneClientsSurfaces() throws {
        // Five surfaces of 500 regions each: every surface is under its limit of 512, the
        // client is over its limit of 2,048 (issue 17: 200 × 512 stalled everyone).
        var kept: [SurfaceRegions] = []
        try expectError(interface: "adaptive_pointer_surface_v1", code: 0) { bad, _ in
            var surfaces: [OpaquePointer] = []
            // Freed on this side while the connection is there (LeakSanitizer counts them).
            defer { for s in surfaces { wl_proxy_destroy(s) } }
            for surface in 0..<5 {
                let made = wl_compositor_create_surface(bad.compositor)!
                surfaces.append(made)
                let regions = bad.adaptive.regions(on: made)
                kept.append(regions)
                // The fifth surface stops one region past the limit (4 × 500 + 48 + the
                // declared one): requests written after Lodestone hung up would fill the
                // socket and fail with EPIPE before the error event could be read. A round
                // trip every 100 keeps a slow compositor (under AddressSanitizer) from the same.
                for i in 0..<(surface < 4 ? 500 : 48) {
                    regions.add(RegionDescription(frame: (Int32(i % 20), 0, 4, 4)))
                    if i % 100 == 99 { try bad.sync() }
                }
                try bad.sync()
            }
        }
        XCTAssertTrue(fixture.session.log.contains("adaptive regions per client limit"), fixture.session.log)
    }

    func testPreviewThatIsNotTheClientsOwnSubsurface() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 4) { bad, r in
            let loose = wl_compositor_create_surface(bad.compositor)!
            defer { wl_proxy_destroy(loose) }  // freed on this side only, as the connection ends
            r.request { adaptive_pointer_region_v1_set_preview($0, loose) }
        }
    }

    func testOverLongAnnotation() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 5) { _, r in
            r.setAnnotation(String(repeating: "x", count: 65))
        }
    }

    func testMalformedPath() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 6) { _, r in
            r.setCustomShape(words: [1, 256, 256])  // starts with line, not move
        }
    }

    func testTruncatedPath() throws {
        try expectError(interface: "adaptive_pointer_region_v1", code: 6) { _, r in
            r.setCustomShape(words: [0, 256])
        }
    }

    func testSecondExtensionObjectForASurface() throws {
        try expectError(interface: "adaptive_pointer_manager_v1", code: 0) { bad, _ in
            _ = bad.adaptive.regions(on: bad.surface)
        }
    }

    func testAValidCustomShapeIsAccepted() throws {
        let client = try RegionClient(session: fixture.session, title: "custom")
        try fixture.control.moveWindow("custom", x: 100, y: 100)
        try client.declare(RegionDescription(frame: (50, 50, 60, 30), effect: .none,
                                             shape: .custom([.move(-6, -6), .line(6, -6), .quad(8, 0, 6, 6), .line(-6, 6), .close]),
                                             identifier: 3))
        let s = try fixture.move(to: 100 + 80, 100 + 65)
        XCTAssertNil(client.connection.protocolError)
        XCTAssertEqual(s.kind, .custom)
        XCTAssertEqual(s.identifier, 3)
    }
}
