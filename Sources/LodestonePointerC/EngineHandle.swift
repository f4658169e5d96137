import CLodestonePointer
import Glibc
import AdaptivePointerEngine
import Rendering

// liblodestone-pointer: the C ABI of include/lodestone-pointer.h (Sources/CLodestonePointer),
// exported with @_cdecl over PointerEngine and PointerRenderer. The header is the contract and
// documents every call; these files only translate, one file per part of the header
// (Engine, Regions, Input, Frames, Drawing), with what they share here. Rules they keep:
// - nothing Swift crosses the boundary: an engine is an opaque pointer to a retained
//   `EngineHandle`, everything else is a C scalar or a struct from the header;
// - structs are copied in and out by their caller-set `size` (`readSized`, `writeSized`), so a
//   host built against an older, shorter struct keeps working;
// - bad arguments are refused with a result, never a trap: a host's bug must not abort its
//   compositor.

/// What an engine handle points at: the engine, its renderer, and the last stepped frame.
final class EngineHandle {
    var engine: PointerEngine
    var presentation: PointerPresentation
    /// Events drained from the engine and not yet read by the host, from `nextEvent` on.
    var events: [PointerEvent] = []
    var nextEvent = 0
    /// The last frame's annotation, and a C copy of it (strdup) that the host borrows; rebuilt
    /// only when the text changes, freed with the handle.
    var annotationText: String?
    var annotationCString: UnsafeMutablePointer<CChar>?
    /// Created on the first draw: hosts that draw themselves never pay for cairo.
    lazy var renderer = PointerRenderer()

    init(bounds: Rect<Global>) {
        engine = PointerEngine(outputBounds: bounds)
        presentation = engine.step(to: .zero)
    }

    deinit { free(annotationCString) }

    /// Keeps `annotationCString` in step with the last frame's text.
    func updateAnnotation() {
        let text = presentation.annotation?.text
        guard text != annotationText else { return }
        annotationText = text
        free(annotationCString)
        annotationCString = text.flatMap { $0.withCString { strdup($0) } }
    }

    /// The handle behind a C pointer; nil for NULL.
    static func from(_ pointer: OpaquePointer?) -> EngineHandle? {
        guard let pointer else { return nil }
        return Unmanaged<EngineHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }
}

/// A finite, non-empty rectangle, or nil.
func validRect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect<Global>? {
    let r = Rect<Global>(x: x, y: y, width: width, height: height)
    return r.isFinite && !r.isEmpty ? r : nil
}

/// Copies a caller's struct that may be shorter than ours (an older header) over `defaults`.
func readSized<T>(_ pointer: UnsafePointer<T>, size: UInt32, defaults: T) -> T {
    var value = defaults
    let count = min(Int(size), MemoryLayout<T>.size)
    withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: count)) }
    return value
}

/// Writes `value` into a caller's struct of `size` bytes, no further.
func writeSized<T>(_ value: T, to pointer: UnsafeMutablePointer<T>, size: UInt32) {
    var value = value
    let count = min(Int(size), MemoryLayout<T>.size)
    withUnsafeBytes(of: &value) { UnsafeMutableRawPointer(pointer).copyMemory(from: $0.baseAddress!, byteCount: count) }
}
