// liblodestone-pointer: the legacy-app adaptation (the lodestone_pointer_adapter_* calls).
// The work is PointerAdaptation's, the same code Lodestone runs; this file only translates.

import CLodestonePointer
import AdaptivePointerEngine
import WaylandServer

/// What a `struct lodestone_pointer_adapter *` points at.
final class AdapterHandle {
    let engine: EngineHandle
    let server: ServerHandle?
    let loop: EventLoop
    var changed = false

    init(engine: EngineHandle, loop: EventLoop, server: ServerHandle?) {
        self.engine = engine
        self.loop = loop
        self.server = server
    }

    func close() {}

    static func from(_ pointer: OpaquePointer?) -> AdapterHandle? {
        guard let pointer else { return nil }
        return Unmanaged<AdapterHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

// MARK: The C calls

@_cdecl("lodestone_pointer_adapter_create")
public func lodestone_pointer_adapter_create(_ engine: OpaquePointer?, _ loop: OpaquePointer?, _ server: OpaquePointer?) -> OpaquePointer? {
    guard let engine = EngineHandle.from(engine), let loop else { return nil }
    let adapter = AdapterHandle(engine: engine, loop: EventLoop(borrowing: loop), server: ServerHandle.from(server))
    return OpaquePointer(Unmanaged.passRetained(adapter).toOpaque())
}

@_cdecl("lodestone_pointer_adapter_destroy")
public func lodestone_pointer_adapter_destroy(_ adapter: OpaquePointer?) {
    guard let adapter else { return }
    let handle = Unmanaged<AdapterHandle>.fromOpaque(UnsafeRawPointer(adapter))
    handle.takeUnretainedValue().close()
    handle.release()
}

@_cdecl("lodestone_pointer_adapter_set_legacy_apps")
public func lodestone_pointer_adapter_set_legacy_apps(_ adapter: OpaquePointer?, _ mode: UInt32) -> Bool { false }

@_cdecl("lodestone_pointer_adapter_window_configured")
public func lodestone_pointer_adapter_window_configured(_ adapter: OpaquePointer?, _ window: UInt64, _ pid: Int32,
                                                        _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                                        _ layer: Int32, _ surface: OpaquePointer?) -> Bool { false }

@_cdecl("lodestone_pointer_adapter_window_unmapped")
public func lodestone_pointer_adapter_window_unmapped(_ adapter: OpaquePointer?, _ window: UInt64) {}

@_cdecl("lodestone_pointer_adapter_window_activated")
public func lodestone_pointer_adapter_window_activated(_ adapter: OpaquePointer?, _ window: UInt64) {}

@_cdecl("lodestone_pointer_adapter_pointer_over")
public func lodestone_pointer_adapter_pointer_over(_ adapter: OpaquePointer?, _ window: UInt64) {}

@_cdecl("lodestone_pointer_adapter_cursor_name")
public func lodestone_pointer_adapter_cursor_name(_ adapter: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Bool { false }

@_cdecl("lodestone_pointer_adapter_cursor_image")
public func lodestone_pointer_adapter_cursor_image(_ adapter: OpaquePointer?, _ pixels: UnsafePointer<UInt32>?,
                                                   _ width: Int32, _ height: Int32, _ stride: Int32, _ scale: Int32,
                                                   _ hotspotX: Int32, _ hotspotY: Int32) -> Bool { false }

@_cdecl("lodestone_pointer_adapter_cursor_hidden")
public func lodestone_pointer_adapter_cursor_hidden(_ adapter: OpaquePointer?) {}

@_cdecl("lodestone_pointer_adapter_key_pressed")
public func lodestone_pointer_adapter_key_pressed(_ adapter: OpaquePointer?) {}

@_cdecl("lodestone_pointer_adapter_scrolled")
public func lodestone_pointer_adapter_scrolled(_ adapter: OpaquePointer?, _ window: UInt64) {}

@_cdecl("lodestone_pointer_adapter_stepped")
public func lodestone_pointer_adapter_stepped(_ adapter: OpaquePointer?, _ time: Double) {}

@_cdecl("lodestone_pointer_adapter_changed")
public func lodestone_pointer_adapter_changed(_ adapter: OpaquePointer?) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    defer { a.changed = false }
    return a.changed
}

@_cdecl("lodestone_pointer_adapter_pointer_source")
public func lodestone_pointer_adapter_pointer_source(_ adapter: OpaquePointer?) -> UInt32 { LODESTONE_POINTER_SOURCE_ADAPTIVE.rawValue }

@_cdecl("lodestone_pointer_adapter_element_count")
public func lodestone_pointer_adapter_element_count(_ adapter: OpaquePointer?, _ window: UInt64) -> UInt32 { 0 }

@_cdecl("lodestone_pointer_engine_set_cursor_name")
public func lodestone_pointer_engine_set_cursor_name(_ engine: OpaquePointer?, _ time: Double, _ name: UnsafePointer<CChar>?) -> Bool { false }

@_cdecl("lodestone_pointer_server_surface_has_regions")
public func lodestone_pointer_server_surface_has_regions(_ server: OpaquePointer?, _ surface: OpaquePointer?) -> Bool { false }
