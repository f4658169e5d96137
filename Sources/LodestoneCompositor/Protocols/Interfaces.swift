import CWaylandProtocols
import CWaylandServer

/// Stable interface addresses, from C accessors. Never `withUnsafePointer(to:)` on an
/// imported C global such as `xdg_wm_base_interface`: Swift may hand over the address of a
/// temporary copy (seen in release builds), and libwayland then compares interfaces that
/// never match.
enum Interface {
    static var compositor: UnsafePointer<wl_interface> { cwp_wl_compositor_interface() }
    static var surface: UnsafePointer<wl_interface> { cwp_wl_surface_interface() }
    static var region: UnsafePointer<wl_interface> { cwp_wl_region_interface() }
    static var callback: UnsafePointer<wl_interface> { cwp_wl_callback_interface() }
    static var subcompositor: UnsafePointer<wl_interface> { cwp_wl_subcompositor_interface() }
    static var subsurface: UnsafePointer<wl_interface> { cwp_wl_subsurface_interface() }
    static var output: UnsafePointer<wl_interface> { cwp_wl_output_interface() }
    static var seat: UnsafePointer<wl_interface> { cwp_wl_seat_interface() }
    static var pointer: UnsafePointer<wl_interface> { cwp_wl_pointer_interface() }
    static var keyboard: UnsafePointer<wl_interface> { cwp_wl_keyboard_interface() }
    static var touch: UnsafePointer<wl_interface> { cwp_wl_touch_interface() }
    static var dataDeviceManager: UnsafePointer<wl_interface> { cwp_wl_data_device_manager_interface() }
    static var dataDevice: UnsafePointer<wl_interface> { cwp_wl_data_device_interface() }
    static var dataSource: UnsafePointer<wl_interface> { cwp_wl_data_source_interface() }
    static var dataOffer: UnsafePointer<wl_interface> { cwp_wl_data_offer_interface() }
    static var xdgWmBase: UnsafePointer<wl_interface> { cwp_xdg_wm_base_interface() }
    static var xdgPositioner: UnsafePointer<wl_interface> { cwp_xdg_positioner_interface() }
    static var xdgSurface: UnsafePointer<wl_interface> { cwp_xdg_surface_interface() }
    static var xdgToplevel: UnsafePointer<wl_interface> { cwp_xdg_toplevel_interface() }
    static var xdgPopup: UnsafePointer<wl_interface> { cwp_xdg_popup_interface() }
    static var test: UnsafePointer<wl_interface> { cwp_lodestone_test_v1_interface() }
}

/// Milliseconds on the compositor's clock, as Wayland timestamps carry them.
public typealias Milliseconds = UInt32

extension Interface {
    static var relativePointerManager: UnsafePointer<wl_interface> { cwp_zwp_relative_pointer_manager_v1_interface() }
    static var relativePointer: UnsafePointer<wl_interface> { cwp_zwp_relative_pointer_v1_interface() }
    static var pointerConstraints: UnsafePointer<wl_interface> { cwp_zwp_pointer_constraints_v1_interface() }
    static var lockedPointer: UnsafePointer<wl_interface> { cwp_zwp_locked_pointer_v1_interface() }
    static var confinedPointer: UnsafePointer<wl_interface> { cwp_zwp_confined_pointer_v1_interface() }
}

extension Interface {
    static var pointerGestures: UnsafePointer<wl_interface> { cwp_zwp_pointer_gestures_v1_interface() }
    static var gestureSwipe: UnsafePointer<wl_interface> { cwp_zwp_pointer_gesture_swipe_v1_interface() }
    static var gesturePinch: UnsafePointer<wl_interface> { cwp_zwp_pointer_gesture_pinch_v1_interface() }
    static var gestureHold: UnsafePointer<wl_interface> { cwp_zwp_pointer_gesture_hold_v1_interface() }
    static var tabletManager: UnsafePointer<wl_interface> { cwp_zwp_tablet_manager_v2_interface() }
    static var tabletSeat: UnsafePointer<wl_interface> { cwp_zwp_tablet_seat_v2_interface() }
    static var tablet: UnsafePointer<wl_interface> { cwp_zwp_tablet_v2_interface() }
    static var tabletTool: UnsafePointer<wl_interface> { cwp_zwp_tablet_tool_v2_interface() }
}
