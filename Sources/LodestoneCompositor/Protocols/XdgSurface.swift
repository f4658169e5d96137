import CWaylandServer
import Rendering
import WaylandServer

/// `xdg_surface`: a desktop window surface; becomes a toplevel or a popup.
final class XdgSurface: Resource, XdgSurfaceHandler, SurfaceRole {
    unowned let host: any ShellHost
    private weak var wmBase: XdgWmBase?
    private(set) weak var surface: WlSurface?
    weak var toplevel: XdgToplevel?
    weak var popup: XdgPopup?
    let roleName = "xdg_surface"

    /// Where the window geometry's top-left is, in global coordinates.
    var position: (x: Int32, y: Int32) = (0, 0)
    private var explicitGeometry: PixelRect?
    private var pendingGeometry: PixelRect?
    /// The geometry when the surface tree was last damaged for it (`surfaceCommitted`).
    private var damagedGeometry: PixelRect?
    /// Serials sent and not yet acknowledged, oldest first.
    private var unackedSerials: [UInt32] = []
    private(set) var configured = false
    /// The serial of the last configure the client acknowledged.
    private(set) var ackedSerial: UInt32?
    /// Shown on screen (mapped by the role, with a buffer).
    var isMapped = false

    init?(wmBase: XdgWmBase, surface: WlSurface, id: UInt32) {
        host = wmBase.host
        self.wmBase = wmBase
        self.surface = surface
        super.init(client: wmBase.client, version: wmBase.version, id: id)
    }

    /// The window geometry in surface-local coordinates.
    var geometry: PixelRect {
        if let explicitGeometry { return explicitGeometry }
        guard let surface else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        // In the surface's own coordinates, as xdg_surface.set_window_geometry's are: the
        // scene's `treeBounds` are global, and placed an app's accessible elements (which
        // adds this to the surface's origin) twice as far from the corner as the window
        // was (issue 24, HostileAccessibleAppTests, a window that sets no geometry).
        return localTreeBounds(surface)
    }

    private func localTreeBounds(_ surface: WlSurface) -> PixelRect {
        var r = PixelRect(x: 0, y: 0, width: 0, height: 0)
        host.walkTree(surface) { s, x, y in r = r.union(PixelRect(x: x, y: y, width: s.width, height: s.height)) }
        return r
    }

    /// The surface's top-left in global coordinates.
    var surfaceOrigin: (Int32, Int32) {
        let g = explicitGeometry ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        return (position.x.clampedSubtracting(g.x), position.y.clampedSubtracting(g.y))
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy {
            if toplevel != nil || popup != nil {
                return postError(XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT.rawValue, "xdg_surface destroyed before its role object")
            }
            return destroy()
        }
        guard surface != nil else { return }  // inert: its wl_surface is gone
        switch request {
        case .getToplevel:
            guard toplevel == nil && popup == nil else {
                return postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role object")
            }
            // The resource owns the new object; we only point at it.
            let created = XdgToplevel(xdgSurface: self, id: a.newID(0))
            toplevel = created
        case .getPopup:
            guard toplevel == nil && popup == nil else {
                return postError(XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED.rawValue, "xdg_surface already has a role object")
            }
            let parent = a.object(1, as: XdgSurface.self)
            guard parent !== self else {
                return postWmBaseError(XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT.rawValue, "get_popup names the popup's own xdg_surface as its parent")
            }
            guard let positioner = a.object(2, as: XdgPositioner.self) else { return }
            guard positioner.rules.isComplete else {
                return wmBase.map { $0.postError(XDG_WM_BASE_ERROR_INVALID_POSITIONER.rawValue, "get_popup with a positioner lacking a size or anchor rect") } ?? ()
            }
            let created = XdgPopup(xdgSurface: self, parent: parent, rules: positioner.rules, id: a.newID(0))
            popup = created
        case .setWindowGeometry:
            guard a.int(2) > 0, a.int(3) > 0 else {
                return postError(XDG_SURFACE_ERROR_INVALID_SIZE.rawValue, "window geometry \(a.int(2))×\(a.int(3)) must be positive")
            }
            pendingGeometry = PixelRect(x: a.int(0), y: a.int(1), width: a.int(2), height: a.int(3))
        case .ackConfigure: ackConfigure(a.uint(0))
        default: break
        }
    }

    private func ackConfigure(_ serial: UInt32) {
        guard let index = unackedSerials.firstIndex(of: serial) else {
            return postError(XDG_SURFACE_ERROR_INVALID_SERIAL.rawValue, "ack_configure with serial \(serial), which was never sent or is already acknowledged")
        }
        unackedSerials.removeFirst(index + 1)
        configured = true
        ackedSerial = serial
        toplevel?.configureAcknowledged(serial)
    }

    /// Sends xdg_surface.configure after the role's configure; returns the serial.
    @discardableResult
    func sendConfigure() -> UInt32 {
        let serial = host.nextSerial()
        unackedSerials.append(serial)
        send { xdg_surface_send_configure($0, serial) }
        return serial
    }

    func surfaceWillCommit() -> Bool {
        guard let surface else { return true }
        if toplevel == nil && popup == nil {
            if case .some(.some) = surface.pending.buffer {
                postError(XDG_SURFACE_ERROR_NOT_CONSTRUCTED.rawValue, "commit with a buffer before the xdg_surface has a role")
                return false
            }
        }
        if case .some(.some) = surface.pending.buffer, host.acceptsBufferBeforeInitialAck, toplevel != nil || popup != nil {
            // No initial commit (also after a null-buffer unmap), or its configure not
            // yet acknowledged: as if both had happened.
            toplevel?.sendInitialConfigure()
            popup?.sendInitialConfigure()
            if !configured, let sent = unackedSerials.last { ackConfigure(sent) }
        }
        if !configured, case .some(.some) = surface.pending.buffer {
            postError(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "commit with a buffer before acknowledging a configure")
            return false
        }
        return true
    }

    func surfaceWillAttach() -> Bool {
        // "Any attempts by a client to attach or manipulate a buffer prior to the
        // first xdg_surface.configure call must also be treated as errors."
        let lenient = host.acceptsBufferBeforeInitialAck && (toplevel != nil || popup != nil)
        guard configured || !unackedSerials.isEmpty || lenient else {
            postError(XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER.rawValue, "attach before the first configure")
            return false
        }
        return true
    }

    func surfaceCommitted() {
        if let g = pendingGeometry {
            if isMapped, let s = surface { host.damageSurfaceTree(s) }
            explicitGeometry = g
            pendingGeometry = nil
        }
        // Lodestone's title bar is as wide as the geometry: one that changed (set, or the
        // buffer's size when none is set) is repainted where it is now. Else a window moved
        // to its maximized place before its new size came (foot, on a TTY) kept the old
        // width's bar there, the desktop showing through the rest.
        if isMapped, let s = surface, geometry != damagedGeometry { host.damageSurfaceTree(s) }
        damagedGeometry = isMapped ? geometry : nil
        toplevel?.committed()
        popup?.committed()
    }

    /// Errors that belong to the shell, posted on the xdg_wm_base.
    func postWmBaseError(_ code: UInt32, _ message: String) {
        (wmBase ?? self as Resource).postError(code, message)
    }

    override func destroyed() {
        surface = nil
    }
}
