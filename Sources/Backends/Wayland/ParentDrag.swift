import CWaylandClient
import Compositor
import Logging
import WaylandClient

/// Drags from the parent session into Lodestone's window. The parent's `wl_data_device`
/// says enter (with an offer), motion, leave and drop over our window; each becomes the
/// same over the surface under it inside (`ExternalDrag`), with the parent's offer as the
/// drag's source, as `ParentSelection` makes the parent's clipboard a source inside. What
/// the client there answers (the MIME type it takes, its actions) is our answer to the
/// parent (`accept`, `set_actions`), so the parent's source hears the client's choice; a
/// drop's data is the parent offer's `receive` into the client's own pipe, and the
/// client's `finish` is ours.
final class ParentDrag {
    private unowned let compositor: Compositor
    private unowned let clipboard: ParentSelection<ParentClipboard>
    private let window: Proxy
    private let log: Logger
    /// The parent's drag over our window: its offer, the enter serial, and its drag inside.
    private var offer: ParentSelection<ParentClipboard>.ParentOffer?
    private var serial: UInt32 = 0
    private var drag: ExternalDrag?
    /// The drag entered our window's own surface (not our title bar): its coordinates are ours.
    private var onOutput = false
    private var dropped = false

    init(compositor: Compositor, clipboard: ParentSelection<ParentClipboard>, window: Proxy, logger: Logger) {
        self.compositor = compositor
        self.clipboard = clipboard
        self.window = window
        log = logger
        clipboard.dragEvent = { [unowned self] opcode, a in self.event(opcode, a) }
    }

    /// The compositor may be gone already: only the parent's offer is let go.
    deinit { offer?.destroy() }

    private func event(_ opcode: UInt32, _ a: EventArguments) {
        switch opcode {
        case 1:  // enter(serial, surface, x, y, offer)
            end()
            serial = a.uint(0)
            onOutput = window.isObject(a.object(1))
            guard let offer = clipboard.takeOffer(a.object(4)) else { return }
            self.offer = offer
            log.debug("a drag from the parent is over the window: \(offer.mimeTypes.joined(separator: ", "))")
            let drag = ExternalDrag(compositor: compositor, source: offer, sourceActions: offer.sourceActions,
                                    answered: { [unowned self] in self.answer($0) }, finished: { [unowned self] in self.finished($0) })
            offer.sourceActionsChanged = { [unowned drag] in drag.sourceActionsChanged($0) }
            self.drag = drag
            moved(a.fixed(2), a.fixed(3), time: 0)
        case 2:  // leave: after a drop the client inside may still be reading
            if !dropped { end() }
        case 3: moved(a.fixed(1), a.fixed(2), time: a.uint(0))  // motion(time, x, y)
        case 4:  // drop
            guard let drag, !dropped else { return }
            dropped = true
            drag.drop()
        default: break
        }
    }

    /// Window-local coordinates are Lodestone's global logical ones.
    private func moved(_ x: Double, _ y: Double, time: UInt32) {
        drag?.moved(x: onOutput ? x : nil, y: onOutput ? y : nil, time: time)
    }

    /// The client under the drag answered: the parent hears the same.
    private func answer(_ answer: ExternalDrag.Answer) {
        guard let offer else { return }
        offer.proxy.request { wl_data_offer_accept($0, serial, answer.mime) }
        if offer.proxy.version >= 3 {
            offer.proxy.request { wl_data_offer_set_actions($0, answer.actions, answer.preferred) }
        }
        offer.proxy.connection.flush()
    }

    /// The drop is over: `finish` if the client inside finished, and the offer goes.
    private func finished(_ success: Bool) {
        if success, let offer, offer.proxy.version >= 3 { offer.proxy.request { wl_data_offer_finish($0) } }
        log.debug("the parent's drag dropped inside: \(success ? "taken" : "not taken")")
        end()
    }

    private func end() {
        drag?.leave()
        drag = nil
        offer?.destroy()
        offer?.proxy.connection.flush()
        offer = nil
        dropped = false
    }
}
