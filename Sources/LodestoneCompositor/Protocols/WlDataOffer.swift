import CWaylandServer
import WaylandServer

/// `wl_data_offer`: one client's view of another client's source, for a paste or a drop.
final class WlDataOffer: SelectionOfferObject<DataDeviceProtocol>, WlDataOfferHandler {
    /// The drag this offer was made for at enter (nil: a selection's offer, or the drag moved on).
    weak var drag: DragSession?
    /// Made for a drag (even after the drag moved on): finish and set_actions are allowed.
    var isDragOffer = false
    /// The MIME type the target said it would take (`accept`), if any.
    private(set) var accepted: String?
    /// The target sent `accept` at least once (until then it has not refused either).
    private(set) var answered = false
    /// What the target supports and prefers (`set_actions`); a version 1 or 2 target copies.
    private(set) var actions: DragActions = .copy, preferred: DragActions = .copy
    /// The negotiated action last sent (`action`).
    private(set) var action: DragActions = .none
    /// Dropped on; `finish` not yet sent.
    var dropped = false
    private var finished = false

    init?(source: SelectionSource, device: SelectionDeviceObject<DataDeviceProtocol>) {
        super.init(source: source, device: device, interface: Self.interface)
        if has(3) { (actions, preferred) = (.none, .none) }
    }

    private var dataSource: WlDataSource? { source as? WlDataSource }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .accept:
            // Only the drag's current offer speaks for the target.
            guard let drag, !dropped else { return }
            accepted = a.string(1)
            answered = true
            dataSource?.target(accepted)
            drag.offerChanged(self)
        case .receive: receive(mime: a.string(0), fd: a.fd(1))
        case .destroy: destroy()
        case .finish:
            guard isDragOffer else { return postError(WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "finish on an offer that is not a drag's") }
            guard dropped, !finished, accepted != nil, action != .none else {
                return postError(WL_DATA_OFFER_ERROR_INVALID_FINISH.rawValue, "finish before a drop with an accepted MIME type and an action")
            }
            finished = true
            dataSource?.finished()
            drag?.offerFinished(self)
        case .setActions:
            guard isDragOffer else { return postError(WL_DATA_OFFER_ERROR_INVALID_OFFER.rawValue, "set_actions on an offer that is not a drag's") }
            let all = DragActions(rawValue: a.uint(0)), preferred = DragActions(rawValue: a.uint(1))
            guard DragActions.all.isSuperset(of: all) else {
                return postError(WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK.rawValue, "set_actions with unknown actions 0x\(String(all.rawValue, radix: 16))")
            }
            guard [DragActions.none, .copy, .move, .ask].contains(preferred) else {
                return postError(WL_DATA_OFFER_ERROR_INVALID_ACTION.rawValue, "preferred action 0x\(String(preferred.rawValue, radix: 16)) is not one action")
            }
            guard !dropped else {
                // After the drop only the answer to `ask` may change the action: the source
                // hears it, a client's directly, another's (a parent's offer) through the drag.
                guard action == .ask, [DragActions.copy, .move].contains(preferred) else { return }
                (actions, self.preferred) = (all, preferred)
                sendAction(preferred)
                dataSource?.sendAction(preferred)
                drag?.offerAnsweredAsk(self)
                return
            }
            (actions, self.preferred) = (all, preferred)
            drag?.offerChanged(self)
        }
    }

    /// The action both sides can do, the target's preferred one first, then copy, move,
    /// ask (as weston and wlroots choose).
    func negotiate(with source: WlDataSource) -> DragActions { negotiate(withSourceActions: source.supportedActions) }

    func negotiate(withSourceActions supported: DragActions) -> DragActions {
        let both = actions.intersection(supported)
        if !preferred.isEmpty, both.contains(preferred) { return preferred }
        return [DragActions.copy, .move, .ask].first { both.contains($0) } ?? .none
    }

    // MARK: Events (the drag's)

    func sendSourceActions(_ actions: DragActions) { if has(3) { send { wl_data_offer_send_source_actions($0, actions.rawValue) } } }
    func sendAction(_ new: DragActions) {
        guard new != action else { return }
        action = new
        if has(3) { send { wl_data_offer_send_action($0, new.rawValue) } }
    }

    /// Whether a drop here can go ahead: a MIME type accepted and, from a target that
    /// negotiates, an action agreed.
    var acceptsDrop: Bool { accepted != nil && (!has(3) || action != .none) }

    override func destroyed() {
        // A target that goes away after the drop without finishing: a version 3 target
        // gave up (the source is told it was cancelled); an older one cannot say finish,
        // so its going away is the end of the drop.
        guard dropped, !finished else { return }
        // A drag from outside (`ExternalDrag`) hears it itself.
        drag?.offerAbandoned(self)
        guard let source = dataSource, source.droppedOn === self else { return }
        if has(3) { source.cancelled() } else { source.finished() }
    }
}
