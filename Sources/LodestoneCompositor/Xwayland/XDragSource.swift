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
final class XDragSource {
    unowned let dnd: XDnd
    /// The X app's window (XdndEnter's first field), where its answers go.
    let owner: XWindowID
    private var drag: ExternalDrag!

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
        drag.sourceActionsChanged((asked == .none ? .copy : asked).rawValue)
        drag.moved(x: Double(x), y: Double(y), time: time)
    }

    func leave() { drag.leave() }

    /// XdndDrop: the target hears drop if it takes it, and reads the data; XdndFinished
    /// follows its `finish`. Otherwise the X app hears at once that nothing took it.
    func drop() { drag.drop() }

    /// XdndStatus: whether a drop here would be taken, and with which action.
    private func sendStatus() {
        let accepts = drag.acceptsDrop
        let action = accepts ? dnd.atoms.atom(for: drag.action) : 0
        // Bit 1: positions are wanted everywhere (no rectangle where the answer holds).
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.status, (dnd.proxy, (accepts ? 1 : 0) | 2, 0, 0, action))
        dnd.wm.connection.flush()
    }

    /// XdndFinished, and the drag is over.
    private func finish(success: Bool) {
        let action = success ? dnd.atoms.atom(for: drag.action) : 0
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.finished, (dnd.proxy, success ? 1 : 0, action, 0, 0))
        dnd.wm.connection.flush()
        if dnd.xSource === self { dnd.xSource = nil }
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
