import AdaptivePointerClient
import CWaylandClient
import CWaylandProtocols
import LodestoneTesting
import WaylandClient
import XCTest

/// adaptive_pointer_v1 end to end with a preview surface, and region state on a synchronized
/// subsurface: a client's window holds an element box, a subsurface of the same client sits
/// over it, the test moves the pointer on the manual clock and checks the pointer state and
/// the captured pixels.
final class AdaptivePointerPreviewTests: XCTestCase {
    static let background: UInt32 = 0xffe0_e0e0
    static let blue: UInt32 = 0xff20_60d0
    static let red: UInt32 = 0xffd0_3020

    /// A subsurface of `client`'s window holding an 80×40 red buffer at (100, 100), over the
    /// window's blue box of the same place and size (so the two sources of pixels differ).
    private final class Child {
        /// Proxies, so that their wl_proxy goes with them (LeakSanitizer counted bare ones).
        private let proxies: [Proxy]
        /// The child's `wl_surface *`, for the region's preview and the raw requests below.
        let surface: OpaquePointer
        let subsurface: Proxy
        let buffer: ClientShmBuffer

        init(of client: RegionClient) throws {
            guard let sub = client.registry.bind(cwp_wl_subcompositor_interface(), version: 1).map({ Proxy($0, on: client.connection) }),
                  let shm = client.registry.bind(cwp_wl_shm_interface(), version: 1).map({ Proxy($0, on: client.connection) }),
                  let buffer = ClientShmBuffer(shm: shm, width: 80, height: 40) else {
                throw TestFailure("no wl_subcompositor or buffer")
            }
            let surface = Proxy(wl_compositor_create_surface(client.compositor)!, on: client.connection)
            let subsurface = Proxy(sub.request(surface) { wl_subcompositor_get_subsurface($0, $1, client.surface) }!, on: client.connection)
            proxies = [sub, shm, surface, subsurface]
            self.surface = surface.request { $0 }
            self.subsurface = subsurface
            self.buffer = buffer
            buffer.fill(AdaptivePointerPreviewTests.red)
            subsurface.request { wl_subsurface_set_position($0, 100, 100) }
            surface.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
            surface.request { wl_surface_damage($0, 0, 0, 80, 40) }
            // Synchronized (the default): the child's state lands with the parent's commit.
            surface.request { wl_surface_commit($0) }
            try client.commit()
        }
    }

    /// A window at (100, 100) with the blue box and a red child over it.
    private func window(_ f: AdaptiveFixture) throws -> (RegionClient, Child, x: Double, y: Double) {
        let client = try RegionClient(session: f.session, title: "preview", background: Self.background,
                                      boxes: [(100, 100, 80, 40, Self.blue)])
        try f.control.moveWindow("preview", x: 100, y: 100)
        let child = try Child(of: client)
        let shot = try f.screenshot()
        XCTAssertEqual(shot[100 + 140, 100 + 120], Self.red & 0xffffff, "the child is shown over the box")
        return (client, child, 100, 100)
    }

    func testHighlightSlidesThePlatterUnderThePreviewSurface() throws {
        let f = try AdaptiveFixture()
        let (client, child, wx, wy) = try window(f)
        defer { withExtendedLifetime((client, child)) {} }
        var d = RegionDescription(frame: (100, 100, 80, 40), effect: .highlight, identifier: 21)
        d.preview = child.surface
        try client.declare(d)
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(s.effect, .highlight)
        XCTAssertEqual(s.effectProgress, 1, accuracy: 0.05)
        XCTAssertEqual(s.kind, .roundedRect)
        XCTAssertEqual(s.identifier, 21)
        let shot = try f.screenshot()
        // The preview's pixels stay on top of the platter: untinted red inside the element
        // (away from its edges, which the parallax may shift by a fraction of a point).
        for (x, y) in [(105, 105), (140, 120), (174, 134)] {
            XCTAssertLessThan(distance(shot[Int(wx) + x, Int(wy) + y], Self.red), 8,
                              "preview pixel at (\(x), \(y)) is not covered by the platter")
        }
        // The platter shows around it: tinted background just outside the element.
        XCTAssertGreaterThan(distance(shot[Int(wx) + 99, Int(wy) + 120], Self.background), 20, "the platter is there")
    }

    func testLiftScalesThePreviewsPixelsAndFadesThePointer() throws {
        let f = try AdaptiveFixture()
        let (client, child, wx, wy) = try window(f)
        defer { withExtendedLifetime((client, child)) {} }
        var d = RegionDescription(frame: (100, 100, 80, 40), effect: .lift, identifier: 22)
        d.opaque = true
        d.preview = child.surface
        try client.declare(d)
        let s = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(s.effect, .lift)
        XCTAssertGreaterThan(s.effectScale, 1.05, "the element grows")
        XCTAssertLessThan(s.alpha, 0.1, "the pointer fades beneath the element")
        let shot = try f.screenshot()
        // The specular highlight lightens the preview a little, so "the preview's pixel" is
        // red dominating: neither the window's grey background nor the blue box beneath.
        func isPreview(_ p: UInt32) -> Bool { let c = channels(p); return c.r > c.g + 80 && c.r > c.b + 80 }
        // No pointer dot at its centre: the preview's red.
        XCTAssertTrue(isPreview(shot[Int(wx) + 140, Int(wy) + 120]), "the pointer is beneath the preview")
        // The preview's edge moved outward: 2 points left of and above the frame is now red.
        for (x, y) in [(98, 120), (140, 98)] {
            let p = shot[Int(wx) + x, Int(wy) + y]
            XCTAssertTrue(isPreview(p), "preview pixel expected at (\(x), \(y)), got \(String(p, radix: 16))")
        }
    }

    func testRegionsOnASynchronizedSubsurfaceApplyWithTheParentsCommit() throws {
        let f = try AdaptiveFixture()
        let (client, child, wx, wy) = try window(f)
        let regions = client.adaptive.regions(on: child.surface)
        defer { withExtendedLifetime((client, child, regions)) {} }
        let before = try f.screenshot()
        regions.add(RegionDescription(frame: (0, 0, 80, 40), effect: .highlight, identifier: 23))
        // Only the subsurface commits: its state is cached for the parent.
        wl_surface_commit(child.surface)
        try client.sync()
        let cached = try f.move(to: wx + 140, wy + 120)
        XCTAssertEqual(cached.kind, .circle, "the region waits for the parent's commit")
        XCTAssertFalse(cached.targeted)
        // The parent commits: the cached region state applies.
        try client.commit()
        let applied = try f.move(to: wx + 141, wy + 120)
        XCTAssertTrue(applied.targeted)
        XCTAssertEqual(applied.identifier, 23)
        XCTAssertEqual(applied.effect, .highlight)
        XCTAssertEqual(applied.kind, .roundedRect)
        let shot = try f.screenshot()
        // The platter slides beneath the subsurface's element: the element stays nearly as it
        // was, and the platter shows around it.
        let (px, py) = (Int(wx) + 104, Int(wy) + 104)
        XCTAssertEqual(before[px, py], Self.red & 0xffffff)
        XCTAssertLessThan(distance(shot[px, py], Self.red), 24, "the element stays over the platter")
        XCTAssertGreaterThan(distance(shot[Int(wx) + 99, Int(wy) + 120], Self.background), 20, "the platter is there")
    }
}
