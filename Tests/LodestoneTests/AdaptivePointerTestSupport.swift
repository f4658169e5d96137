import AdaptivePointerClient
import CWaylandClient
import CWaylandProtocols
import Foundation
import LodestoneTesting
import WaylandClient
import XCTest

/// What `lodestone_test_v1.pointer_shape` reported.
typealias PointerShape = TestControl.PointerShape

extension PointerShape {
    /// The targeted region's identifier (meaningful when `targeted`).
    var identifier: UInt32 { regionIdentifier }
}

/// A test client: one xdg_toplevel filled with a background colour and coloured boxes, with
/// its wl_pointer events recorded and adaptive_pointer_v1 at hand.
final class RegionClient {
    let connection: Connection
    let registry: Registry
    let compositor: OpaquePointer
    let shm: OpaquePointer
    private let shmProxy: Proxy
    let seat: OpaquePointer
    let surface: OpaquePointer
    private let wmBase: Proxy
    private let xdgSurface: Proxy
    private let toplevel: Proxy
    private let pointer: Proxy
    let adaptive: AdaptivePointer
    private(set) var regions: SurfaceRegions!
    private var buffers: [ClientShmBuffer] = []
    let width: Int32, height: Int32
    private var configured = false

    /// Pointer events in surface-local coordinates.
    private(set) var motions: [(x: Double, y: Double)] = []
    private(set) var buttons: [(x: Double, y: Double, pressed: Bool)] = []
    private(set) var lastSerial: UInt32 = 0
    private var pointerAt = (x: 0.0, y: 0.0)
    private(set) var entered: [UInt32] = []
    private(set) var left: [UInt32] = []
    private(set) var bands: [(PointerRegion.BandState, Double, Double, Double, Double)] = []
    /// Scribble's `written` events (version 4): identifier, text, the ink's surface-local rect.
    private(set) var written: [(identifier: UInt32, text: String, x: Double, y: Double, width: Double, height: Double)] = []

    init(session: Session, title: String, width: Int32 = 400, height: Int32 = 300, background: UInt32 = 0xffe0_e0e0,
         boxes: [(x: Int32, y: Int32, width: Int32, height: Int32, color: UInt32)] = [],
         protocolVersion: UInt32 = AdaptivePointer.supportedVersion) throws {
        self.width = width; self.height = height
        connection = try session.connect()
        registry = connection.registry()
        guard let c = registry.bind(cwp_wl_compositor_interface(), version: 4),
              let s = registry.bind(cwp_wl_shm_interface(), version: 1),
              let seat = registry.bind(cwp_wl_seat_interface(), version: 5),
              let wm = registry.bind(cwp_xdg_wm_base_interface(), version: 2) else {
            throw TestFailure( "missing globals")
        }
        compositor = c; shm = s; self.seat = seat
        shmProxy = Proxy(s, on: connection)
        adaptive = try AdaptivePointer(registry: registry, version: protocolVersion)
        wmBase = Proxy(wm, on: connection)
        surface = wl_compositor_create_surface(c)!
        xdgSurface = Proxy(xdg_wm_base_get_xdg_surface(wm, surface)!, on: connection)
        toplevel = Proxy(xdgSurface.request { xdg_surface_get_toplevel($0) }!, on: connection)
        pointer = Proxy(wl_seat_get_pointer(seat)!, on: connection)
        wmBase.onEvent = { [unowned self] _, a in self.wmBase.request { xdg_wm_base_pong($0, a.uint(0)) } }
        xdgSurface.onEvent = { [unowned self] _, a in
            self.xdgSurface.request { xdg_surface_ack_configure($0, a.uint(0)) }
            self.configured = true
        }
        pointer.onEvent = { [unowned self] opcode, a in
            switch opcode {
            case 0: self.pointerAt = (a.fixed(2), a.fixed(3)); self.lastSerial = a.uint(0)
            case 2: self.pointerAt = (a.fixed(1), a.fixed(2)); self.motions.append(self.pointerAt)
            case 3:
                self.lastSerial = a.uint(0)
                self.buttons.append((self.pointerAt.x, self.pointerAt.y, a.uint(3) == 1))
            default: break
            }
        }
        toplevel.request { xdg_toplevel_set_title($0, title) }
        regions = adaptive.regions(on: surface)
        wl_surface_commit(surface)
        try connection.roundtrip()
        guard configured else { throw TestFailure( "no configure") }
        try draw(background: background, boxes: boxes)
        _ = try session.waitForWindow(title)
    }

    /// Attaches a new buffer (at `scale`) and commits.
    func draw(background: UInt32 = 0xffe0_e0e0, boxes: [(x: Int32, y: Int32, width: Int32, height: Int32, color: UInt32)] = [],
              scale: Int32 = 1) throws {
        guard let buffer = ClientShmBuffer(shm: shmProxy, width: width * scale, height: height * scale) else {
            throw TestFailure( "no buffer")
        }
        buffer.fill(background)
        for b in boxes {
            for y in (b.y * scale)..<((b.y + b.height) * scale) {
                for x in (b.x * scale)..<((b.x + b.width) * scale) { buffer[Int(y * buffer.width + x)] = b.color }
            }
        }
        buffers.append(buffer)
        wl_surface_set_buffer_scale(surface, scale)
        buffer.buffer.request { wl_surface_attach(surface, $0, 0, 0) }
        wl_surface_damage(surface, 0, 0, width, height)
        wl_surface_commit(surface)
        try connection.roundtrip()
    }

