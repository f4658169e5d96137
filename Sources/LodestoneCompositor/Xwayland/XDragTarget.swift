import CXCB

/// The drag an X window hears of through `XDragTarget`, and what it is told back: a Wayland
/// client's source (`WlDataSource`, under a `DragGrab`) or the parent's drag (`ExternalDrag`).
protocol XDragTargetSource: AnyObject {
    /// What the X window reads through XdndSelection, and its MIME types.
    var xdndData: SelectionSource { get }
    var supportedActions: DragActions { get }
    /// XdndStatus: whether the X window takes a drop here, and with which action.
    func xStatus(accepts: Bool, action: DragActions)
    /// XdndDrop went out.
    func xDropPerformed()
    /// XdndFinished (or the window died after the drop): whether it took the data.
    func xFinished(succeeded: Bool)
}

/// An XdndAware X window a drag is over: Lodestone speaks XDND to it as the source
/// (XdndEnter with the source's MIME types as target atoms, XdndPosition as the drag
/// moves, one at a time as each XdndStatus answers, XdndLeave or XdndDrop, and XdndFinished
/// back), while the drag keeps the pointer. The target reads the data by converting
/// XdndSelection, which `XDnd.selection` serves from the drag's source.
final class XDragTarget {
    unowned let dnd: XDnd
    /// The top-level X window (its XdndAware said the version).
    let window: XWindowID
    let version: UInt32
    private(set) weak var source: (any XDragTargetSource)?
    /// Each XdndStatus: the pointer says what a drop would do.
    private let statusChanged: () -> Void
    /// The target's last XdndStatus: whether it takes a drop, and the action it chose.
    private(set) var answered = false
    private(set) var accepts = false
    private(set) var action: DragActions = .none
    /// An XdndPosition is out and not yet answered; the latest position waits meanwhile.
    private var awaitingStatus = false
    private var pendingPosition: (x: Int16, y: Int16)?
    /// XdndDrop was sent: only XdndFinished is awaited now.
    private(set) var dropped = false

    init(dnd: XDnd, window: XWindowID, version: UInt32, source: any XDragTargetSource, statusChanged: @escaping () -> Void) {
        self.dnd = dnd
        self.window = window
        self.version = version
        self.source = source
        self.statusChanged = statusChanged
    }

    private var connection: XConnection { dnd.wm.connection }
    private var atoms: XDnd.Atoms { dnd.atoms }
    private var sourceWindow: XWindowID { dnd.selection.window }

    /// XdndEnter: our window, the version, and the first three types (all of them in
    /// XdndTypeList when there are more).
    func enter() {
        guard let source else { return }
        let types = uniqued(source.xdndData.mimeTypes.flatMap { dnd.selection.targets(for: $0) })
        if types.count > 3 { connection.setProperty(sourceWindow, atoms.typeList, type: XWM.Atoms.atom, types) }
        let t = types + [0, 0, 0]
        connection.sendClientMessage(to: window, type: atoms.enter, (sourceWindow, version << 24 | (types.count > 3 ? 1 : 0), t[0], t[1], t[2]))
        connection.flush()
    }

    /// The pointer moved (root coordinates, which are Lodestone's logical ones).
    func moved(x: Double, y: Double) {
        let position = (Int16(clamping: Int(x.rounded(.down))), Int16(clamping: Int(y.rounded(.down))))
        guard !dropped else { return }
        if awaitingStatus { return pendingPosition = position }
        sendPosition(position)
    }

    private func sendPosition(_ p: (x: Int16, y: Int16)) {
        guard let source else { return }
        awaitingStatus = true
        let coordinates = UInt32(UInt16(bitPattern: p.x)) << 16 | UInt32(UInt16(bitPattern: p.y))
        connection.sendClientMessage(to: window, type: atoms.position, (sourceWindow, 0, coordinates, 0, atoms.atom(for: source.supportedActions)))
        connection.flush()
    }

    /// XdndStatus: the target takes a drop here (bit 0) with an action, or not.
    func status(_ e: xcb_client_message_event_t) {
        let d = e.data.data32
        guard d.0 == window, !dropped else { return }
        awaitingStatus = false
        answered = true
        accepts = d.1 & 1 != 0
        action = accepts ? atoms.action(for: d.4) : .none
        source?.xStatus(accepts: accepts, action: action)
        statusChanged()
        if let next = pendingPosition {
            pendingPosition = nil
            sendPosition(next)
        }
    }

    /// The drag left the window or was cancelled over it.
    func leave() {
        guard !dropped else { return }
        connection.sendClientMessage(to: window, type: atoms.leave, (sourceWindow, 0, 0, 0, 0))
        connection.flush()
        dnd.targetEnded(self)
    }

    /// The button came up over the window, which accepts: XdndDrop; the target converts
    /// XdndSelection and says XdndFinished.
    func drop() {
        dropped = true
        connection.sendClientMessage(to: window, type: atoms.drop, (sourceWindow, 0, 0, 0, 0))
        connection.flush()
        source?.xDropPerformed()
    }

    /// The X window was destroyed: after the drop, the source hears it failed (before, the
    /// drag hears of its surface going, `DragGrab.surfaceDestroyed`).
    func windowDestroyed() {
        guard dropped else { return }
        source?.xFinished(succeeded: false)
        dnd.targetEnded(self)
    }

    /// XdndFinished: the target has the data (version 5 says whether it succeeded); the
    /// source hears dnd_finished, or cancelled when the target failed.
    func finished(_ e: xcb_client_message_event_t) {
        let d = e.data.data32
        guard d.0 == window, dropped else { return }
        let succeeded = version < 5 || d.1 & 1 != 0
        dnd.wm.log.debug("xdnd: X window 0x\(String(window, radix: 16)) finished the drop (\(succeeded ? "took it" : "failed"))")
        source?.xFinished(succeeded: succeeded)
        dnd.targetEnded(self)
    }
}

/// A Wayland client's drag over an X window: the source hears the X window's answers as it
/// would a Wayland target's.
extension WlDataSource: XDragTargetSource {
    var xdndData: SelectionSource { self }

    func xStatus(accepts: Bool, action: DragActions) {
        if accepts != accepted { target(accepts ? mimeTypes.first : nil) }
        accepted = accepts
        sendAction(action.intersection(supportedActions))
    }

    func xDropPerformed() { dropPerformed() }
    func xFinished(succeeded: Bool) { if succeeded { finished() } else { cancelled() } }
}
