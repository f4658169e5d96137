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
            wm.compositor.log.debug("xdnd: X window 0x\(String(d.0, radix: 16)) drags \(targets.map(\.mime)) over Wayland windows")
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

/// An X app's drag over Wayland windows, as a Wayland drag: the surface under each
/// XdndPosition hears enter (with an offer of the X types as MIME types), motion and
/// leave or drop on its data devices, and the X app hears XdndStatus (the target's accept
/// and the action agreed) and XdndFinished. A drop's data is converted from XdndSelection
/// by `XDnd.selection`, as a paste of the X clipboard is.
final class XDragSource: SelectionSource, DragSession {
    unowned let dnd: XDnd
    /// The X app's window (XdndEnter's first field), where its answers go.
    let owner: XWindowID
    private let targets: [(mime: String, target: XAtom)]
    /// The action the X app asks for (XdndPosition's).
    private var actions: DragActions = .copy
    private weak var target: WlSurface?
    private var offers: [Weak<WlDataOffer>] = []
    private var dropped = false

    init(dnd: XDnd, owner: XWindowID, targets: [(mime: String, target: XAtom)]) {
        self.dnd = dnd
        self.owner = owner
        self.targets = targets
    }

    private var compositor: Compositor { dnd.wm.compositor }
    private var offer: WlDataOffer? { offers.lazy.compactMap(\.value).first }

    // MARK: SelectionSource

    var mimeTypes: [String] { targets.map(\.mime) }

    func send(mime: String, fd: Int32) {
        guard let target = targets.first(where: { $0.mime == mime })?.target else { return }
        dnd.selection.receive(target: target, fd: fd)
    }

    func cancelled() {}

    // MARK: The X app's messages

    /// XdndPosition (root coordinates, Lodestone's logical ones): the Wayland surface there
    /// hears the drag; X windows hear the X app themselves.
    func position(x: Int16, y: Int16, time: UInt32, action: XAtom) {
        guard !dropped else { return }
        actions = dnd.atoms.action(for: action) == .none ? .copy : dnd.atoms.action(for: action)
        let hit = waylandSurface(atX: Double(x), y: Double(y))
        if hit?.surface !== target {
            leaveTarget()
            if let hit { enter(hit) }
        } else if let target, let hit {
            for device in devices(of: target.client) { device.motion(time: time, x: hit.sx, y: hit.sy) }
        }
        sendStatus()
    }

    func leave() { leaveTarget() }

    /// The Wayland surface on top at a point, if a Wayland window is on top there. X's
    /// override-redirect windows are looked through: the X app's drag icon is one, and it
    /// is under the pointer throughout (as mutter picks the window, not the icon).
    private func waylandSurface(atX x: Double, y: Double) -> (surface: WlSurface, sx: Double, sy: Double)? {
        let scene = compositor.scene
        var hit: (surface: WlSurface, sx: Double, sy: Double)?
        for window in scene.windows where window.isMapped {
            if let bar = window.titleBar, bar.frame.contains(x: x, y: y) { hit = nil }
            guard let surface = window.surface else { continue }
            let isX = window is XwaylandWindow
            let (ox, oy) = window.surfaceOrigin
            scene.walk(surface, x: ox, y: oy) { s, sx, sy in
                let lx = x - Double(sx), ly = y - Double(sy)
                if s.acceptsInput(x: lx, y: ly) { hit = isX ? nil : (s, lx, ly) }
            }
        }
        return hit
    }

    /// XdndDrop: the target hears drop if it takes it, and reads the data; XdndFinished
    /// follows its `finish`. Otherwise the X app hears at once that nothing took it.
    func drop() {
        guard !dropped else { return }
        dropped = true
        guard let target, let offer, offer.acceptsDrop else {
            leaveTarget()
            return finish(success: false)
        }
        for device in devices(of: target.client) { device.drop() }
        offer.dropped = true
        self.target = nil
    }

    // MARK: DragSession

    func offerChanged(_ offer: WlDataOffer) {
        guard offer.drag === self, !dropped else { return }
        offer.sendAction(offer.negotiate(withSourceActions: actions))
        sendStatus()
    }

    func offerFinished(_ offer: WlDataOffer) {
        guard dropped, offer === self.offer else { return }
        finish(success: true)
    }

    // MARK: The Wayland target

    private func devices(of client: Client) -> [WlDataDevice] {
        compositor.selection.devices(of: client).compactMap { $0 as? WlDataDevice }
    }

    private func enter(_ hit: (surface: WlSurface, sx: Double, sy: Double)) {
        target = hit.surface
        let serial = compositor.display.nextSerial()
        for device in devices(of: hit.surface.client) {
            let offer = device.introduce(self) as? WlDataOffer
            if let offer {
                offer.drag = self
                offer.isDragOffer = true
                offer.sendSourceActions(actions)
                offers.append(Weak(offer))
            }
            device.enter(serial: serial, surface: hit.surface, x: hit.sx, y: hit.sy, offer: offer)
            if let offer { offerChanged(offer) }
        }
    }

    private func leaveTarget() {
        guard let old = target else { return }
        for device in devices(of: old.client) { device.leave() }
        target = nil
        for offer in offers { offer.value?.drag = nil }
        offers = []
    }

    /// XdndStatus: whether a drop here would be taken, and with which action.
    private func sendStatus() {
        let accepts = offer?.acceptsDrop == true
        let action = accepts ? dnd.atoms.atom(for: offer?.action ?? .copy) : 0
        // Bit 1: positions are wanted everywhere (no rectangle where the answer holds).
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.status, (dnd.proxy, (accepts ? 1 : 0) | 2, 0, 0, action))
        dnd.wm.connection.flush()
    }

    /// XdndFinished, and the drag is over.
    private func finish(success: Bool) {
        let action = success ? dnd.atoms.atom(for: offer?.action ?? .copy) : 0
        dnd.wm.connection.sendClientMessage(to: owner, type: dnd.atoms.finished, (dnd.proxy, success ? 1 : 0, action, 0, 0))
        dnd.wm.connection.flush()
        if dnd.xSource === self { dnd.xSource = nil }
    }
}
