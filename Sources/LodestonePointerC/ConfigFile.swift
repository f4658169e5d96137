// liblodestone-pointer: config.toml, read the way Lodestone reads it (LodestoneConfig).

import CLodestonePointer
import AdaptivePointerEngine
import LodestoneConfig

/// Applies the pointer settings of a config.toml to the engine: every key Lodestone's
/// `[appearance]`, `[behaviour]` and `[tuning]` tables have, checked by the same parser
/// (ConfigurationFile, TOMLKit in a forked child), so a host reads exactly what Lodestone
/// reads. A refused file changes nothing and its message (file:line: key: reason) goes to
/// `error`, truncated to `errorSize` bytes with a NUL.
@_cdecl("lodestone_pointer_engine_load_settings")
public func lodestone_pointer_engine_load_settings(_ engine: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                                   _ error: UnsafeMutablePointer<CChar>?, _ errorSize: UInt32) -> Int32 {
    func fail(_ message: String) -> Int32 { writeError(message, to: error, size: errorSize) }
    guard let h = EngineHandle.from(engine) else { return fail("no engine") }
    let file = path.map { String(cString: $0) } ?? ConfigurationFile.defaultPath()
    do {
        guard let configuration = try ConfigurationFile.load(file) else { return 0 }
        h.engine.updateSettings(configuration.pointer)
        return 1
    } catch {
        return fail(error.description)
    }
}

/// Applies config.toml's `legacy-apps` to the adapter (lodestone_pointer_adapter_set_legacy_apps),
/// the file read and checked as for the engine.
@_cdecl("lodestone_pointer_adapter_load_settings")
public func lodestone_pointer_adapter_load_settings(_ adapter: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                                    _ buffer: UnsafeMutablePointer<CChar>?, _ errorSize: UInt32) -> Int32 {
    guard adapter != nil else { return writeError("no adapter", to: buffer, size: errorSize) }
    let file = path.map { String(cString: $0) } ?? ConfigurationFile.defaultPath()
    do {
        guard let configuration = try ConfigurationFile.load(file) else { return 0 }
        let mode = switch configuration.legacyApps {
        case .adaptive: LODESTONE_POINTER_LEGACY_APPS_ADAPTIVE
        case .shapes: LODESTONE_POINTER_LEGACY_APPS_SHAPES
        case .off: LODESTONE_POINTER_LEGACY_APPS_OFF
        }
        return lodestone_pointer_adapter_set_legacy_apps(adapter, mode.rawValue) ? 1 : -1
    } catch {
        return writeError(error.description, to: buffer, size: errorSize)
    }
}

/// Writes `message` into the caller's buffer (truncated, NUL-terminated) and returns -1.
private func writeError(_ message: String, to error: UnsafeMutablePointer<CChar>?, size: UInt32) -> Int32 {
    guard let error, size > 0 else { return -1 }
    let bytes = Array(message.utf8.prefix(Int(size) - 1))
    for (i, b) in bytes.enumerated() { error[i] = CChar(bitPattern: b) }
    error[bytes.count] = 0
    return -1
}

/// As HeaderSignatures.swift: compiles only while the exports match the header. Never called.
private func loadSettingsMatchesTheHeader() {
    func same<T>(_: T, _: T) {}
    same(CLodestonePointer.lodestone_pointer_engine_load_settings, LodestonePointerC.lodestone_pointer_engine_load_settings)
    same(CLodestonePointer.lodestone_pointer_adapter_load_settings, LodestonePointerC.lodestone_pointer_adapter_load_settings)
}
