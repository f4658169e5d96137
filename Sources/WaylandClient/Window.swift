import CWaylandClient
import CWaylandProtocols

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
        surface = Proxy(wl_compositor_create_surface(globals.compositor.pointer)!, on: c)
        xdgSurface = Proxy(xdg_wm_base_get_xdg_surface(globals.wmBase.pointer, surface.pointer)!, on: c)
        toplevel = Proxy(xdg_surface_get_toplevel(xdgSurface.pointer)!, on: c)
        xdg_toplevel_set_title(toplevel.pointer, title)
        xdg_toplevel_set_app_id(toplevel.pointer, title)
        toplevel.onEvent = { [unowned self] opcode, a in
            switch opcode {
            case 0:  // configure(width, height, states)
                self.pendingSize = (a.int(0), a.int(1))
                self.lastStates = a.array(2)
            case 1: self.closeRequested = true
            default: break
            }
        }
        xdgSurface.onEvent = { [unowned self] opcode, a in
            guard opcode == 0 else { return }  // configure(serial)
            xdg_surface_ack_configure(self.xdgSurface.pointer, a.uint(0))
            if self.pendingSize.0 > 0 { self.width = self.pendingSize.0 }
            if self.pendingSize.1 > 0 { self.height = self.pendingSize.1 }
            self.configureCount += 1
            self.redraw()
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
    public func redraw() {
        let (bw, bh) = transform & 1 == 1 ? (height * scale, width * scale) : (width * scale, height * scale)
        guard let buffer = ClientShmBuffer(shm: globals.shm, width: bw, height: bh) else { return }
        draw(buffer)
        buffers.append(buffer)
        if buffers.count > 3 { buffers.removeFirst() }  // the compositor copies on commit and releases at once
        wl_surface_set_buffer_scale(surface.pointer, scale)
        wl_surface_set_buffer_transform(surface.pointer, transform)
        wl_surface_attach(surface.pointer, buffer.buffer.pointer, 0, 0)
        wl_surface_damage_buffer(surface.pointer, 0, 0, bw, bh)
        let callback = Proxy(wl_surface_frame(surface.pointer)!, on: globals.connection)
        callback.onEvent = { [unowned self] _, _ in self.frameCallbacks += 1 }
        frameCallback = callback
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
