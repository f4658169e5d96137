// Over 300 lines: the drag from press (or touch) to drop, its icon, and its hand-off to the outside (`OutgoingDrag`) share the drag's private target, offers and icon offset.
import PointerAdaptation
import Rendering
import WaylandServer

/// `wl_data_device.start_drag`: a drag and drop, from the press that started it to the
/// release that drops. Clients hear no pointer events meanwhile; the surface under the
/// pointer hears the drag on its client's data devices instead (enter with an offer of the
/// source's MIME types, motion, leave or drop), and each side is told the action the two
/// agree on (`WlDataOffer.negotiate`). The icon the client gave is drawn at the pointer,
/// beneath the adaptive pointer, so the circle stays visible over it. Keys go to no one;
/// Escape cancels. Follows weston's `data-device.c` and wlroots' `types/data_device/`.
///
/// A drag started with a touch down's serial follows that finger instead (`Follows.touch`):
/// the `Touchscreen` hands it the finger's motion and lift, and the pointer stays the seat's.
final class DragGrab: PointerGrab, DragSession {
    unowned let seat: Seat
    /// What moves the drag: the pointer (the drag is the seat's grab), or one touch point.
    enum Follows: Equatable { case pointer, touch(id: Int32) }
    let follows: Follows
    /// Where the finger of a touch drag is, global.
    private var touchPoint: (x: Double, y: Double)
    /// The client that started the drag.
    let client: Client
    /// What is dragged (nil: a drag within its client that carries no data, or the source
    /// went away, which ends the drag).
    private(set) weak var source: WlDataSource?
    private let carriesData: Bool
    /// The surface the drag started from: a drag without data ends with it.
    private weak var origin: WlSurface?
    private(set) weak var icon: WlSurface?
    /// Held here: a surface keeps its role only weakly.
    private let iconRole: DragIconRole?
    /// The icon's top-left relative to the pointer: it starts there, and the client moves it
    /// with attach offsets or `wl_surface.offset` (so a hotspot inside the icon is negative).
    private var iconOffset: (x: Int32, y: Int32) = (0, 0)
    private var iconDamaged: PixelRect?
    /// The surface hearing the drag, and the offers its devices got at enter.
    private weak var target: WlSurface?
    private var offers: [Weak<WlDataOffer>] = []
    /// The target when it is an X window, spoken to through XDND (`XDragTarget`).
    private var xTarget: XDragTarget?

    init(seat: Seat, client: Client, origin: WlSurface, source: WlDataSource?, icon: (surface: WlSurface, role: DragIconRole)?,
         follows: Follows = .pointer, at point: (x: Double, y: Double) = (0, 0)) {
        self.seat = seat
        self.follows = follows
        touchPoint = point
        self.client = client
        self.origin = origin
        self.source = source
        carriesData = source != nil
        self.icon = icon?.surface
        iconRole = icon?.role
        iconRole?.drag = self
        source?.drag = self
    }

    /// Where the drag is, global logical (nil: the pointer is off every output).
    private var point: (x: Double, y: Double)? {
        switch follows {
        case .pointer: seat.pointerOutside ? nil : (seat.position.logical.x, seat.position.logical.y)
        case .touch: touchPoint
        }
    }

    // MARK: PointerGrab

    var routesToClients: Bool { false }
    func mayFocus(_ surface: WlSurface) -> Bool { false }

    func motion(device: (x: Double, y: Double), logical: (x: Double, y: Double), time: UInt32) -> GrabResponse {
        answering { moved(time: time) }
    }

    /// While the seat asks (a motion, the release, a key), what the drag has to tell it is
    /// gathered here and returned: the seat is on the stack then. Otherwise (a client's
    /// request, the source going, a touch) nothing of the seat's is, and it is told at once.
    private var answer: GrabResponse?

    private func answering(_ body: () -> Void) -> GrabResponse {
        answer = .taken
        body()
        defer { answer = nil }
        return answer ?? .taken
    }

    private func tellSeat(_ response: GrabResponse) {
        if answer != nil { answer?.formUnion(response) } else { seat.apply(response) }
    }

    /// The drag moved: the surface there hears it.
    private func moved(time: UInt32) {
        damageIcon()
        retarget()
        guard let point else { return }
        if let xTarget { return xTarget.moved(x: point.x, y: point.y) }
        guard let target, let (ox, oy) = seat.scene.origin(of: target) else { return }
        for device in devices(of: target.client) { device.motion(time: time, x: point.x - Double(ox), y: point.y - Double(oy)) }
    }

