import AdaptivePointerEngine

/// The seat's part in a pen's event: the tablets route it to clients and to Scribble
/// (`Tablets`), and return what the seat does with its pointer and focus.
extension Seat {
    func tabletInput(_ event: TabletToolEvent, time: UInt32) {
        let outcome = tablets.handle(event, time: time)
        for input in outcome.pointer { pointerInput(input) }
        if let window = outcome.activate { apply(desktop.activate(window)) }
        // Scribble focuses a field by clicking it, after the pen's event: the pointer moves
        // where the pen first touched (hidden while the pen touches) and clicks.
        if let p = outcome.click {
            handle(.pointerMotion(.absolute(x: p.x, y: p.y)), at: time)
            handle(.pointerButton(button: Self.leftButton, pressed: true), at: time)
            handle(.pointerButton(button: Self.leftButton, pressed: false), at: time)
        }
    }

    /// BTN_LEFT.
    private static let leftButton: UInt32 = 0x110
}
