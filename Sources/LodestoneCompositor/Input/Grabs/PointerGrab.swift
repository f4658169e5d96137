/// What the pointer does while a grab holds it: the seat forwards every pointer event to
/// its active grab (Smithay's `src/input/pointer/grab.rs`), and the grab answers with what
/// the seat is to do next (`GrabResponse`). A grab never calls back into the seat that is
/// asking it: the seat is on the stack, in the middle of its own event. The default grab
/// routes to the surface under the pointer; a popup grab keeps events within the popups'
/// client; move and resize grabs carry a window and tell clients nothing. One
/// implementation per file.
protocol PointerGrab: AnyObject {
    /// Whether clients get pointer focus and events while it holds.
    var routesToClients: Bool { get }
    /// Whether the surface under the pointer may take pointer focus.
    func mayFocus(_ surface: WlSurface) -> Bool
    /// Whether the seat finds the surface under the pointer again before a first press
    /// (a popup grab decides on the surface the press landed on).
    var refocusesBeforePress: Bool { get }
    /// The pointer moved: `device` is where the hand is (before magnetism), `logical`
    /// where clients see it.
    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse
    /// The first button went down, over `focus` (the surface with pointer focus).
    func pressStarted(focus: WlSurface?) -> GrabResponse
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse
    /// The last button came up at `logical`.
    func released(at logical: (x: Double, y: Double)) -> GrabResponse
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse
    /// A surface went away; true when that ends the grab.
    func surfaceDestroyed(_ surface: WlSurface) -> Bool
}

/// What a grab asks of the seat after an event: a value the seat acts on once the grab has
/// returned (`Seat.apply`).
struct GrabResponse: OptionSet, Sendable {
    let rawValue: UInt8
    /// Nothing more: the grab took the event.
    static let taken: GrabResponse = []
    /// The event goes to the surface under the pointer, as without a grab.
    static let deliver = GrabResponse(rawValue: 1 << 0)
    /// Every grabbing popup closes (a press outside their client).
    static let dismissPopups = GrabResponse(rawValue: 1 << 1)
    /// The window under the pointer is focused and raised (a first press).
    static let focusAndActivate = GrabResponse(rawValue: 1 << 2)
    /// The grab is over: the seat goes back to the popups' grab or none.
    static let end = GrabResponse(rawValue: 1 << 3)
    /// The seat finds the surface under the pointer again (a drag gave the pointer back).
    static let refocus = GrabResponse(rawValue: 1 << 5)
    /// What the pointer shows changed (a drag's target answered): the seat pushes it.
    static let cursorChanged = GrabResponse(rawValue: 1 << 4)
    /// The grab's window is minimized (a title bar's button): the seat has the desktop hide
    /// it, before the grab ends.
    static let minimizeWindow = GrabResponse(rawValue: 1 << 6)
}

extension PointerGrab {
    var routesToClients: Bool { true }
    func mayFocus(_ surface: WlSurface) -> Bool { true }
    var refocusesBeforePress: Bool { false }
    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse { .deliver }
    func pressStarted(focus: WlSurface?) -> GrabResponse { .focusAndActivate }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .deliver }
    func released(at logical: (x: Double, y: Double)) -> GrabResponse { .taken }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .deliver }
    func surfaceDestroyed(_ surface: WlSurface) -> Bool { false }
}

/// No grab: events go to the surface under the pointer, which keeps them while a button
/// is held (the implicit grab), and a press raises and focuses its window.
final class DefaultPointerGrab: PointerGrab {}
