import CXCB

/// Drag and drop between Wayland and X11 apps through XDND (freedesktop.org's XDND,
/// version 5), as wlroots' `xwayland/selection/dnd.c` and KWin's `xwl/dnd.cpp` do.
///
/// Wayland to X: when a Wayland drag (`DragGrab`, or the parent's, `ExternalDrag`) reaches an Xwayland window that says it
/// takes XDND (`XdndAware`), Lodestone is the XDND source toward it (`XDragTarget`): its
/// XdndSelection window owns XdndSelection with the Wayland source as the data, so the
/// target's conversions are served as a clipboard paste is (`XSelection`, with the same MIME
/// ↔ target-atom conversion).
///
/// X to Wayland: an X app's drag looks for the XdndAware window under the pointer in X's
/// stack. Wayland windows are not in it, so Lodestone keeps a proxy there: an input-only
/// window as large as X allows, at the bottom of the stack, found wherever no X window is.
/// Its XdndEnter, XdndPosition, XdndLeave and XdndDrop become a Wayland drag to the surface
/// under that position (`XDragSource`), the data converted from XdndSelection. The X app
/// keeps the pointer (its implicit grab) and drives the drag. An X window hidden under a
/// Wayland one is still found by the X app first (X's stack is not the screen's).
final class XDnd {
    unowned let wm: XWM
    let atoms: Atoms
    /// XdndSelection, served from the dragged Wayland source while a drag is over X.
    let selection: XSelection
    let dragged: DraggedSelection
    /// The X window a Wayland drag is over (or was dropped on, until it finishes).
    var target: XDragTarget?
    /// The proxy for Wayland windows in X's stack.
    let proxy: XWindowID
    /// An X app's drag over Wayland windows (or dropped, until the target finishes).
    var xSource: XDragSource?

    /// The XDND atoms (the spec's names).
    struct Atoms {
        let aware, selection, enter, position, status, leave, drop, finished, typeList: XAtom
        let actionCopy, actionMove, actionAsk: XAtom
        static let names = ["XdndAware", "XdndSelection", "XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave", "XdndDrop",
                            "XdndFinished", "XdndTypeList", "XdndActionCopy", "XdndActionMove", "XdndActionAsk"]

        init?(_ found: [String: XAtom]) {
            guard Self.names.allSatisfy({ found[$0] != nil }) else { return nil }
            let a = { (name: String) in found[name]! }
            (aware, selection, enter, position, status, leave) = (a("XdndAware"), a("XdndSelection"), a("XdndEnter"), a("XdndPosition"), a("XdndStatus"), a("XdndLeave"))
            (drop, finished, typeList) = (a("XdndDrop"), a("XdndFinished"), a("XdndTypeList"))
            (actionCopy, actionMove, actionAsk) = (a("XdndActionCopy"), a("XdndActionMove"), a("XdndActionAsk"))
        }

        func atom(for action: DragActions) -> XAtom {
            action.contains(.copy) ? actionCopy : action.contains(.move) ? actionMove : action.contains(.ask) ? actionAsk : actionCopy
        }

        func action(for atom: XAtom) -> DragActions {
            switch atom {
            case actionMove: return .move
            case actionAsk: return .ask
            case 0: return .none
            default: return .copy
            }
        }
    }

    init?(wm: XWM) {
        guard let atoms = Atoms(wm.connection.internAtoms(Atoms.names)) else { return nil }
        self.wm = wm
        self.atoms = atoms
        dragged = DraggedSelection()
        selection = XSelection(wm: wm, compositor: wm.compositor, atom: atoms.selection, wayland: dragged)
        proxy = wm.connection.createBottomInputWindow(width: UInt16(Int16.max), height: UInt16(Int16.max))
        wm.connection.setProperty(proxy, atoms.aware, type: XWM.Atoms.atom, [Self.version])
    }

    /// The XDND version both sides speak (the spec's current one, or the target's older).
    static let version: UInt32 = 5

    /// A drag (a Wayland client's, or the parent's) reached `surface`: if it is an X window
    /// that takes XDND, Lodestone becomes the XDND source toward it. `statusChanged` follows
    /// each of its answers.
    func dragEntered(_ surface: WlSurface, source: any XDragTargetSource, statusChanged: @escaping () -> Void) -> XDragTarget? {
        guard let window = wm.windows.values.first(where: { $0.surface === surface }) else { return nil }
        guard let aware = wm.connection.property(window.id, atoms.aware)?.bytes.cardinals.first, aware >= 3 else {
            wm.log.debug("xdnd: X window 0x\(String(window.id, radix: 16)) is not XdndAware; the drag passes over it")
            return nil
        }
        target = nil
        dragged.setSelection(source.xdndData)
        let target = XDragTarget(dnd: self, window: window.id, version: min(aware, Self.version), source: source, statusChanged: statusChanged)
        self.target = target
        target.enter()
        return target
    }

    /// A ClientMessage to one of our windows: XdndStatus or XdndFinished from the target.
    /// False when it is none of XDND's.
    func clientMessage(_ e: xcb_client_message_event_t) -> Bool {
        if e.window == proxy {
            proxyMessage(e)
            return true
        }
        guard e.window == selection.window else { return false }
        if e.type == atoms.status { target?.status(e) } else if e.type == atoms.finished { target?.finished(e) }
        return true
    }

    /// An X app went away mid-drag. Its drag over Wayland windows: the target hears leave
    /// (a drop it was reading ends with what came); carried on in the parent, the parent's
    /// drag ends. A Wayland drop on it that it had not finished: the Wayland source hears
    /// cancelled.
    func windowDestroyed(_ id: XWindowID) {
        if let target, target.window == id { target.windowDestroyed() }
        guard let xSource, xSource.owner == id else { return }
        xSource.leave()
        self.xSource = nil
    }

    /// The drag over X is over (dropped and finished, left, or cancelled): XdndSelection is
    /// released.
    func targetEnded(_ ended: XDragTarget) {
        guard target === ended else { return }
        target = nil
        dragged.setSelection(nil)
    }
}

/// The dragged Wayland source as X sees it, through XdndSelection: set while a drag is over
/// an X window (XSelection makes its window the X owner then).
final class DraggedSelection: BridgedSelection {
    private(set) weak var source: SelectionSource?
    var changed: ((SelectionSource?) -> Void)?
    private var observers: [(SelectionSource?) -> Void] = []

    func observe(_ listener: @escaping (SelectionSource?) -> Void) { observers.append(listener) }

    func setSelection(_ newSource: SelectionSource?) {
        guard newSource !== source else { return }
        source = newSource
        changed?(newSource)
        for listener in observers { listener(newSource) }
    }
}
