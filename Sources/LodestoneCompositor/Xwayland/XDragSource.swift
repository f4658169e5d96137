import CXCB
import WaylandServer

extension XDnd {
    /// A message from an X app's drag to the proxy: XdndEnter starts an `XDragSource`,
    /// the others move, leave or drop it.
    func proxyMessage(_ e: xcb_client_message_event_t) {
        let d = e.data.data32
        if e.type == atoms.enter {
            xSource?.leave()
            let offered = d.1 & 1 != 0 ? (wm.connection.property(d.0, atoms.typeList)?.bytes.cardinals ?? []) : [d.2, d.3, d.4]
            let types = Array(uniqued(offered.filter { $0 != 0 }).prefix(XSelection.maximumTargets))
            let names = wm.connection.names(of: types.filter { selection.mimeTypeByAtom($0) == nil })
            var targets: [(mime: String, target: XAtom)] = []
            for target in types {
                guard let mime = selection.mimeTypeByAtom(target) ?? names[target].flatMap({ $0.contains("/") ? $0 : nil }),
                      !targets.contains(where: { $0.mime == mime }) else { continue }
                targets.append((mime, target))
            }
            wm.log.debug("xdnd: X window 0x\(String(d.0, radix: 16)) drags \(targets.map(\.mime)) over Wayland windows")
            xSource = XDragSource(dnd: self, owner: d.0, targets: targets)
            return
        }
        guard let xSource, d.0 == xSource.owner else { return }
        if e.type == atoms.position {
            xSource.position(x: Int16(truncatingIfNeeded: d.2 >> 16), y: Int16(truncatingIfNeeded: d.2 & 0xffff), time: d.3, action: d.4)
        } else if e.type == atoms.leave {
            xSource.leave()
            self.xSource = nil
        } else if e.type == atoms.drop {
            xSource.drop()
        }
    }
}

/// An X app's drag over Wayland windows, as a drag from outside (`ExternalDrag`): the
/// surface under each XdndPosition hears enter (with an offer of the X types as MIME
/// types), motion and leave or drop on its data devices, and the X app hears XdndStatus
/// (the target's accept and the action agreed) after each position and answer, and
/// XdndFinished. A drop's data is converted from XdndSelection by `XDnd.selection`, as a
/// paste of the X clipboard is (`XDragData`).
///
/// In a nested Lodestone the drag may leave the window and carry on in the parent
/// (`handOff`, `OutgoingDrag`): the parent's target and action then reach the X app as
/// XdndStatus, its drop or cancel lets the X app's button go (`HeldPressGrab`), and its end
/// is the X app's XdndFinished.
final class XDragSource {
    unowned let dnd: XDnd
    /// The X app's window (XdndEnter's first field), where its answers go.
    let owner: XWindowID
    private var drag: ExternalDrag!
    /// The action the X app asks for (its last XdndPosition's).
    private var asked: DragActions = .copy
    /// The drag as it carries on outside, once handed off.
    private var outside: Outside?

    /// What the outside's drag said, and where the X app is in its end.
    private struct Outside {
        weak var drag: OutgoingDrag?
        let press: HeldPressGrab
        var accepted = false
        var action: DragActions = .none
        /// The press was let go (the outside dropped or cancelled).
        var released = false
        /// The outside finished (true) or cancelled (false); nil while it goes on.
        var outcome: Bool?
        /// The X app said XdndDrop.
        var xDropped = false
    }

    init(dnd: XDnd, owner: XWindowID, targets: [(mime: String, target: XAtom)]) {
        self.dnd = dnd
        self.owner = owner
        let host = dnd.wm.compositor
        drag = ExternalDrag(host: host, source: XDragData(dnd: dnd, targets: targets), sourceActions: DragActions.copy.rawValue,
                            surfaceAt: { [unowned host] in host.waylandSurface(atX: $0, y: $1) }, answersEveryMove: true,
                            answered: { [unowned self] _ in self.sendStatus() }, finished: { [unowned self] in self.finish(success: $0) })
    }

    // MARK: The X app's messages

    /// XdndPosition (root coordinates, Lodestone's logical ones): the Wayland surface there
    /// hears the drag (X windows hear the X app themselves), and the X app an XdndStatus.
    func position(x: Int16, y: Int16, time: UInt32, action: XAtom) {
        let asked = dnd.atoms.action(for: action)
        self.asked = asked == .none ? .copy : asked
        guard outside == nil else { return sendStatus() }
        drag.sourceActionsChanged(self.asked.rawValue)
        drag.moved(x: Double(x), y: Double(y), time: time)
    }

