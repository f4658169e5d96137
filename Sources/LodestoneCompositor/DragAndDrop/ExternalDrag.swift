import PointerAdaptation
import WaylandServer

/// A drag whose source is not a Wayland client of Lodestone, over Lodestone's surfaces:
/// the nested backend's parent session dragging over Lodestone's window (`ParentDrag`), or
/// an X app's drag over Wayland windows (`XDragSource`). The outside says where the drag
/// is, leave or drop; the surface there hears it on its data devices as a drag from a
/// client would be heard (enter with an offer of the outside's MIME types, motion, leave or
/// drop), and each answer of that surface (the MIME type it accepts, its actions) goes
/// back outside through `answered`, so the outside's source hears the target's choice.
/// The drop's data comes from `source` (a paste's pipe handed on); the target's
/// `finish` ends it (`finished(true)`).
///
/// The parent's drag also reaches X windows inside: over an XdndAware one, Lodestone speaks
/// XDND to it (`XDragTarget`), as for a Wayland client's drag. And while the parent's drag
/// is over the window it holds Lodestone's pointer (`ExternalDragGrab`): the adaptive
/// pointer follows it and says what a drop would do, as in a drag inside, while clients
/// hear no pointer events.
public final class ExternalDrag: DragSession, XDragTargetSource {
    /// What the target under the drag says: the MIME type it takes (nil: none), the
    /// actions it supports and prefers (`wl_data_device_manager.dnd_action` bits).
    public struct Answer: Equatable, Sendable {
        public let mime: String?
        public let actions: UInt32
        public let preferred: UInt32
        static let refused = Answer(mime: nil, actions: 0, preferred: 0)
    }

    /// What a drag from outside needs of the core.
    typealias Host = ExternalDragHost

    private unowned let host: any Host
    let source: SelectionSource
    /// What the outside's source can do (`wl_data_offer.source_actions` there).
    private var sourceActions: DragActions
    /// The surface at a global point, in its coordinates, or nil.
    private let surfaceAt: (Double, Double) -> (surface: WlSurface, sx: Double, sy: Double)?
    /// XDND wants an answer to every position; the parent only to changes.
    private let answersEveryMove: Bool
    private let answered: (Answer) -> Void
    private let finished: (Bool) -> Void
    private weak var target: WlSurface?
    private var offers: [Weak<WlDataOffer>] = []
    /// The target when it is an X window inside, spoken to through XDND.
    private var xTarget: XDragTarget?
    private var lastAnswer: Answer?
    private var dropped = false
    /// The pointer held while the drag is over the window (the parent's drag only).
    private var grab: ExternalDragGrab?

    /// The parent's drag over Lodestone's window.
    public convenience init(compositor: Compositor, source: SelectionSource, sourceActions: UInt32,
                            answered: @escaping (Answer) -> Void, finished: @escaping (Bool) -> Void) {
        self.init(host: compositor, source: source, sourceActions: sourceActions, surfaceAt: { [unowned compositor] in compositor.scene.surfaceAt(x: $0, y: $1) },
                  answersEveryMove: false, answered: answered, finished: finished)
        grab = ExternalDragGrab(drag: self, seat: compositor.seat)
    }

    init(host: any Host, source: SelectionSource, sourceActions: UInt32,
         surfaceAt: @escaping (Double, Double) -> (surface: WlSurface, sx: Double, sy: Double)?,
         answersEveryMove: Bool, answered: @escaping (Answer) -> Void, finished: @escaping (Bool) -> Void) {
        self.host = host
        self.source = source
        self.sourceActions = DragActions(rawValue: sourceActions).intersection(.all)
        self.surfaceAt = surfaceAt
        self.answersEveryMove = answersEveryMove
        self.answered = answered
        self.finished = finished
    }

    /// A drag let go without a word (its outside went away) leaves no grab behind.
    deinit { grab?.release() }

    private var offer: WlDataOffer? { offers.lazy.compactMap(\.value).first }

    /// Dropped: what the outside says now changes nothing.
    var isDropped: Bool { dropped }

    /// Whether a drop where the drag is now would be taken, and with which action.
    var acceptsDrop: Bool { xTarget.map(\.accepts) ?? (offer?.acceptsDrop == true) }
    var action: DragActions { xTarget?.action ?? offer?.action ?? .none }

    // MARK: What the outside says

