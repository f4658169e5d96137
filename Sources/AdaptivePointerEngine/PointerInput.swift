/// Which kind of device moves the pointer; it changes auto-hide and recentering.
public enum DeviceKind: Hashable, Sendable {
    case mouse
    case trackpad
}

public enum ButtonState: Hashable, Sendable {
    case pressed
    case released
}

/// Input the compositor feeds to `PointerEngine.handle(_:at:)`.
public enum PointerInput: Hashable, Sendable {
    /// An absolute device position (nested backend, tablets, tests).
    case motion(to: Point<Global>)
    /// A relative device motion (libinput).
    case relativeMotion(Vector<Global>)
    /// The primary button.
    case button(ButtonState)
    /// A key press that types (the compositor leaves out modifiers and locks pressed alone):
    /// the pointer hides while typing.
    case keyTyped
    /// The device that produced the following motion.
    case device(DeviceKind)
    /// Pointer lock (games, 3D views): hidden pointer, only relative motion is reported.
    case pointerLock(Bool)
    /// A visible surface inhibits idle (`zwp_idle_inhibitor_v1`): the pointer does not
    /// auto-hide while it does. Typing and locks still hide it.
    case idleInhibited(Bool)
    /// Confinement (`zwp_confined_pointer_v1`): the device stays inside these rectangles
    /// (whole pixels, global); nil ends it. Motion that would leave them stops at the edge
    /// of the rectangle the pointer is in.
    case confine(to: [Rect<Global>]?)
    /// Puts the device at a point whatever holds it (a test harness's teleport): not motion,
    /// so locks and confinement do not apply.
    case warp(to: Point<Global>)
    /// The pointer left every output (true) or came back (false): a nested compositor's window
    /// lost the parent's pointer. It hides until then instead of staying drawn where it left.
    case outsideOutputs(Bool)
    /// How the pointer looks where no region targets it: the circle by default. A compositor
    /// passes what the app under the pointer asked for (an I-beam over its text, arrows on a
    /// resize edge, a plus while copying). Regions always win over it. Effects and magnetism
    /// need an element, so only the shape and the accessories apply; a malformed shape (a
    /// non-finite beam, an invalid path) is ignored and the circle stays.
    case untargetedStyle(PointerStyle)
    /// Fingers resting on a touchpad (a hold gesture) or lifted: while held the pointer
    /// shows pressed, as a click would.
    case gestureHold(Bool)
    /// A pinch's scale relative to its start, or nil when it ended: a lifted element under
    /// the pointer follows it (see `PointerPresentation.pinchFactor`).
    case pinch(scale: Double?)
    /// A tablet tool near or on the screen: the hover preview, or the pointer hidden.
    case stylus(StylusInput)
}

/// Things clients must hear about; drained with `PointerEngine.drainEvents()`.
public enum PointerEvent: Hashable, Sendable {
    case entered(RegionID, identifier: UInt32)
    case left(RegionID, identifier: UInt32)
    case bandBegan(RegionID, identifier: UInt32, rect: Rect<Global>)
    case bandChanged(RegionID, identifier: UInt32, rect: Rect<Global>)
    case bandEnded(RegionID, identifier: UInt32, rect: Rect<Global>)
    /// Motion while the pointer is locked.
    case lockedMotion(Vector<Global>)
}
