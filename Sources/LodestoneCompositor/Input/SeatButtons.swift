import PointerAdaptation
import AdaptivePointerEngine
import WaylandServer

/// The seat's buttons and scrolling: presses and releases through the active grab (and on
/// the title bars Lodestone draws), axis events, and click to focus.
extension Seat {
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        if pressed {
            guard !pressedButtons.contains(button) else { return }
            if pressedButtons.isEmpty {
                pointerInput(.button(.pressed))
                if grab === defaultGrab, !pointerOutside, let window = scene.titleBarAt(x: x, y: y) {
                    pressedTitleBar(of: window, time: time)
                } else {
                    if grab.refocusesBeforePress { updatePointerFocus() }
                    apply(grab.pressStarted(focus: pointerFocus))
                }
            }
            pressedButtons.append(button)
            let response = grab.button(button, pressed: true, time: time)
            if response.contains(.deliver) { sendButton(button, pressed: true, time: time) }
            apply(response)
        } else {
            guard pressedButtons.contains(button) else { return }
            pressedButtons.removeAll { $0 == button }
            // The grab that got the press hears its release, even if it ends with it.
            let holder = grab
            if pressedButtons.isEmpty {
                pointerInput(.button(.released))
                let response = holder.released(at: (x, y))
                // A title bar's minimize button: the desktop hides the window, the seat moves the keyboard.
                if response.contains(.minimizeWindow), let bar = holder as? TitleBarButtonGrab { apply(desktop.minimize(bar.window)) }
                apply(response)
            }
            let response = holder.button(button, pressed: false, time: time)
            if response.contains(.deliver) { sendButton(button, pressed: false, time: time) }
            apply(response)
        }
        if pressedButtons.isEmpty, grab.routesToClients { updatePointerFocus() }
    }

    func sendButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        guard let focus = pointerFocus else { return }
        let s = serial()
        if pressed { pressSerial = s }
        for p in wlPointers(of: focus) {
            p.button(serial: s, time: time, button: button, pressed: pressed)
            p.frame()
        }
    }

    func pointerAxis(_ axis: PointerAxis, time: UInt32) {
        let response = grab.axis(axis, time: time)
        if response.contains(.deliver) { sendAxis(axis, time: time) }
        apply(response)
    }

    func sendAxis(_ axis: PointerAxis, time: UInt32) {
        guard let focus = pointerFocus else { return }
        // What the app published for accessibility moves with the scroll: read again.
        if let window = scene.window(of: focus) { accessibility.scrolled(window) }
        for p in wlPointers(of: focus) {
            p.axis(time: time, axis: axis.axis, value: axis.value, discrete: axis.discrete, source: axis.source)
            p.frame()
        }
    }

    /// A press on a title bar Lodestone draws: the window comes forward; a button acts when
    /// released over it; a double click maximizes or restores; otherwise a drag moves it.
    private func pressedTitleBar(of window: DesktopWindow, time: UInt32) {
        guard let bar = window.titleBar else { return }
        apply(desktop.activate(window))
        if let button = bar.button(atX: x, y: y) {
            bar.lastPress = nil
            return begin(TitleBarButtonGrab(window: window, button: button))
        }
        if let last = bar.lastPress, time &- last <= TitleBar.doubleClickMilliseconds {
            bar.lastPress = nil
            window.toggleMaximized()
            return begin(TitleBarButtonGrab(window: window, button: nil))
        }
        bar.lastPress = time
        begin(MoveGrab(window: window, mover: desktop.mover, device: devicePosition))
    }

    /// Click to focus: the window under a press is raised and gets the keyboard.
    func focusAndActivate() {
        updatePointerFocus()
        // A click on a lock surface gives it the keyboard (a locker with one per head).
        if let focus = pointerFocus, scene.lock != nil { return setKeyboardFocus(scene.rootSurface(focus)) }
        guard let focus = pointerFocus else { return }
        let press = layerShell.pressed(on: focus)
        if let surface = press.keyboard { setKeyboardFocus(surface) }
        guard !press.onLayer, let toplevel = scene.window(of: focus) else { return }
        apply(desktop.activate(toplevel))
    }
}