    /// The drag is at (x, y), Lodestone's global logical coordinates (nil: over none of
    /// Lodestone's surfaces, such as the nested window's own title bar).
    public func moved(x: Double?, y: Double?, time: UInt32) {
        guard !dropped else { return }
        if let x, let y { grab?.moved(x: x, y: y) } else { grab?.release() }
        let hit = x.flatMap { x in y.flatMap { surfaceAt(x, $0) } }
        if hit?.surface !== target {
            leaveTarget()
            if let hit { enter(hit) }
        } else if let xTarget, let x, let y {
            xTarget.moved(x: x, y: y)
        } else if let target, let hit {
            for device in devices(of: target.client) { device.motion(time: time, x: hit.sx, y: hit.sy) }
        }
        answer(always: answersEveryMove)
    }

    /// The outside's source changed what it can do.
    public func sourceActionsChanged(_ actions: UInt32) {
        let new = DragActions(rawValue: actions).intersection(.all)
        guard new != sourceActions else { return }
        sourceActions = new
        for offer in offers.compactMap(\.value) {
            offer.sendSourceActions(sourceActions)
            offerChanged(offer)
        }
    }

    /// The drag left Lodestone's window (or was cancelled outside).
    public func leave() {
        guard !dropped else { return }
        leaveTarget()
        grab?.release()
    }

    /// The drop: the target hears it if it takes it, and reads the data; `finished`
    /// follows its `finish`. Otherwise it hears leave and `finished(false)` comes at once.
    public func drop() {
        guard !dropped else { return }
        dropped = true
        grab?.release()
        if let xTarget, xTarget.accepts {
            // The X window reads the data through XdndSelection and says XdndFinished.
            return xTarget.drop()
        }
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
        answer(always: answersEveryMove)
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

    // MARK: XDragTargetSource (an X window inside answers)

    var xdndData: SelectionSource { source }
    var supportedActions: DragActions { sourceActions }
    func xStatus(accepts: Bool, action: DragActions) { answer(always: answersEveryMove) }
    func xDropPerformed() {}
    func xFinished(succeeded: Bool) { finished(succeeded) }

    // MARK: The target

    private func devices(of client: Client) -> [WlDataDevice] { host.dataDevices(of: client) }

    private func enter(_ hit: (surface: WlSurface, sx: Double, sy: Double)) {
        target = hit.surface
        if let grab, let x = host.xwm?.dnd?.dragEntered(hit.surface, source: self, statusChanged: { [weak grab] in grab?.cursorChanged() }) {
            return xTarget = x
        }
        let serial = host.nextSerial()
        for device in devices(of: hit.surface.client) {
            if let offer = device.dragEntered(hit, serial: serial, source: (source, sourceActions), drag: self) {
                offers.append(Weak(offer))
                offerChanged(offer)
            }
        }
    }

    private func leaveTarget() {
        guard let old = target else { return }
        xTarget?.leave()
        xTarget = nil
        for device in devices(of: old.client) { device.leave() }
        target = nil
        for offer in offers { offer.value?.drag = nil }
        offers = []
        grab?.cursorChanged()
    }

    /// The target's current answer goes outside when it changed (or `always`).
    private func answer(always: Bool = false) {
        let now: Answer
        if let xTarget {
            let action = xTarget.action.rawValue
            now = xTarget.accepts ? Answer(mime: source.mimeTypes.first, actions: action, preferred: action) : .refused
        } else {
            now = offer.map { Answer(mime: $0.accepted, actions: $0.actions.rawValue, preferred: $0.preferred.rawValue) } ?? .refused
        }
        grab?.cursorChanged()
        guard always || now != lastAnswer else { return }
        lastAnswer = now
        answered(now)
    }

    /// What the pointer says of a drop here now, as in a drag inside (`DragGrab.cursorName`).
    var cursorName: CursorName? {
        guard xTarget != nil || target != nil else { return nil }
        return DragGrab.cursorName(xTarget: xTarget, offer: offer)
    }
}

/// What a drag from outside needs of the core: a client's data devices, serials, and the X
/// window manager (for X windows under the drag).
protocol ExternalDragHost: AnyObject {
    func dataDevices(of client: Client) -> [WlDataDevice]
    func nextSerial() -> UInt32
    var xwm: XWM? { get }
}

extension Compositor: ExternalDragHost {}
