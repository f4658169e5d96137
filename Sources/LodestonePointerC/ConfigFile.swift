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
    func fail(_ message: String) -> Int32 {
        if let error, errorSize > 0 {
            let bytes = Array(message.utf8.prefix(Int(errorSize) - 1))
            for (i, b) in bytes.enumerated() { error[i] = CChar(bitPattern: b) }
            error[bytes.count] = 0
        }
        return -1
    }
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

/// As HeaderSignatures.swift: compiles only while the export matches the header. Never called.
private func loadSettingsMatchesTheHeader() {
    func same<T>(_: T, _: T) {}
    same(CLodestonePointer.lodestone_pointer_engine_load_settings, LodestonePointerC.lodestone_pointer_engine_load_settings)
}