    // MARK: Touch

    /// The finger of a touch drag moved to global (x, y).
    func touchMoved(x: Double, y: Double, time: UInt32) {
        touchPoint = (x, y)
        moved(time: time)
    }

    /// The finger of a touch drag lifted: the drop, if the target takes it.
    func touchReleased() { drop() }

    func pressStarted(focus: WlSurface?) -> GrabResponse { .taken }
    func button(_ button: UInt32, pressed: Bool, time: UInt32) -> GrabResponse { .taken }
    func axis(_ axis: PointerAxis, time: UInt32) -> GrabResponse { .taken }
    /// The last button came up: the drop, if the target takes it.
    func released(at logical: (x: Double, y: Double)) -> GrabResponse { answering { drop() } }

    func surfaceDestroyed(_ surface: WlSurface) -> Bool {
        if surface === icon { damageIcon(); icon = nil; damageIcon() }
        if surface === target {
            // Its client can hear nothing more of this drag; the source hears nothing accepts.
            target = nil
            offers = []
            xTarget = nil
            nothingAccepts()
        }
        // A drag without data belongs to its client alone: it ends when the client's
        // surface goes (with data, the source's end ends it).
        if surface === origin, !carriesData { cancel() }
        return false
    }

    // MARK: Keys

    /// A key during the drag: none reaches a client, so the keyboard focus stays where it
    /// was; Escape cancels.
    func key(_ code: UInt32, pressed: Bool) -> GrabResponse {
        answering { if pressed, code == Self.escape { cancel() } }
    }

    static let escape: UInt32 = 1

    // MARK: The target

    private func devices(of client: Client) -> [WlDataDevice] {
        seat.selection.devices(of: client).compactMap { $0 as? WlDataDevice }
    }

    /// The drag's current offer to the target, if it has one.
    private var offer: WlDataOffer? { offers.lazy.compactMap(\.value).first }

