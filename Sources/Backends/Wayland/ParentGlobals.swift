import CWaylandClient
import CWaylandProtocols
import LodestoneSystem
import WaylandClient

/// The parent's globals, bound at the versions this backend speaks.
final class ParentGlobals {
    let connection: Connection
    let compositor: Proxy
    let shm: Proxy
    let wmBase: Proxy
    let seat: Proxy?
    let decorationManager: Proxy?
    /// For our own title bar, when the parent draws none.
    let subcompositor: Proxy?
    /// Cursor images by name over that bar, when the parent has it (else Xcursor themes).
    let cursorShapeManager: Proxy?
    /// Lets our window ask for the parent's shortcuts while it has the keyboard.
    let shortcutsInhibitManager: Proxy?
    let relativePointerManager: Proxy?
    /// Touchpad gestures (version 3 has hold) and tablet tools, when the parent has them.
    let pointerGestures: Proxy?
    let tabletManager: Proxy?
    /// A fractional scale from the parent (wp_fractional_scale_v1's preferred scale), shown
    /// through a viewport: both or neither (the window keeps the whole wl_output scale).
    let fractionalScale: (manager: Proxy, viewporter: Proxy)?
    /// Crops and scales: the window's fractional scale, and planes the output's edge cuts.
    let viewporter: Proxy?
    /// Every wl_output, for the scale of the ones the window is on.
    let outputs: [ParentOutput]
    /// When the parent shows our commits (`--max-render-time` schedules frames from it).
    let presentation: Proxy?
    /// zwp_linux_dmabuf_v1 (version 4: feedback), for `ParentDmabuf`.
    let linuxDmabuf: Proxy?
    /// The clock of the parent's presentation times (`CLOCK_MONOTONIC` is 1).
    private(set) var presentationClock: UInt32?

    init(registry: Registry, connection: Connection) throws(SystemError) {
        self.connection = connection
        func bind(_ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> Proxy? {
            registry.bind(interface, version: version).map { Proxy($0, on: connection) }
        }
        func missing(_ name: String) -> SystemError {
            SystemError("the parent Wayland session has no \(name); Lodestone cannot open a window in it")
        }
        // wl_compositor 4: damage_buffer.
        guard let compositor = bind(cwp_wl_compositor_interface(), 4) else { throw missing("wl_compositor") }
        guard let shm = bind(cwp_wl_shm_interface(), 1) else { throw missing("wl_shm") }
        guard let wmBase = bind(cwp_xdg_wm_base_interface(), 2) else { throw missing("xdg_wm_base") }
        self.compositor = compositor
        self.shm = shm
        self.wmBase = wmBase
        wmBase.handleEvents(WmBaseEvent.self) { [unowned wmBase] event in
            switch event {
            case .ping(let serial):  // answer, or the parent thinks we hang
                wmBase.request { xdg_wm_base_pong($0, serial) }
                wmBase.connection.flush()
            }
        }
        // wl_seat 8: axis_value120 as well as discrete steps.
        seat = bind(cwp_wl_seat_interface(), 8)
        decorationManager = bind(cwp_zxdg_decoration_manager_v1_interface(), 1)
        subcompositor = bind(cwp_wl_subcompositor_interface(), 1)
        cursorShapeManager = bind(cwp_wp_cursor_shape_manager_v1_interface(), 1)
        shortcutsInhibitManager = bind(cwp_zwp_keyboard_shortcuts_inhibit_manager_v1_interface(), 1)
        relativePointerManager = bind(cwp_zwp_relative_pointer_manager_v1_interface(), 1)
        pointerGestures = bind(cwp_zwp_pointer_gestures_v1_interface(), 3)
        tabletManager = bind(cwp_zwp_tablet_manager_v2_interface(), 1)
        viewporter = bind(cwp_wp_viewporter_interface(), 1)
        if let viewporter, registry.globals.contains(where: { $0.interface == "wp_fractional_scale_manager_v1" }),
           let manager = bind(cwp_wp_fractional_scale_manager_v1_interface(), 1) {
            fractionalScale = (manager, viewporter)
        } else {
            fractionalScale = nil
        }
        presentation = bind(cwp_wp_presentation_interface(), 1)
        linuxDmabuf = bind(cwp_zwp_linux_dmabuf_v1_interface(), 4)
        outputs = registry.globals.filter { $0.interface == "wl_output" }.compactMap { global in
            let version = min(global.version, 2)
            guard let raw = registry.request({ wl_registry_bind($0, global.name, cwp_wl_output_interface(), version) }) else { return nil }
            return ParentOutput(Proxy(OpaquePointer(raw), on: connection))
        }
        presentation?.handleEvents(PresentationEvent.self) { [unowned self] event in
            switch event {
            case .clockID(let id): self.presentationClock = id
            }
        }
    }

    deinit {
        wmBase.destroy { xdg_wm_base_destroy($0) }
        decorationManager?.destroy { zxdg_decoration_manager_v1_destroy($0) }
        subcompositor?.destroy { wl_subcompositor_destroy($0) }
        cursorShapeManager?.destroy { wp_cursor_shape_manager_v1_destroy($0) }
        shortcutsInhibitManager?.destroy { zwp_keyboard_shortcuts_inhibit_manager_v1_destroy($0) }
        relativePointerManager?.destroy { zwp_relative_pointer_manager_v1_destroy($0) }
        if let g = pointerGestures {
            if g.version >= 2 { g.destroy { zwp_pointer_gestures_v1_release($0) } } else { g.destroy { zwp_pointer_gestures_v1_destroy($0) } }
        }
        tabletManager?.destroy { zwp_tablet_manager_v2_destroy($0) }
        fractionalScale?.manager.destroy { wp_fractional_scale_manager_v1_destroy($0) }
        viewporter?.destroy { wp_viewporter_destroy($0) }
        presentation?.destroy { wp_presentation_destroy($0) }
        linuxDmabuf?.destroy { zwp_linux_dmabuf_v1_destroy($0) }
    }
}
