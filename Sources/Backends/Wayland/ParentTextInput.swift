import CWaylandClient
import CWaylandProtocols
import LodestoneCompositor
import Logging
import Rendering
import WaylandClient

/// Lodestone as the parent session's text-input client (issue 39, item 4): a
/// `zwp_text_input_v3` on the parent's seat stands for whichever app inside has an enabled
/// text input on the focused surface, so the parent desktop's input method (ibus, fcitx5,
/// GNOME's) composes into apps inside.
///
/// - Lodestone to parent: the app's enable and disable, surrounding text, change cause,
///   content type and cursor rectangle, committed as the app commits them
///   (`BridgedTextInput.outsideServes`). Another field inside is a disable and a new enable,
///   as for an app whose focus moved. The parent hears nothing between its `leave` and its
///   next `enter` (it ignores requests then, as the protocol says).
/// - Parent to Lodestone: preedit (with its cursor), deletion and commit string, kept until
///   `done` and then applied to the app's text input, which ends them with a `done` of its
///   own. They are applied whatever `done`'s serial, as the protocol asks and GTK does: a
///   serial behind our commits only means the parent composed against older text, and the
///   app's next commit tells it the newer.
/// - An input method inside Lodestone takes precedence (`TextInputBridge.swift`): while it
///   runs, the parent is told nothing is enabled.
///
/// The cursor rectangle needs no conversion: the window shows the composed frame from the
/// origin, at the output's scale, so the parent surface's coordinates are Lodestone's global
/// logical ones, as for pointer input (`ParentInput`).
final class ParentTextInput {
    private let manager: Proxy
    private let textInput: Proxy
    private unowned let window: ParentWindow
    /// Weak: the compositor may go first in a teardown that skips `WaylandBackend.stop`.
    private weak var bridge: BridgedTextInput?
    private let log: Logger
    /// The parent's text-input focus is on our window: requests count.
    private var entered = false
    /// What the parent was last committed (nil: disabled), and what it should be.
    private var sent: TextInputDescription?
    private var wanted: TextInputDescription?
    /// Our commits so far: the serial the parent's `done` compares.
    private var commits: UInt32 = 0
    /// The parent's edit until its `done`.
    private var pending = TextInputEdit()
    /// A preedit of the parent's shows in the app: cleared when the parent's focus leaves.
    private var preeditShown = false

    init?(registry: Registry, globals: ParentGlobals, seat: Proxy, window: ParentWindow, bridge: BridgedTextInput, logger: Logger) {
        guard let raw = registry.bind(cwp_zwp_text_input_manager_v3_interface(), version: 1) else { return nil }
        let manager = Proxy(raw, on: globals.connection)
        guard let input = seat.request({ seatPointer in manager.request { zwp_text_input_manager_v3_get_text_input($0, seatPointer) } }) else {
            manager.destroy { zwp_text_input_manager_v3_destroy($0) }
            return nil
        }
        self.manager = manager
        textInput = Proxy(input, on: globals.connection)
        self.window = window
        self.bridge = bridge
        log = logger
        textInput.handleEvents(TextInputEvent.self) { [unowned self] in self.textInputEvent($0) }
        bridge.outsideServes = { [unowned self] in self.serve($0) }
        logger.info("the parent's input method composes for the apps inside")
    }

    deinit {
        bridge?.outsideServes = nil
        textInput.destroy { zwp_text_input_v3_destroy($0) }
        manager.destroy { zwp_text_input_manager_v3_destroy($0) }
    }

    // MARK: Lodestone to parent

    private func serve(_ description: TextInputDescription?) {
        wanted = description
        sync()
    }

    /// Brings the parent to `wanted`, one commit per change.
    private func sync() {
        guard entered, wanted != sent else { return }
        if let old = sent, wanted?.field != old.field {
            textInput.request { zwp_text_input_v3_disable($0) }
            commit()
            sent = nil
            // The old field's app dropped the preedit itself when its focus left.
            preeditShown = false
        }
        guard let wanted else { return }
        // enable resets what was described, so each field's first commit says it all.
        if sent == nil { textInput.request { zwp_text_input_v3_enable($0) } }
        if let s = wanted.surrounding { textInput.request { zwp_text_input_v3_set_surrounding_text($0, s.text, s.cursor, s.anchor) } }
        textInput.request { zwp_text_input_v3_set_text_change_cause($0, wanted.changeCause) }
        textInput.request { zwp_text_input_v3_set_content_type($0, wanted.hint, wanted.purpose) }
        if let r = wanted.cursor { textInput.request { zwp_text_input_v3_set_cursor_rectangle($0, r.x, r.y, r.width, r.height) } }
        commit()
        sent = wanted
    }

    private func commit() {
        textInput.request { zwp_text_input_v3_commit($0) }
        commits &+= 1
        manager.connection.flush()
    }

    // MARK: Parent to Lodestone

    private func textInputEvent(_ event: TextInputEvent) {
        switch event {
        case .enter(let surface):
            guard window.surface.isObject(surface) else { return }
            entered = true
            sync()
        case .leave(let surface):
            guard window.surface.isObject(surface) else { return }
            left()
        case .preeditString(let text, let begin, let end): pending.preedit = (text, begin, end)
        case .commitString(let text): pending.commit = text
        case .deleteSurroundingText(let before, let after): pending.delete = (before, after)
        case .done(let serial):
            let edit = pending
            pending = TextInputEdit()
            guard let field = sent?.field else { return }
            if serial != commits { log.debug("the parent's input method answered commit \(serial) of \(commits)") }
            preeditShown = edit.preedit.map { !$0.text.isEmpty } ?? false
            bridge?.applyOutside(edit, to: field)
        }
    }

    /// The parent's focus left our window: it forgot what we enabled; a preedit it left in
    /// the app goes, as the protocol asks of a client.
    private func left() {
        entered = false
        pending = TextInputEdit()
        if let field = sent?.field, preeditShown { bridge?.applyOutside(TextInputEdit(), to: field) }
        preeditShown = false
        sent = nil
    }
}
