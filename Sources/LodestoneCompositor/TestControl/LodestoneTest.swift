import CWaylandServer
import Rendering
import WaylandServer

/// `lodestone_test_v1`: lets a test inject input, drive the clock and read
/// the screen. Offered only with --test-control. Every request is answered
/// by exactly one event (window lists end with windows_done).
final class LodestoneTest: Resource, LodestoneTestV1Handler {
    static let version: Int32 = 6
    unowned let host: any TestControlHost

    init?(host: any TestControlHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
    }

    private var seat: SeatReport { host.seatReport }
    /// Injected input happens now on the compositor's clock.
    private var now: UInt32 { host.clock.now }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .movePointer:
            inject(.pointerMotion(.absolute(x: a.fixed(0), y: a.fixed(1))))
            sendPointerState()
        case .movePointerRelative:
            inject(.pointerMotion(.relative(dx: a.fixed(0), dy: a.fixed(1))))
            sendPointerState()
        case .button:
            inject(.pointerButton(button: a.uint(0), pressed: a.uint(1) == WL_POINTER_BUTTON_STATE_PRESSED.rawValue))
            sendPointerState()
        case .axis:
            inject(.pointerAxis(PointerAxis(axis: a.uint(0), value: a.fixed(1), discrete: a.int(2), source: a.uint(3))))
            sendPointerState()
        case .key:
            inject(.key(code: a.uint(0), pressed: a.uint(1) == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue))
            sendKeyboardState()
        case .advanceClock:
            if a.uint(0) > 0 {
                guard host.clock.mode == .manual else { return failed("advance_clock needs --manual-clock") }
                host.clock.advance(by: a.uint(0))
            }
            send { lodestone_test_v1_send_clock($0, host.clock.now, UInt32(truncatingIfNeeded: host.frameCount)) }
        case .getPointerState: sendPointerState()
        case .getKeyboardState: sendKeyboardState()
        case .listWindows:
            for window in host.stackedWindows.reversed() { sendWindow(window) }
            send { lodestone_test_v1_send_windows_done($0) }
        case .moveWindow:
            guard let window = find(a.string(0)) else { return failed("no window named '\(a.string(0) ?? "")'") }
            host.moveWindow(window, to: a.int(1), a.int(2))
            sendWindow(window)
        case .activateWindow:
            guard let window = find(a.string(0)) else { return failed("no window named '\(a.string(0) ?? "")'") }
            host.activateWindow(window)
            sendWindow(window)
        case .capture: capture(into: a.buffer(0))
        case .capturePng:
            let image = host.capturedImage()
            let path = a.string(0) ?? ""
            do {
                try PNG.write(image, to: path)
                send { lodestone_test_v1_send_captured($0, host.output.pixelWidth, host.output.pixelHeight) }
            } catch {
                failed(error.description)
            }
        case .resizeWindow:
            guard let window = find(a.string(0)) else { return failed("no window named '\(a.string(0) ?? "")'") }
            guard a.int(1) > 0, a.int(2) > 0 else { return failed("window size \(a.int(1))×\(a.int(2)) is not positive") }
            window.requestSize(width: a.int(1), height: a.int(2))
            sendWindow(window)
        case .closeWindow:
            guard let window = find(a.string(0)) else { return failed("no window named '\(a.string(0) ?? "")'") }
            window.sendClose()
            sendWindow(window)
        case .getPointerShape: sendPointerShape()
        case .listPopups:
            for popup in host.popups.reversed() {
                let root = popup.rootToplevel
                let g = popup.xdgSurface.geometry
                send { lodestone_test_v1_send_popup($0, root?.title ?? "", root?.appID ?? "", popup.xdgSurface.position.x,
                                             popup.xdgSurface.position.y, g.width, g.height) }
            }
            send { lodestone_test_v1_send_windows_done($0) }
        case .getCursorState:
            let seat = self.seat
            let kind = seat.cursorSurface != nil ? LODESTONE_TEST_V1_CURSOR_KIND_SURFACE
                : seat.cursorHidden ? LODESTONE_TEST_V1_CURSOR_KIND_HIDDEN : LODESTONE_TEST_V1_CURSOR_KIND_NONE
            send { lodestone_test_v1_send_cursor_state($0, kind.rawValue, seat.cursorSets) }
        case .gesture:
            guard let event = Self.gesture(kind: a.uint(0), phase: a.uint(1), fingers: a.uint(2), dx: a.fixed(3), dy: a.fixed(4),
                                           scale: a.fixed(5), rotation: a.fixed(6), cancelled: a.uint(7) != 0) else {
                return failed("unknown gesture kind \(a.uint(0)) or phase \(a.uint(1))")
            }
            inject(.gesture(event))
            sendPointerState()
        case .tabletTool:
            guard let kind = TabletTool.Kind(rawValue: a.uint(1)) else { return failed("unknown tool type \(a.uint(1))") }
            let axes = TabletToolAxes(x: a.fixed(2), y: a.fixed(3), pressure: a.fixed(4), distance: a.fixed(5),
                                      tilt: (a.fixed(6), a.fixed(7)), rotation: a.fixed(8))
            guard let event = Self.tabletTool(phase: a.uint(0), tool: TabletTool(kind: kind), axes: axes, button: a.uint(9), pressed: a.uint(10) != 0) else {
                return failed("unknown tablet phase \(a.uint(0))")
            }
            inject(.tabletTool(event))
            sendPointerState()
        case .touch:
            guard seat.hasTouchscreen else { return failed("no touchscreen: Lodestone was started without --touchscreen") }
            let (id, x, y) = (a.int(1), a.fixed(2), a.fixed(3))
            switch a.uint(0) {
            case LODESTONE_TEST_V1_TOUCH_PHASE_DOWN.rawValue: inject(.touchDown(id: id, x: x, y: y))
            case LODESTONE_TEST_V1_TOUCH_PHASE_MOTION.rawValue: inject(.touchMotion(id: id, x: x, y: y))
            case LODESTONE_TEST_V1_TOUCH_PHASE_UP.rawValue: inject(.touchUp(id: id))
            case LODESTONE_TEST_V1_TOUCH_PHASE_CANCEL.rawValue: inject(.touchCancel)
            default: return failed("unknown touch phase \(a.uint(0))")
            }
            sendPointerState()
        case .getPointerPreview: sendPointerPreview(seat.pointerSnapshot)
        case .addOutput:
            let name = a.string(0) ?? ""
            guard !name.isEmpty, host.layout.head(named: name) == nil else { return failed("an output named '\(name)' exists") }
            guard a.int(1) > 0, a.int(2) > 0, a.int(1) <= 16384, a.int(2) <= 16384 else { return failed("output size \(a.int(1))×\(a.int(2)) is out of range") }
            do { try host.addOutput(OutputMode(name: name, width: a.int(1), height: a.int(2))) } catch { return failed("\(error)") }
            host.settlePointer()
            sendPointerState()
        case .removeOutput:
            let name = a.string(0) ?? ""
            guard host.removeOutput(named: name) else { return failed("no output named '\(name)' to remove (the last one stays)") }
            host.settlePointer()
            sendPointerState()
        }
    }

    /// Injected input, then the adaptive pointer's reaction at this same instant (no time
    /// passes): the injection is what changes state, so the answer and every later query
    /// only read it.
    private func inject(_ event: InputEvent) {
        host.inject(event, at: now)
        host.settlePointer()
    }

    /// `gesture`'s arguments as an `InputEvent` (see lodestone_test_v1.gesture_kind and gesture_phase).
    static func gesture(kind: UInt32, phase: UInt32, fingers: UInt32, dx: Double, dy: Double, scale: Double, rotation: Double,
                        cancelled: Bool) -> GestureEvent? {
        switch (kind, phase) {
        case (0, 0): .swipeBegin(fingers: fingers)
        case (0, 1): .swipeUpdate(dx: dx, dy: dy)
        case (0, 2): .swipeEnd(cancelled: cancelled)
        case (1, 0): .pinchBegin(fingers: fingers)
        case (1, 1): .pinchUpdate(dx: dx, dy: dy, scale: scale, rotation: rotation)
        case (1, 2): .pinchEnd(cancelled: cancelled)
        case (2, 0): .holdBegin(fingers: fingers)
        case (2, 2): .holdEnd(cancelled: cancelled)
        default: nil
        }
    }

    /// `tablet_tool`'s arguments as an `InputEvent` (see lodestone_test_v1.tablet_phase).
    static func tabletTool(phase: UInt32, tool: TabletTool, axes: TabletToolAxes, button: UInt32, pressed: Bool) -> TabletToolEvent? {
        switch phase {
        case 0: .proximityIn(tool, axes)
        case 1: .axes(tool, axes)
        case 2: .tip(tool, down: true, axes)
        case 3: .tip(tool, down: false, axes)
        case 4: .button(tool, button: button, pressed: pressed)
        case 5: .proximityOut(tool)
        default: nil
        }
    }

    private func find(_ name: String?) -> DesktopWindow? {
        (host.stackedWindows.reversed() + host.minimizedWindows).first { $0.title == name || $0.appID == name }
    }

    private func failed(_ reason: String) { send { lodestone_test_v1_send_failed($0, reason) } }

    private func sendPointerState() {
        var title = "", appID = "", sx = 0.0, sy = 0.0
        let seat = self.seat
        if let focus = seat.pointerFocus, let local = seat.surfaceLocal {
            (sx, sy) = local
            if let t = host.window(of: focus) { title = t.title; appID = t.appID }
            else if let layer = host.layerSurface(of: focus) { (title, appID) = layer.testControlName }
        }
        send { lodestone_test_v1_send_pointer_state($0, wl_fixed_from_double(seat.position.x), wl_fixed_from_double(seat.position.y), title, appID,
                                            wl_fixed_from_double(sx), wl_fixed_from_double(sy), UInt32(seat.buttonsHeld)) }
        sendPointerShape()
    }

    /// The adaptive pointer as presented (see AdaptivePointerShape.swift).
    private func sendPointerShape() { sendAdaptivePointerShape(seat.pointerSnapshot) }

    private func sendKeyboardState() {
        let seat = self.seat
        var (title, appID) = ("", "")
        if let focus = seat.keyboardFocus {
            if let t = host.window(of: focus) { (title, appID) = (t.title, t.appID) }
            else if let layer = host.layerSurface(of: focus) { (title, appID) = layer.testControlName }
        }
        let m = seat.modifiers
        send { lodestone_test_v1_send_keyboard_state($0, title, appID, m.depressed, m.latched, m.locked) }
    }

    private func sendWindow(_ w: DesktopWindow) {
        let g = w.geometry
        send { lodestone_test_v1_send_window($0, w.title, w.appID, w.position.x, w.position.y,
                                      g.width, g.height, w.isActivated ? 1 : 0) }
    }

    private func capture(into buffer: WlBuffer?) {
        guard let shm = buffer?.shm else { return failed("capture needs a wl_shm buffer") }
        let output = host.output
        guard shm.width >= output.pixelWidth, shm.height >= output.pixelHeight,
              shm.format == WL_SHM_FORMAT_ARGB8888.rawValue || shm.format == WL_SHM_FORMAT_XRGB8888.rawValue else {
            return failed("capture buffer \(shm.width)×\(shm.height) is smaller than the output \(output.pixelWidth)×\(output.pixelHeight) or not (a|x)rgb8888")
        }
        let image = host.capturedImage()
        shm.withPixels { data in
            if let target = Image(borrowing: data, width: shm.width, height: shm.height, stride: shm.stride, format: .argb8888) {
                target.copy(from: image, rect: PixelRect(x: 0, y: 0, width: output.pixelWidth, height: output.pixelHeight))
            }
        }
        send { lodestone_test_v1_send_captured($0, output.pixelWidth, output.pixelHeight) }
    }
}
