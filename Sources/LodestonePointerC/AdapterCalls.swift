// liblodestone-pointer: the lodestone_pointer_adapter_* calls, each a thin door into
// `AdapterHandle` (Adapter.swift), and the two 0.3 helpers for hosts without an adapter.

import CLodestonePointer
import AdaptivePointerEngine
import PointerAdaptation
import Rendering
import WaylandServer

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
public func lodestone_pointer_adapter_set_legacy_apps(_ adapter: OpaquePointer?, _ mode: UInt32) -> Bool {
    guard let a = AdapterHandle.from(adapter), let m = AdapterHandle.legacyApps(mode) else { return false }
    a.pushed.legacyApps = m
    a.apply()
    return true
}

@_cdecl("lodestone_pointer_adapter_window_configured")
public func lodestone_pointer_adapter_window_configured(_ adapter: OpaquePointer?, _ window: UInt64, _ pid: Int32,
                                                        _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                                                        _ layer: Int32, _ surface: OpaquePointer?) -> Bool {
    guard let a = AdapterHandle.from(adapter), window != 0, validRect(x, y, width, height) != nil,
          let w = Int32(exactly: width.rounded()), let h = Int32(exactly: height.rounded()), w > 0, h > 0 else { return false }
    let frame = WindowFrame(origin: Point(x: x, y: y), width: w, height: h)
    if let known = a.windows[window] {
        known.pid = pid
        known.adaptedFrame = frame
        known.layer = layer
        known.surface = surface
    } else {
        let new = AdapterWindow(id: window, pid: pid, frame: frame, layer: layer, surface: surface)
        new.hostPixels = a.hostPixels
        a.windows[window] = new
        // Walked now, so the elements are there when the pointer comes.
        a.accessibility.windowShown(new)
    }
    a.apply()
    return true
}

@_cdecl("lodestone_pointer_adapter_window_unmapped")
public func lodestone_pointer_adapter_window_unmapped(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let gone = a.windows.removeValue(forKey: window) else { return }
    if a.pointerWindow === gone { a.pointerWindow = nil }
    a.accessibility.windowGone(gone)
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_window_activated")
public func lodestone_pointer_adapter_window_activated(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return }
    a.accessibility.windowShown(w)
}

@_cdecl("lodestone_pointer_adapter_pointer_over")
public func lodestone_pointer_adapter_pointer_over(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter) else { return }
    a.pointerWindow = a.windows[window]
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_cursor_name")
public func lodestone_pointer_adapter_cursor_name(_ adapter: OpaquePointer?, _ name: UnsafePointer<CChar>?) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    guard let name else {
        a.pushed.cursor = .unset
        a.apply()
        return true
    }
    let known = CursorName(hostName: String(cString: name))
    a.pushed.cursor = known.map { .named($0) } ?? .unset
    a.apply()
    return known != nil
}

@_cdecl("lodestone_pointer_adapter_cursor_image")
public func lodestone_pointer_adapter_cursor_image(_ adapter: OpaquePointer?, _ pixels: UnsafePointer<UInt32>?,
                                                   _ width: Int32, _ height: Int32, _ stride: Int32, _ scale: Int32,
                                                   _ hotspotX: Int32, _ hotspotY: Int32) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    guard let pixels, width > 0, height > 0, width <= 1024, height <= 1024, stride >= width * 4, stride % 4 == 0, scale >= 1 else {
        a.cursorLog.debug("a cursor image the adapter cannot read: \(width)×\(height), stride \(stride), scale \(scale)")
        a.pushed.cursor = .image(nil)
        a.apply()
        return false
    }
    // Copied into an image of our own (the fingerprint reads rows of the image's stride).
    let image = Image(width: width, height: height, format: .argb8888)
    let rowPixels = Int(image.stride / 4), sourceRow = Int(stride / 4)
    image.withPixels { data in
        for y in 0..<Int(height) { (data + y * rowPixels).update(from: pixels + y * sourceRow, count: Int(width)) }
    }
    let name = a.pushed.readsCursorNames ? a.themes.name(of: image, scale: scale) : nil
    // Which image came and what it was taken for: the app's own image shows for one that is no
    // theme cursor (a flake of WestonModuleTests' gtk4-widget-factory test showed GTK's arrow).
    a.cursorLog.debug("cursor image \(width)×\(height) at scale \(scale), hotspot \(hotspotX),\(hotspotY): \(name.map { "the theme's '\($0.rawValue)'" } ?? "no theme cursor")")
    a.pushed.cursor = .image(name)
    a.apply()
    return name != nil
}

@_cdecl("lodestone_pointer_adapter_cursor_hidden")
public func lodestone_pointer_adapter_cursor_hidden(_ adapter: OpaquePointer?) {
    guard let a = AdapterHandle.from(adapter) else { return }
    a.pushed.cursor = .hidden
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_key_pressed")
public func lodestone_pointer_adapter_key_pressed(_ adapter: OpaquePointer?) {
    AdapterHandle.from(adapter)?.accessibility.keyPressed()
}

@_cdecl("lodestone_pointer_adapter_scrolled")
public func lodestone_pointer_adapter_scrolled(_ adapter: OpaquePointer?, _ window: UInt64) {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return }
    a.accessibility.scrolled(w)
    a.apply()
}

@_cdecl("lodestone_pointer_adapter_stepped")
public func lodestone_pointer_adapter_stepped(_ adapter: OpaquePointer?, _ time: Double) {
    guard time.isFinite else { return }
    AdapterHandle.from(adapter)?.stepped(at: time)
}

@_cdecl("lodestone_pointer_adapter_changed")
public func lodestone_pointer_adapter_changed(_ adapter: OpaquePointer?) -> Bool {
    guard let a = AdapterHandle.from(adapter) else { return false }
    defer { a.changed = false }
    return a.changed
}

@_cdecl("lodestone_pointer_adapter_pointer_source")
public func lodestone_pointer_adapter_pointer_source(_ adapter: OpaquePointer?) -> UInt32 {
    AdapterHandle.from(adapter)?.source.rawValue ?? LODESTONE_POINTER_SOURCE_ADAPTIVE.rawValue
}

@_cdecl("lodestone_pointer_adapter_element_count")
public func lodestone_pointer_adapter_element_count(_ adapter: OpaquePointer?, _ window: UInt64) -> UInt32 {
    guard let a = AdapterHandle.from(adapter), let w = a.windows[window] else { return 0 }
    return UInt32(clamping: a.accessibility.elementCount(w))
}

@_cdecl("lodestone_pointer_engine_set_cursor_name")
public func lodestone_pointer_engine_set_cursor_name(_ engine: OpaquePointer?, _ time: Double, _ name: UnsafePointer<CChar>?) -> Bool {
    guard let h = EngineHandle.from(engine), time.isFinite else { return false }
    let known = name.flatMap { CursorName(hostName: String(cString: $0)) }
    h.engine.handle(.untargetedStyle((known?.adaptiveForm ?? .circle).style), at: Instant(seconds: time))
    return name == nil || known != nil
}

@_cdecl("lodestone_pointer_server_surface_has_regions")
public func lodestone_pointer_server_surface_has_regions(_ server: OpaquePointer?, _ surface: OpaquePointer?) -> Bool {
    guard let s = ServerHandle.from(server), let surface else { return false }
    return s.treeHasRegions(surface)
}
