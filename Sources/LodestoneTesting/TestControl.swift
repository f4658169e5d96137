import CWaylandClient
import CWaylandProtocols
import LodestoneSystem
import WaylandClient

/// The test side of `lodestone_test_v1`: each call sends one request, does one
/// round trip and returns the event that answered it (weston's test-protocol style).
public final class TestControl {
    public struct PointerState: Equatable, Sendable {
        public var x: Double, y: Double, title: String, appID: String, sx: Double, sy: Double, buttons: UInt32
    }
    public struct KeyboardState: Equatable, Sendable {
        public var title: String, appID: String, depressed: UInt32, latched: UInt32, locked: UInt32
    }
    public struct WindowState: Equatable, Sendable {
        public var title: String, appID: String, x: Int32, y: Int32, width: Int32, height: Int32, activated: Bool
    }
    /// A mapped popup, with the toplevel it belongs to.
    public struct Popup: Equatable, Sendable {
        public var title: String, appID: String, x: Int32, y: Int32, width: Int32, height: Int32
    }
    /// The client cursor: whether the client under the pointer set one, and how many
    /// set_cursor requests the compositor accepted so far.
    public struct CursorState: Equatable, Sendable {
        public enum Kind: UInt32, Sendable { case none, surface, hidden }
        public var kind: Kind, sets: UInt32
    }

    public let connection: Connection
    private let proxy: Proxy
    private var pointerState: PointerState?
    private var keyboardState: KeyboardState?
    private var windowsSeen: [WindowState] = []
    private var popupsSeen: [Popup] = []
    private var cursorState: CursorState?
    private var clock: (time: UInt32, frames: UInt32)?
    private var captured: (Int32, Int32)?
    private var failure: String?

    public init(connection: Connection) throws {
        self.connection = connection
        let registry = connection.registry()
        guard let control = registry.bind(cwp_lodestone_test_v1_interface(), version: 6) else {
            throw SystemError("the compositor does not offer lodestone_test_v1 (start it with --test-control)")
        }
        proxy = Proxy(control, on: connection)
        proxy.onEvent = { [unowned self] opcode, a in
            switch TestControlEvent(opcode: opcode, arguments: a) {
            case .pointerState(let state): self.pointerState = state
            case .keyboardState(let state): self.keyboardState = state
            case .clock(let time, let frames): self.clock = (time, frames)
            case .window(let window): self.windowsSeen.append(window)
            case .captured(let width, let height): self.captured = (width, height)
            case .failed(let reason): self.failure = reason
            case .popup(let popup): self.popupsSeen.append(popup)
            case .cursorState(let state): self.cursorState = state
            // The list ends with the round trip; pointer_shape is read by its own binding
            // (PointerReader, PointerShapeProbe).
            case .windowsDone, .pointerShape, .pointerPreview, nil: break
            }
        }
    }

    private func answer<T>(_ slot: () -> T?) throws -> T {
        failure = nil
        try connection.roundtrip()
        if let failure { throw SystemError(failure) }
        guard let value = slot() else { throw SystemError("the compositor sent no answer") }
        return value
    }

    @discardableResult
    public func movePointer(x: Double, y: Double) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_move_pointer($0, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
        return try answer { pointerState }
    }

