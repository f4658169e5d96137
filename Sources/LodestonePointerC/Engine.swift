// liblodestone-pointer: the version, engines, outputs and settings.

import CLodestonePointer
import AdaptivePointerEngine

// MARK: Version

@_cdecl("lodestone_pointer_version")
public func lodestone_pointer_version() -> UInt32 {
    UInt32(LODESTONE_POINTER_VERSION_MAJOR << 16 | LODESTONE_POINTER_VERSION_MINOR << 8 | LODESTONE_POINTER_VERSION_PATCH)
}

// MARK: Engine

@_cdecl("lodestone_pointer_engine_create")
public func lodestone_pointer_engine_create(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> OpaquePointer? {
    guard let bounds = validRect(x, y, width, height) else { return nil }
    return OpaquePointer(Unmanaged.passRetained(EngineHandle(bounds: bounds)).toOpaque())
}

@_cdecl("lodestone_pointer_engine_destroy")
public func lodestone_pointer_engine_destroy(_ engine: OpaquePointer?) {
    guard let engine else { return }
    Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(engine)).release()
}

@_cdecl("lodestone_pointer_engine_set_output_bounds")
public func lodestone_pointer_engine_set_output_bounds(_ engine: OpaquePointer?, _ x: Double, _ y: Double,
                                                       _ width: Double, _ height: Double) -> Bool {
    guard let h = EngineHandle.from(engine), let bounds = validRect(x, y, width, height) else { return false }
    h.engine.setOutputBounds(bounds)
    return true
}

// MARK: Settings

func defaultSettings() -> lodestone_pointer_settings {
    let d = PointerSettings()
    var c = lodestone_pointer_settings()
    c.size = UInt32(MemoryLayout<lodestone_pointer_settings>.size)
    c.size_multiplier = d.sizeMultiplier
    c.red = d.color.red; c.green = d.color.green; c.blue = d.color.blue; c.alpha = d.color.alpha
    c.show_border = d.showsBorder
    c.increase_contrast = d.increaseContrast
    c.reduce_motion = d.reduceMotion
    c.magnetism = d.magnetismEnabled
    c.auto_hide = d.autoHide
    return c
}

@_cdecl("lodestone_pointer_settings_init")
public func lodestone_pointer_settings_init(_ settings: UnsafeMutablePointer<lodestone_pointer_settings>?, _ size: UInt32) {
    guard let settings, size >= 4 else { return }
    var c = defaultSettings()
    c.size = min(size, UInt32(MemoryLayout<lodestone_pointer_settings>.size))
    writeSized(c, to: settings, size: size)
}

@_cdecl("lodestone_pointer_engine_set_settings")
public func lodestone_pointer_engine_set_settings(_ engine: OpaquePointer?, _ settings: UnsafePointer<lodestone_pointer_settings>?) -> Bool {
    guard let h = EngineHandle.from(engine), let settings, settings.pointee.size >= 4 else { return false }
    let c = readSized(settings, size: settings.pointee.size, defaults: defaultSettings())
    let unit = [c.red, c.green, c.blue, c.alpha]
    guard c.size_multiplier.isFinite, unit.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else { return false }
    var s = h.engine.settings
    s.sizeMultiplier = c.size_multiplier
    s.color = PointerColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    s.showsBorder = c.show_border
    s.increaseContrast = c.increase_contrast
    s.reduceMotion = c.reduce_motion
    s.magnetismEnabled = c.magnetism
    s.autoHide = c.auto_hide
    h.engine.updateSettings(s)
    return true
}
