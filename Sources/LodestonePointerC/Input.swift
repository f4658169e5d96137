// liblodestone-pointer: input, and when to step without it.

import CLodestonePointer
import AdaptivePointerEngine

@_cdecl("lodestone_pointer_engine_motion")
public func lodestone_pointer_engine_motion(_ engine: OpaquePointer?, _ time: Double, _ x: Double, _ y: Double) {
    EngineHandle.from(engine)?.engine.handle(.motion(to: Point(x: x, y: y)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_relative_motion")
public func lodestone_pointer_engine_relative_motion(_ engine: OpaquePointer?, _ time: Double, _ dx: Double, _ dy: Double) {
    EngineHandle.from(engine)?.engine.handle(.relativeMotion(Vector(dx: dx, dy: dy)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_button")
public func lodestone_pointer_engine_button(_ engine: OpaquePointer?, _ time: Double, _ pressed: Bool) {
    EngineHandle.from(engine)?.engine.handle(.button(pressed ? .pressed : .released), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_key_typed")
public func lodestone_pointer_engine_key_typed(_ engine: OpaquePointer?, _ time: Double) {
    EngineHandle.from(engine)?.engine.handle(.keyTyped, at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_device")
public func lodestone_pointer_engine_device(_ engine: OpaquePointer?, _ time: Double, _ device: UInt32) {
    let kind: DeviceKind
    switch device {
    case LODESTONE_POINTER_DEVICE_MOUSE.rawValue: kind = .mouse
    case LODESTONE_POINTER_DEVICE_TRACKPAD.rawValue: kind = .trackpad
    default: return
    }
    EngineHandle.from(engine)?.engine.handle(.device(kind), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_warp")
public func lodestone_pointer_engine_warp(_ engine: OpaquePointer?, _ time: Double, _ x: Double, _ y: Double) {
    EngineHandle.from(engine)?.engine.handle(.warp(to: Point(x: x, y: y)), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_outside_outputs")
public func lodestone_pointer_engine_outside_outputs(_ engine: OpaquePointer?, _ time: Double, _ outside: Bool) {
    EngineHandle.from(engine)?.engine.handle(.outsideOutputs(outside), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_pointer_lock")
public func lodestone_pointer_engine_pointer_lock(_ engine: OpaquePointer?, _ time: Double, _ locked: Bool) {
    EngineHandle.from(engine)?.engine.handle(.pointerLock(locked), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_gesture_hold")
public func lodestone_pointer_engine_gesture_hold(_ engine: OpaquePointer?, _ time: Double, _ held: Bool) {
    EngineHandle.from(engine)?.engine.handle(.gestureHold(held), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_pinch")
public func lodestone_pointer_engine_pinch(_ engine: OpaquePointer?, _ time: Double, _ scale: Double) {
    EngineHandle.from(engine)?.engine.handle(.pinch(scale: scale > 0 ? scale : nil), at: Instant(seconds: time))
}

@_cdecl("lodestone_pointer_engine_next_deadline")
public func lodestone_pointer_engine_next_deadline(_ engine: OpaquePointer?, _ time: UnsafeMutablePointer<Double>?) -> Bool {
    guard let h = EngineHandle.from(engine), let time, let deadline = h.engine.nextDeadline else { return false }
    time.pointee = deadline.seconds
    return true
}