    @discardableResult
    public func movePointer(dx: Double, dy: Double) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_move_pointer_relative($0, wl_fixed_from_double(dx), wl_fixed_from_double(dy)) }
        return try answer { pointerState }
    }

    public static let leftButton: UInt32 = 0x110

    @discardableResult
    public func button(_ button: UInt32 = leftButton, pressed: Bool) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_button($0, button, pressed ? 1 : 0) }
        return try answer { pointerState }
    }

    /// Press and release.
    public func click(_ button: UInt32 = leftButton) throws {
        try self.button(button, pressed: true)
        try self.button(button, pressed: false)
    }

    @discardableResult
    public func axis(vertical: Bool = true, value: Double, discrete: Int32 = 0, source: UInt32 = 0) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_axis($0, vertical ? 0 : 1, wl_fixed_from_double(value), discrete, source) }
        return try answer { pointerState }
    }

    @discardableResult
    public func key(_ key: UInt32, pressed: Bool) throws -> KeyboardState {
        keyboardState = nil
        proxy.request { lodestone_test_v1_key($0, key, pressed ? 1 : 0) }
        return try answer { keyboardState }
    }

    /// Press and release.
    public func tap(_ key: UInt32) throws {
        try self.key(key, pressed: true)
        try self.key(key, pressed: false)
    }

    @discardableResult
    public func advanceClock(milliseconds: UInt32) throws -> (time: UInt32, frames: UInt32) {
        clock = nil
        proxy.request { lodestone_test_v1_advance_clock($0, milliseconds) }
        return try answer { clock }
    }

    /// Frames composed so far (advance_clock 0 reads the clock without moving it).
    public func frameCount() throws -> UInt32 { try advanceClock(milliseconds: 0).frames }

    public func pointer() throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_get_pointer_state($0) }
        return try answer { pointerState }
    }

    public func keyboard() throws -> KeyboardState {
        keyboardState = nil
        proxy.request { lodestone_test_v1_get_keyboard_state($0) }
        return try answer { keyboardState }
    }

    /// Mapped toplevels, topmost first.
    public func windows() throws -> [WindowState] {
        windowsSeen = []
        proxy.request { lodestone_test_v1_list_windows($0) }
        failure = nil
        try connection.roundtrip()
        return windowsSeen
    }

    /// Mapped popups, topmost first.
    public func popups() throws -> [Popup] {
        popupsSeen = []
        proxy.request { lodestone_test_v1_list_popups($0) }
        failure = nil
        try connection.roundtrip()
        return popupsSeen
    }

    public func cursor() throws -> CursorState {
        cursorState = nil
        proxy.request { lodestone_test_v1_get_cursor_state($0) }
        return try answer { cursorState }
    }

    @discardableResult
    public func moveWindow(_ name: String, x: Int32, y: Int32) throws -> WindowState {
        windowsSeen = []
        proxy.request { lodestone_test_v1_move_window($0, name, x, y) }
        return try answer { windowsSeen.first }
    }

    @discardableResult
    public func activateWindow(_ name: String) throws -> WindowState {
        windowsSeen = []
        proxy.request { lodestone_test_v1_activate_window($0, name) }
        return try answer { windowsSeen.first }
    }

    /// Sends the window a configure of this size; answers its geometry before
    /// the client has followed (poll `windows()` for the new size).
    @discardableResult
    public func resizeWindow(_ name: String, width: Int32, height: Int32) throws -> WindowState {
        windowsSeen = []
        proxy.request { lodestone_test_v1_resize_window($0, name, width, height) }
        return try answer { windowsSeen.first }
    }

    /// Sends the window xdg_toplevel.close.
    @discardableResult
    public func closeWindow(_ name: String) throws -> WindowState {
        windowsSeen = []
        proxy.request { lodestone_test_v1_close_window($0, name) }
        return try answer { windowsSeen.first }
    }

    // MARK: Since 5: heads plugged and unplugged

    /// Plugs in a head of width × height to the right of the others.
    @discardableResult
    public func addOutput(_ name: String, width: Int32, height: Int32) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_add_output($0, name, width, height) }
        return try answer { pointerState }
    }

    /// Unplugs a head: its windows move onto the first remaining one.
    @discardableResult
    public func removeOutput(_ name: String) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_remove_output($0, name) }
        return try answer { pointerState }
    }

    // MARK: Since 3: gestures and tablet tools

    /// `lodestone_test_v1.gesture_kind`.
    public enum GestureKind: UInt32, Sendable { case swipe, pinch, hold }
    /// `lodestone_test_v1.gesture_phase`.
    public enum GesturePhase: UInt32, Sendable { case begin, update, end }

    /// One touchpad gesture step (see the protocol's `gesture`): begin uses `fingers`,
    /// update the deltas (and for a pinch scale and rotation), end `cancelled`.
    @discardableResult
    public func gesture(_ kind: GestureKind, _ phase: GesturePhase, fingers: UInt32 = 0, dx: Double = 0, dy: Double = 0,
                        scale: Double = 1, rotation: Double = 0, cancelled: Bool = false) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_gesture($0, kind.rawValue, phase.rawValue, fingers, wl_fixed_from_double(dx), wl_fixed_from_double(dy),
                                  wl_fixed_from_double(scale), wl_fixed_from_double(rotation), cancelled ? 1 : 0) }
        return try answer { pointerState }
    }

    /// `lodestone_test_v1.tablet_phase`.
    public enum TabletPhase: UInt32, Sendable { case proximityIn, axes, tipDown, tipUp, button, proximityOut }
    /// `zwp_tablet_tool_v2.type`: the tools the test protocol injects.
    public enum TabletToolType: UInt32, Sendable { case pen = 0x140, eraser = 0x141 }

    /// One tablet tool frame (see the protocol's `tablet_tool`). Pressure and distance run
    /// from 0 to 1, tilt and rotation are in degrees.
    @discardableResult
    public func tabletTool(_ phase: TabletPhase, tool: TabletToolType = .pen, x: Double = 0, y: Double = 0, pressure: Double = 0,
                           distance: Double = 0, tiltX: Double = 0, tiltY: Double = 0, rotation: Double = 0,
                           button: UInt32 = 0, pressed: Bool = false) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_tablet_tool($0, phase.rawValue, tool.rawValue, wl_fixed_from_double(x), wl_fixed_from_double(y),
                                      wl_fixed_from_double(pressure), wl_fixed_from_double(distance), wl_fixed_from_double(tiltX),
                                      wl_fixed_from_double(tiltY), wl_fixed_from_double(rotation), button, pressed ? 1 : 0) }
        return try answer { pointerState }
    }

    // MARK: Since 6: touch

    /// `lodestone_test_v1.touch_phase`.
    public enum TouchPhase: UInt32, Sendable { case down, motion, up, cancel }

    /// One touchscreen event (see the protocol's `touch`; Lodestone started with
    /// `--touchscreen`): finger `id` goes down at, or moves to, global (x, y), lifts, or
    /// every finger is cancelled.
    @discardableResult
    public func touch(_ phase: TouchPhase, id: Int32 = 0, x: Double = 0, y: Double = 0) throws -> PointerState {
        pointerState = nil
        proxy.request { lodestone_test_v1_touch($0, phase.rawValue, id, wl_fixed_from_double(x), wl_fixed_from_double(y)) }
        return try answer { pointerState }
    }

    /// Writes the output to a PNG on the compositor's side; returns its size.
    @discardableResult
    public func capturePNG(to path: String) throws -> (width: Int32, height: Int32) {
        captured = nil
        proxy.request { lodestone_test_v1_capture_png($0, path) }
        return try answer { captured }
    }

    /// Copies the output into a client buffer.
    @discardableResult
    public func capture(into buffer: ClientShmBuffer) throws -> (width: Int32, height: Int32) {
        captured = nil
        proxy.request(buffer.buffer) { lodestone_test_v1_capture($0, $1) }
        return try answer { captured }
    }
}