    /// Declares a region, recording its events, and commits.
    @discardableResult
    func declare(_ d: RegionDescription, commit: Bool = true) throws -> PointerRegion {
        let region = regions.add(d)
        region.onEnter = { [unowned self] in self.entered.append($0) }
        region.onLeave = { [unowned self] in self.left.append($0) }
        region.onBand = { [unowned self] _, state, r in self.bands.append((state, r.x, r.y, r.width, r.height)) }
        region.onWritten = { [unowned self] identifier, text, r in self.written.append((identifier, text, r.x, r.y, r.width, r.height)) }
        if commit { try self.commit() }
        return region
    }

    func commit() throws {
        wl_surface_commit(surface)
        try connection.roundtrip()
    }

    /// Reads the events the compositor sent since the last call.
    func sync() throws { try connection.roundtrip() }

    /// The proxies made without a `Proxy` wrapper are freed on this side before the connection
    /// goes (no request: the surface's role objects are not gone yet); LeakSanitizer counted them.
    deinit {
        for proxy in [surface, seat, compositor] { wl_proxy_destroy(proxy) }
    }

    /// Starts an interactive move with the last button serial.
    func startMove() throws {
        toplevel.request { xdg_toplevel_move($0, seat, lastSerial) }
        try connection.roundtrip()
    }

    private var shapeDevice: Proxy?
    /// The cursor shape manager and the cursor surfaces, kept while the client lives.
    private var kept: [Proxy] = []

    /// `wp_cursor_shape_device_v1.set_shape` with the last enter (or button) serial; the
    /// manager and device are made on first use.
    /// `version`: the wp_cursor_shape_manager_v1 version bound on first use (2 has dnd_ask, all_resize).
    func setCursorShape(_ shape: UInt32, serial: UInt32? = nil, version: UInt32 = 1) throws {
        if shapeDevice == nil {
            guard let manager = registry.bind(cwp_wp_cursor_shape_manager_v1_interface(), version: version).map({ Proxy($0, on: connection) }) else {
                throw TestFailure("no wp_cursor_shape_manager_v1")
            }
            kept.append(manager)
            shapeDevice = Proxy(manager.request(pointer) { wp_cursor_shape_manager_v1_get_pointer($0, $1) }!, on: connection)
        }
        shapeDevice?.request { wp_cursor_shape_device_v1_set_shape($0, serial ?? lastSerial, shape) }
        try connection.roundtrip()
    }

    /// Sets a cursor image with these ARGB pixels (row-major, `width` per row), as a toolkit
    /// attaches a theme cursor: attach, commit, then set_cursor with the hotspot.
    func setCursorImage(width: Int32, height: Int32, pixels: [UInt32], hotspot: (Int32, Int32) = (0, 0), scale: Int32 = 1) throws {
        let cursorProxy = Proxy(wl_compositor_create_surface(compositor)!, on: connection)
        kept.append(cursorProxy)
        let cursor = cursorProxy.request { $0 }  // the wl_surface * set_cursor names
        guard let buffer = ClientShmBuffer(shm: shmProxy, width: width, height: height) else { throw TestFailure("no buffer") }
        for i in 0..<Int(width * height) { buffer[i] = pixels[i] }
        buffers.append(buffer)
        wl_surface_set_buffer_scale(cursor, scale)
        buffer.buffer.request { wl_surface_attach(cursor, $0, 0, 0) }
        wl_surface_damage(cursor, 0, 0, width, height)
        wl_surface_commit(cursor)
        pointer.request { wl_pointer_set_cursor($0, lastSerial, cursor, hotspot.0, hotspot.1) }
        try connection.roundtrip()
    }

    /// `wl_pointer.set_cursor` with no surface: no cursor.
    func hideCursor() throws {
        pointer.request { wl_pointer_set_cursor($0, lastSerial, nil, 0, 0) }
        try connection.roundtrip()
    }

    /// Sets a legacy cursor image (a 16×16 magenta square).
    func setLegacyCursor() throws {
        let cursorProxy = Proxy(wl_compositor_create_surface(compositor)!, on: connection)
        kept.append(cursorProxy)
        let cursor = cursorProxy.request { $0 }  // the wl_surface * set_cursor names
        guard let buffer = ClientShmBuffer(shm: shmProxy, width: 16, height: 16) else { return }
        buffer.fill(0xffff_00ff)
        buffers.append(buffer)
        buffer.buffer.request { wl_surface_attach(cursor, $0, 0, 0) }
        wl_surface_damage(cursor, 0, 0, 16, 16)
        wl_surface_commit(cursor)
        pointer.request { wl_pointer_set_cursor($0, lastSerial, cursor, 0, 0) }
        try connection.roundtrip()
    }
}

/// A session with a manual clock, its control and a shape probe.
final class AdaptiveFixture {
    let session: Session
    let probe: PointerShapeProbe
    var control: TestControl { session.control }

    init(size: String = "1280x800", extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        session = try Session(size: size, manualClock: true, extraArguments: extraArguments, environment: environment)
        probe = try PointerShapeProbe(session: session)
    }

    /// Moves, then lets every animation settle on the manual clock.
    @discardableResult
    func move(to x: Double, _ y: Double, settle: UInt32 = 1000) throws -> PointerShape {
        try control.movePointer(x: x, y: y)
        if settle > 0 { try control.advanceClock(milliseconds: settle) }
        return try probe.shape()
    }

    func screenshot() throws -> Screenshot { try session.screenshot() }

    deinit { session.stop() }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Channel helpers for 0xRRGGBB pixels.
func channels(_ p: UInt32) -> (r: Int, g: Int, b: Int) { (Int(p >> 16 & 0xff), Int(p >> 8 & 0xff), Int(p & 0xff)) }
func brightness(_ p: UInt32) -> Int { let c = channels(p); return c.r + c.g + c.b }
func distance(_ a: UInt32, _ b: UInt32) -> Int {
    let x = channels(a), y = channels(b)
    return abs(x.r - y.r) + abs(x.g - y.g) + abs(x.b - y.b)
}
