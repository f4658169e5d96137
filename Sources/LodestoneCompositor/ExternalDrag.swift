import WaylandServer

/// A drag from outside Lodestone over its surfaces: the nested backend's parent session
/// dragging over Lodestone's window (`ParentDrag`). The outside says where the drag is,
/// leave or drop; the surface there hears it on its data devices as a drag from a client
/// would be heard (enter with an offer of the outside's MIME types, motion, leave or
/// drop), and each answer of that surface (the MIME type it accepts, its actions) goes
/// back outside through `answered`, so the outside's source hears the target's choice.
/// The drop's data comes from `source` (a paste's pipe handed on); the target's
/// `finish` ends it (`finished(true)`). The seat's pointer is left alone: the outside
/// draws its own pointer and icon during its drag.
public final class ExternalDrag: DragSession {
    /// What the target under the drag says: the MIME type it takes (nil: none), the
    /// actions it supports and prefers (`wl_data_device_manager.dnd_action` bits).
    public struct Answer: Equatable, Sendable {
        public let mime: String?
        public let actions: UInt32
        public let preferred: UInt32
        static let refused = Answer(mime: nil, actions: 0, preferred: 0)
    }

    private unowned let compositor: Compositor
    private let source: SelectionSource
    /// What the outside's source can do (`wl_data_offer.source_actions` there).
    private var sourceActions: DragActions
    private let answered: (Answer) -> Void
    private let finished: (Bool) -> Void
    private weak var target: WlSurface?
    private var offers: [Weak<WlDataOffer>] = []
    private var lastAnswer: Answer?
    private var dropped = false

    public init(compositor: Compositor, source: SelectionSource, sourceActions: UInt32,
                answered: @escaping (Answer) -> Void, finished: @escaping (Bool) -> Void) {
        self.compositor = compositor
        self.source = source
        self.sourceActions = DragActions(rawValue: sourceActions).intersection(.all)
        self.answered = answered
        self.finished = finished
    }

    private var offer: WlDataOffer? { offers.lazy.compactMap(\.value).first }

    private func devices(of client: Client) -> [WlDataDevice] {
        compositor.selection.devices(of: client).compactMap { $0 as? WlDataDevice }
    }

    // MARK: What the outside says

    /// The drag is at (x, y), Lodestone's global logical coordinates (nil: over none of
    /// Lodestone's surfaces, such as the nested window's own title bar).
    public func moved(x: Double?, y: Double?, time: UInt32) {
        guard !dropped else { return }
        let hit = x.flatMap { x in y.flatMap { compositor.scene.surfaceAt(x: x, y: $0) } }
        if hit?.surface !== target {
            leaveTarget()
            if let hit { enter(hit) }
        } else if let target, let hit {
            for device in devices(of: target.client) { device.motion(time: time, x: hit.sx, y: hit.sy) }
        }
        answer()
    }

    /// The outside's source changed what it can do.
    public func sourceActionsChanged(_ actions: UInt32) {
        sourceActions = DragActions(rawValue: actions).intersection(.all)
        for offer in offers.compactMap(\.value) {
            offer.sendSourceActions(sourceActions)
            offerChanged(offer)
        }
    }

    /// The drag left Lodestone's window (or was cancelled outside).
    public func leave() {
        guard !dropped else { return }
        leaveTarget()
    }

    /// The drop: the target hears it if it takes it, and reads the data; `finished`
    /// follows its `finish`. Otherwise it hears leave and `finished(false)` comes at once.
    public func drop() {
        guard !dropped else { return }
        dropped = true
        guard let target, let offer, offer.acceptsDrop else {
            leaveTarget()
            return finished(false)
        }
        for device in devices(of: target.client) { device.drop() }
        offer.dropped = true
        self.target = nil
    }

    // MARK: DragSession

    func offerChanged(_ offer: WlDataOffer) {
        guard offer.drag === self, !dropped else { return }
        offer.sendAction(offer.negotiate(withSourceActions: sourceActions))
        answer()
    }

    func offerFinished(_ offer: WlDataOffer) {
        guard dropped, offer === self.offer else { return }
        finished(true)
    }

    /// The target chose an action for `ask` after the drop: the outside's source hears it.
    func offerAnsweredAsk(_ offer: WlDataOffer) {
        guard dropped, offer === self.offer else { return }
        answer()
    }

    /// The target went away (or let its offer go) after the drop without finishing.
    func offerAbandoned(_ offer: WlDataOffer) {
        guard dropped, offers.contains(where: { $0.value === offer }) else { return }
        finished(false)
    }

    // MARK: The target

    private func enter(_ hit: (surface: WlSurface, sx: Double, sy: Double)) {
        target = hit.surface
        let serial = compositor.display.nextSerial()
        for device in devices(of: hit.surface.client) {
            let offer = device.introduce(source) as? WlDataOffer
            if let offer {
                offer.drag = self
                offer.isDragOffer = true
                offer.sendSourceActions(sourceActions)
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
        answer()
    }

    /// The target's current answer goes outside when it changed.
    private func answer() {
        let now = offer.map { Answer(mime: $0.accepted, actions: $0.actions.rawValue, preferred: $0.preferred.rawValue) } ?? .refused
        guard now != lastAnswer else { return }
        lastAnswer = now
        answered(now)
    }
}
