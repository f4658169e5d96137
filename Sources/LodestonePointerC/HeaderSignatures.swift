// liblodestone-pointer: the exports held to the header.

import CLodestonePointer
import AdaptivePointerEngine

/// Compiles only while each export has the type of the header's declaration of the same name
/// (`CLodestonePointer.x` is the header's, `LodestonePointerC.x` this file's): a signature that
/// drifts from the header is a build error, not a crash in somebody's compositor. Never called.
private func exportsMatchTheHeader() {
    func same<T>(_: T, _: T) {}
    same(CLodestonePointer.lodestone_pointer_version, LodestonePointerC.lodestone_pointer_version)
    same(CLodestonePointer.lodestone_pointer_engine_create, LodestonePointerC.lodestone_pointer_engine_create)
    same(CLodestonePointer.lodestone_pointer_engine_destroy, LodestonePointerC.lodestone_pointer_engine_destroy)
    same(CLodestonePointer.lodestone_pointer_engine_set_output_bounds, LodestonePointerC.lodestone_pointer_engine_set_output_bounds)
    same(CLodestonePointer.lodestone_pointer_region_init, LodestonePointerC.lodestone_pointer_region_init)
    same(CLodestonePointer.lodestone_pointer_engine_set_region, LodestonePointerC.lodestone_pointer_engine_set_region)
    same(CLodestonePointer.lodestone_pointer_engine_remove_region, LodestonePointerC.lodestone_pointer_engine_remove_region)
    same(CLodestonePointer.lodestone_pointer_engine_remove_surface_regions, LodestonePointerC.lodestone_pointer_engine_remove_surface_regions)
    same(CLodestonePointer.lodestone_pointer_engine_motion, LodestonePointerC.lodestone_pointer_engine_motion)
    same(CLodestonePointer.lodestone_pointer_engine_relative_motion, LodestonePointerC.lodestone_pointer_engine_relative_motion)
    same(CLodestonePointer.lodestone_pointer_engine_button, LodestonePointerC.lodestone_pointer_engine_button)
    same(CLodestonePointer.lodestone_pointer_engine_key_typed, LodestonePointerC.lodestone_pointer_engine_key_typed)
    same(CLodestonePointer.lodestone_pointer_engine_step, LodestonePointerC.lodestone_pointer_engine_step)
    same(CLodestonePointer.lodestone_pointer_engine_draw, LodestonePointerC.lodestone_pointer_engine_draw)
    same(CLodestonePointer.lodestone_pointer_engine_next_event, LodestonePointerC.lodestone_pointer_engine_next_event)
    same(CLodestonePointer.lodestone_pointer_settings_init, LodestonePointerC.lodestone_pointer_settings_init)
    same(CLodestonePointer.lodestone_pointer_engine_set_settings, LodestonePointerC.lodestone_pointer_engine_set_settings)
    same(CLodestonePointer.lodestone_pointer_engine_annotation, LodestonePointerC.lodestone_pointer_engine_annotation)
    same(CLodestonePointer.lodestone_pointer_engine_draw_pixman, LodestonePointerC.lodestone_pointer_engine_draw_pixman)
    same(CLodestonePointer.lodestone_pointer_engine_device, LodestonePointerC.lodestone_pointer_engine_device)
    same(CLodestonePointer.lodestone_pointer_engine_warp, LodestonePointerC.lodestone_pointer_engine_warp)
    same(CLodestonePointer.lodestone_pointer_engine_outside_outputs, LodestonePointerC.lodestone_pointer_engine_outside_outputs)
    same(CLodestonePointer.lodestone_pointer_engine_pointer_lock, LodestonePointerC.lodestone_pointer_engine_pointer_lock)
    same(CLodestonePointer.lodestone_pointer_engine_gesture_hold, LodestonePointerC.lodestone_pointer_engine_gesture_hold)
    same(CLodestonePointer.lodestone_pointer_engine_pinch, LodestonePointerC.lodestone_pointer_engine_pinch)
    same(CLodestonePointer.lodestone_pointer_engine_next_deadline, LodestonePointerC.lodestone_pointer_engine_next_deadline)
    same(CLodestonePointer.lodestone_pointer_server_create, LodestonePointerC.lodestone_pointer_server_create)
    same(CLodestonePointer.lodestone_pointer_server_destroy, LodestonePointerC.lodestone_pointer_server_destroy)
    same(CLodestonePointer.lodestone_pointer_server_surface_committed, LodestonePointerC.lodestone_pointer_server_surface_committed)
    same(CLodestonePointer.lodestone_pointer_server_layout_changed, LodestonePointerC.lodestone_pointer_server_layout_changed)
    same(CLodestonePointer.lodestone_pointer_server_send_events, LodestonePointerC.lodestone_pointer_server_send_events)
}