    /// XdndLeave, or the X app went away. A drag carried outside that had not ended there
    /// ends: the X app gave it up.
    func leave() {
        guard let outside else { return drag.leave() }
        self.outside = nil
        if outside.outcome == nil {
            outside.press.letGo()
            outside.drag?.sourceWentAway()
        }
    }

    /// XdndDrop: the target hears drop if it takes it, and reads the data; XdndFinished
    /// follows its `finish`. Otherwise the X app hears at once that nothing took it.
    /// Carried outside, XdndFinished follows the outside's end.
    func drop() {
        guard outside != nil else { return drag.drop() }
        outside?.xDropped = true
        endedOutside()
    }

    /// XdndStatus: whether a drop here would be taken, and with which action.
    private func sendStatus() {
        let accepts = outside?.accepted ?? drag.acceptsDrop
        let action = accepts ? dnd.atoms.atom(for: outside?.action ?? drag.action) : 0
        // Bit 1: positions are wanted everywhere (no rectangle where the answer holds).
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.status, (dnd.proxy, (accepts ? 1 : 0) | 2, 0, 0, action))
        dnd.wm.connection.flush()
    }

    /// XdndFinished, and the drag is over.
    private func finish(success: Bool) {
        let action = success ? dnd.atoms.atom(for: outside?.action ?? drag.action) : 0
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.finished, (dnd.proxy, success ? 1 : 0, action, 0, 0))
        dnd.wm.connection.flush()
        if dnd.xSource === self { dnd.xSource = nil }
    }

    // MARK: Carried outside

    /// The pointer leaves Lodestone with the X app's button held: the drag carries on
    /// outside, and the X app keeps its press until the outside's drop or cancel. Nil
    /// unless the press is an X window's, held with no other grab, and the drag not dropped.
    func handOff(seat: Seat) -> OutgoingDrag? {
        guard outside == nil, !drag.isDropped, let focus = seat.pointerFocus,
              dnd.wm.windows.values.contains(where: { $0.surface === focus }),
              let press = HeldPressGrab.hold(focus, on: seat) else { return nil }
        drag.leave()
        let outgoing = OutgoingDrag(source: self, icon: nil)
        outside = Outside(drag: outgoing, press: press)
        // Nothing outside has taken it yet.
        sendStatus()
        return outgoing
    }

    /// The outside finished or cancelled: the X app hears XdndFinished once it has dropped
    /// too (after a cancel it may leave instead, having heard the refusal).
    private func endedOutside() {
        guard let outside, outside.xDropped, let outcome = outside.outcome else { return }
        finish(success: outcome)
    }
}

extension XDragSource: OutgoingDragSource {
    var mimeTypes: [String] { drag.source.mimeTypes }
    var supportedActions: DragActions { asked }
    func send(mime: String, fd: Int32) { drag.source.send(mime: mime, fd: fd) }

    func targetOutside(_ mime: String?) {
        guard outside?.released == false else { return }
        outside?.accepted = mime != nil
        sendStatus()
    }

    func sendAction(_ action: DragActions) {
        guard outside?.released == false, action != outside?.action else { return }
        outside?.action = action
        sendStatus()
    }

    /// The button goes up in the X app, which drops (its last status accepted).
    func dropPerformed() {
        guard let outside, !outside.released, outside.outcome == nil else { return }
        self.outside?.released = true
        outside.press.letGo()
    }

    func finished() {
        guard outside?.outcome == nil else { return }
        outside?.outcome = true
        endedOutside()
    }

    /// Before the drop, the X app hears the refusal, then the button go up: it leaves.
    func cancelled() {
        guard let outside, outside.outcome == nil else { return }
        self.outside?.outcome = false
        if !outside.released {
            self.outside?.accepted = false
            self.outside?.released = true
            sendStatus()
            outside.press.letGo()
        }
        endedOutside()
    }
}

/// What an X app drags, as the Wayland target reads it: its X types as MIME types, each
/// converted from XdndSelection.
final class XDragData: SelectionSource {
    private unowned let dnd: XDnd
    private let targets: [(mime: String, target: XAtom)]

    init(dnd: XDnd, targets: [(mime: String, target: XAtom)]) {
        self.dnd = dnd
        self.targets = targets
    }

    var mimeTypes: [String] { targets.map(\.mime) }

    func send(mime: String, fd: Int32) {
        guard let target = targets.first(where: { $0.mime == mime })?.target else { return }
        dnd.selection.receive(target: target, fd: fd)
    }

    func cancelled() {}
}