    /// The surface under the pointer hears the drag; a drag without data only reaches its
    /// own client's surfaces.
    private func retarget() {
        var hit = point.flatMap { seat.scene.surfaceAt(x: $0.x, y: $0.y) }
        if let h = hit, !carriesData, h.surface.client != client { hit = nil }
        guard hit?.surface !== target else { return }
        leaveTarget()
        guard let hit else { return }
        target = hit.surface
        if let source, let x = seat.xwm?.dnd?.dragEntered(hit.surface, source: source, statusChanged: { [weak self] in self?.tellSeat(.cursorChanged) }) {
            return xTarget = x
        }
        let serial = seat.display.nextSerial()
        for device in devices(of: hit.surface.client) {
            let offer = device.dragEntered(hit, serial: serial, source: source.map { ($0, $0.supportedActions) }, drag: self)
            if let offer {
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
        nothingAccepts()
    }

    /// No target takes the drop now: the source hears so (if it had heard otherwise).
    private func nothingAccepts() {
        guard let source else { return }
        if source.action != .none || source.accepted { source.target(nil) }
        source.sendAction(.none)
        tellSeat(.cursorChanged)
    }

    /// The target accepted a MIME type or changed its actions: both sides hear the action
    /// they now agree on.
    func offerChanged(_ offer: WlDataOffer) {
        guard let source, offer.drag === self else { return }
        let action = offer.negotiate(with: source)
        offer.sendAction(action)
        source.sendAction(action)
        source.accepted = offer.accepted != nil
        tellSeat(.cursorChanged)
    }

    /// After the drop the offer no longer names the drag: the source heard `finish` itself.
    func offerFinished(_ offer: WlDataOffer) {}

    /// What the pointer says of a drop here now, as iPadOS does: a plus for a copy, arrows
    /// for a move, both for ask, circle.slash where the target refuses; nil (the circle)
    /// over nothing, for a drag without data, or before the target has answered.
    var cursorName: CursorName? {
        guard xTarget != nil || target != nil && carriesData && source != nil else { return nil }
        return Self.cursorName(xTarget: xTarget, offer: offer)
    }

    /// What the pointer says of a drop on an X window or on a target's offer (shared with
    /// `ExternalDrag`): nil before the target has answered.
    static func cursorName(xTarget: XDragTarget?, offer: WlDataOffer?) -> CursorName? {
        if let xTarget { return !xTarget.answered ? nil : xTarget.accepts ? (xTarget.action == .move ? .move : .copy) : .noDrop }
        guard let offer, offer.answered else { return nil }
        guard offer.acceptsDrop else { return .noDrop }
        switch offer.has(3) ? offer.action : .copy {
        case .move: return .move
        case .ask: return .dndAsk
        default: return .copy
        }
    }

    // MARK: Ending

    private func drop() {
        if let xTarget, xTarget.accepts {
            // The X window reads the data through XdndSelection and says XdndFinished.
            xTarget.drop()
            self.xTarget = nil
            target = nil
            return end()
        }
        if let target, carriesData ? offer?.acceptsDrop == true : true {
            for device in devices(of: target.client) { device.drop() }
            if let source, let offer {
                offer.dropped = true
                offer.drag = nil
                source.droppedOn = offer
                source.dropPerformed()
            }
            // The target keeps its offer to read the data and finish: no leave.
            self.target = nil
            offers = []
        } else {
            leaveTarget()
            source?.cancelled()
        }
        end()
    }

    /// Escape: the target hears leave, the source cancelled.
    func cancel() {
        leaveTarget()
        source?.cancelled()
        end()
    }

    /// The drag leaves Lodestone and carries on outside (the nested backend's parent,
    /// `OutgoingDrag`): the target hears leave, and the grab ends without a word to the
    /// source, which now hears the outside's target, drop and end. Nil for a drag without data.
    func handOff() -> WlDataSource? {
        guard carriesData, let source else { return nil }
        leaveTarget()
        end()
        // The source still names this (ended) drag, so its going away is heard outside.
        source.drag = self
        return source
    }

    /// Once handed off: the source went away, and the outside's drag must end too.
    var sourceGoneOutside: (() -> Void)?

    /// The source went away mid-drag: the target hears leave, and the drag ends.
    func sourceDestroyed() {
        source = nil
        leaveTarget()
        end()
        sourceGoneOutside?()
    }

    private func end() {
        switch follows {
        case .pointer: guard seat.grab === self else { return }
        case .touch: guard seat.touchscreen?.drag?.grab === self else { return }
        }
        source?.drag = nil
        iconRole?.drag = nil
        damageIcon()
        icon = nil
        damageIcon()
        if case .touch = follows {
            seat.touchscreen?.dragEnded(self)
            return
        }
        tellSeat([.end, .refocus, .cursorChanged])
    }

    // MARK: The icon

    /// The icon surface and its top-left in global coordinates, while it shows.
    var iconPlacement: (surface: WlSurface, x: Int32, y: Int32)? {
        guard let icon, icon.hasContent, let point else { return nil }
        let px = Int32(clamping: Int(point.x.rounded(.down))), py = Int32(clamping: Int(point.y.rounded(.down)))
        return (icon, px.clampedAdding(iconOffset.x), py.clampedAdding(iconOffset.y))
    }

    /// The icon's pixels as they show now, for a drag that carries on outside.
    var iconSnapshot: OutgoingDrag.Icon? {
        guard let icon, icon.hasContent, let texture = icon.texture, texture.width > 0, texture.height > 0,
              Int(texture.width) * Int(texture.height) <= 512 * 512 else { return nil }
        let opaque = texture.format == .xrgb8888
        let pixels: [UInt32] = texture.reading {
            texture.withPixels { data in
                let row = Int(texture.stride / 4)
                return (0..<Int(texture.height)).flatMap { y in
                    (0..<Int(texture.width)).map { x in opaque ? data[y * row + x] | 0xff00_0000 : data[y * row + x] }
                }
            }
        }
        return OutgoingDrag.Icon(pixels: pixels, width: texture.width, height: texture.height, scale: max(1, icon.scale),
                                 x: iconOffset.x, y: iconOffset.y)
    }

    /// The client moved the icon relative to the pointer (attach offset, `wl_surface.offset`).
    func iconMoved(dx: Int32, dy: Int32) {
        iconOffset = (iconOffset.x.clampedAdding(dx), iconOffset.y.clampedAdding(dy))
        damageIcon()
    }

    func iconCommitted() { damageIcon() }

    /// Repaints where the icon was and where it is.
    private func damageIcon() {
        if let last = iconDamaged { seat.output.damage(logical: last) }
        iconDamaged = iconPlacement.map { PixelRect(x: $0.x, y: $0.y, width: $0.surface.width, height: $0.surface.height) }
        if let now = iconDamaged { seat.output.damage(logical: now) }
        seat.clock.schedule()
    }
}
