import CWaylandClient
import CWaylandProtocols
import LodestoneSystem

/// A plain xdg_toplevel drawn from a wl_shm buffer: enough of a toolkit for
/// tests and sample clients. It acknowledges every configure and redraws at
/// the size asked for (or its own size when the compositor leaves it to us).
public final class Window {
    public let globals: Globals
    public let surface: Proxy
    public let xdgSurface: Proxy
    public let toplevel: Proxy
    public private(set) var width: Int32
    public private(set) var height: Int32
    public private(set) var configureCount = 0
    public private(set) var lastStates: [UInt32] = []
    public private(set) var closeRequested = false
    public private(set) var frameCallbacks = 0
    /// Why the last `redraw` could not make its buffer or frame callback, if it could not.
    public private(set) var lastFailure: SystemError?
    /// Draws the window's pixels (premultiplied ARGB) into a buffer of its size.
    public var draw: (ClientShmBuffer) -> Void
    public var scale: Int32 = 1
    /// wl_output.transform of the buffer; odd values swap the buffer's sides.
    public var transform: Int32 = 0
    private var buffers: [ClientShmBuffer] = []
    private var pendingSize: (Int32, Int32) = (0, 0)
    private var frameCallback: Proxy?

    public init(_ globals: Globals, title: String, width: Int32, height: Int32, draw: @escaping (ClientShmBuffer) -> Void = { $0.fill(0xff80_80c0) }) throws {
        self.globals = globals
        self.width = width
        self.height = height
        self.draw = draw
        let c = globals.connection
        let surface = try Proxy(creating: { wl_compositor_create_surface(globals.compositor.pointer) }, on: c, what: "wl_compositor.create_surface")
        let xdgSurface = try Proxy(creating: { xdg_wm_base_get_xdg_surface(globals.wmBase.pointer, surface.pointer) }, on: c, what: "xdg_wm_base.get_xdg_surface")
        let toplevel = try Proxy(creating: { xdg_surface_get_toplevel(xdgSurface.pointer) }, on: c, what: "xdg_surface.get_toplevel")
        self.surface = surface
        self.xdgSurface = xdgSurface
        self.toplevel = toplevel
        xdg_toplevel_set_title(toplevel.pointer, title)
        xdg_toplevel_set_app_id(toplevel.pointer, title)
        toplevel.handleEvents(ToplevelEvent.self) { [unowned self] event in
            switch event {
            case .configure(let width, let height, let states):
                self.pendingSize = (width, height)
                self.lastStates = states
            case .close: self.closeRequested = true
            case .configureBounds, .wmCapabilities: break
            }
        }
        xdgSurface.handleEvents(XdgSurfaceEvent.self) { [unowned self] event in
            switch event {
            case .configure(let serial):
                xdg_surface_ack_configure(self.xdgSurface.pointer, serial)
                if self.pendingSize.0 > 0 { self.width = self.pendingSize.0 }
                if self.pendingSize.1 > 0 { self.height = self.pendingSize.1 }
                self.configureCount += 1
                self.redraw()
            }
        }
        wl_surface_commit(surface.pointer)
        try c.roundtrip()
    }

    deinit {
        toplevel.destroy { xdg_toplevel_destroy($0) }
        xdgSurface.destroy { xdg_surface_destroy($0) }
        surface.destroy { wl_surface_destroy($0) }
    }

    /// Draws a fresh buffer at the current size and commits it, asking for a frame callback.
    /// When the buffer cannot be made nothing is committed; `lastFailure` says why.
    public func redraw() {
        let (bw, bh) = transform & 1 == 1 ? (height * scale, width * scale) : (width * scale, height * scale)
        let buffer: ClientShmBuffer
        do throws(SystemError) {
            buffer = try ClientShmBuffer(on: globals.shm, width: bw, height: bh)
        } catch {
            lastFailure = error
            return
        }
        draw(buffer)
        buffers.append(buffer)
        if buffers.count > 3 { buffers.removeFirst() }  // the compositor reads only the newest (until the next replaces it)
        wl_surface_set_buffer_scale(surface.pointer, scale)
        wl_surface_set_buffer_transform(surface.pointer, transform)
        wl_surface_attach(surface.pointer, buffer.buffer.pointer, 0, 0)
        wl_surface_damage_buffer(surface.pointer, 0, 0, bw, bh)
        // Without a callback the commit still goes out; only the count misses it.
        do throws(SystemError) {
            let callback = try Proxy(creating: { wl_surface_frame(surface.pointer) }, on: globals.connection, what: "wl_surface.frame")
            callback.handleEvents(CallbackEvent.self) { [unowned self] event in
                switch event {
                case .done: self.frameCallbacks += 1
                }
            }
            frameCallback = callback
        } catch {
            lastFailure = error
            frameCallback = nil
        }
        wl_surface_commit(surface.pointer)
        globals.connection.flush()
    }

    /// Starts an interactive move (after a button press on the window).
    public func move() {
        guard let seat = globals.seat else { return }
        xdg_toplevel_move(toplevel.pointer, seat.pointer, globals.lastButtonSerial)
        globals.connection.flush()
    }

    /// Starts an interactive resize from `edges` (xdg_toplevel.resize_edge).
    public func resize(edges: UInt32) {
        guard let seat = globals.seat else { return }
        xdg_toplevel_resize(toplevel.pointer, seat.pointer, globals.lastButtonSerial, edges)
        globals.connection.flush()
    }

    public func setMaximized(_ on: Bool) {
        on ? xdg_toplevel_set_maximized(toplevel.pointer) : xdg_toplevel_unset_maximized(toplevel.pointer)
        globals.connection.flush()
    }
}
