/// A drag started inside Lodestone that carries on outside it: the nested backend's parent
/// takes it over when the pointer leaves the window with the button held (`ParentDrag`).
/// The drag's source inside stays its source: a Wayland client's `wl_data_source`, or an X
/// app's drag (`XDragSource`). The outside asks it for data (`send`) and tells it what its
/// own targets say (`target`, `action`, the drop and its end).
public final class OutgoingDrag {
    private weak var source: (any OutgoingDragSource)?
    /// What must live as long as the drag outside: the Wayland drag as it was inside, so the
    /// source's end still reaches it.
    private let kept: AnyObject?
    public let mimeTypes: [String]
    /// The source's actions (`wl_data_device_manager.dnd_action` bits).
    public let actions: UInt32
    /// The source inside went away (or its X app gave the drag up): the drag outside must end.
    public var sourceGone: (() -> Void)?
    /// The drag's icon as it showed when the drag left, for the outside to show.
    public let icon: Icon?

    /// An icon's pixels (0xAARRGGBB premultiplied, row by row, `width` × `height` buffer
    /// pixels at `scale`) and its top-left relative to the pointer, in logical points.
    public struct Icon: Sendable {
        public let pixels: [UInt32]
        public let width: Int32, height: Int32, scale: Int32
        public let x: Int32, y: Int32
    }

    init(source: any OutgoingDragSource, icon: Icon?, keeping kept: AnyObject? = nil) {
        self.source = source
        self.kept = kept
        self.icon = icon
        mimeTypes = source.mimeTypes
        actions = source.supportedActions.rawValue
    }

    /// Told by the source's side when it is gone.
    func sourceWentAway() { sourceGone?() }

    /// A target outside reads the data as `mime` from `fd` (the caller closes its copy).
    /// A source that has gone away writes nothing: the reader sees end of file.
    public func send(mime: String, fd: Int32) {
        guard let source, source.mimeTypes.contains(mime) else { return }
        source.send(mime: mime, fd: fd)
    }

    /// The target outside accepts `mime` (nil: nothing).
    public func target(_ mime: String?) { source?.targetOutside(mime) }

    /// The action agreed outside (one `dnd_action` bit, or none).
    public func action(_ action: UInt32) {
        let agreed = DragActions(rawValue: action)
        guard [DragActions.none, .copy, .move, .ask].contains(agreed) else { return }
        source?.sendAction(agreed)
    }

    public func dropPerformed() { source?.dropPerformed() }
    public func finished() { source?.finished() }
    public func cancelled() { source?.cancelled() }
}

/// What a drag carried outside asks of its source inside, in `wl_data_source`'s terms.
protocol OutgoingDragSource: SelectionSource {
    var supportedActions: DragActions { get }
    /// The target outside accepts `mime` (nil: nothing).
    func targetOutside(_ mime: String?)
    func sendAction(_ action: DragActions)
    func dropPerformed()
    func finished()
}

extension WlDataSource: OutgoingDragSource {
    func targetOutside(_ mime: String?) {
        target(mime)
        accepted = mime != nil
    }
}

extension Seat {
    /// The drag in progress leaves Lodestone for the outside (see `OutgoingDrag`): a
    /// Wayland client's, or an X app's over Lodestone's own windows and desktop
    /// (`XDragSource.handOff`). Nil when no drag with data is in progress.
    public func handOffDrag() -> OutgoingDrag? {
        if let drag = grab as? DragGrab {
            let icon = drag.iconSnapshot
            guard let source = drag.handOff() else { return nil }
            log.debug("a drag leaves Lodestone: \(source.mimeTypes.joined(separator: ", "))")
            let outgoing = OutgoingDrag(source: source, icon: icon, keeping: drag)
            drag.sourceGoneOutside = { [weak outgoing] in outgoing?.sourceWentAway() }
            return outgoing
        }
        guard let xSource = xwm?.dnd?.xSource, let outgoing = xSource.handOff(seat: self) else { return nil }
        log.debug("an X app's drag leaves Lodestone: \(outgoing.mimeTypes.joined(separator: ", "))")
        return outgoing
    }
}
