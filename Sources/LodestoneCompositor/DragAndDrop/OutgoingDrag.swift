/// A drag started inside Lodestone that carries on outside it: the nested backend's parent
/// takes it over when the pointer leaves the window with the button held (`ParentDrag`).
/// The client's `wl_data_source` stays the drag's source: the outside asks it for data
/// (`send`) and tells it what its own targets say (`target`, `action`, the drop and its end).
public final class OutgoingDrag {
    private weak var source: WlDataSource?
    /// The drag as it was inside, kept so the source's end still reaches it.
    private let drag: DragGrab
    public let mimeTypes: [String]
    /// The source's actions (`wl_data_device_manager.dnd_action` bits).
    public let actions: UInt32
    /// The client's source went away: the drag outside must end.
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

    init(source: WlDataSource, drag: DragGrab, icon: Icon?) {
        self.source = source
        self.drag = drag
        self.icon = icon
        mimeTypes = source.mimeTypes
        actions = source.supportedActions.rawValue
        drag.sourceGoneOutside = { [unowned self] in self.sourceGone?() }
    }

    deinit { drag.sourceGoneOutside = nil }

    /// A target outside reads the data as `mime` from `fd` (the caller closes its copy).
    /// A source that has gone away writes nothing: the reader sees end of file.
    public func send(mime: String, fd: Int32) {
        guard let source, source.mimeTypes.contains(mime) else { return }
        source.send(mime: mime, fd: fd)
    }

    /// The target outside accepts `mime` (nil: nothing).
    public func target(_ mime: String?) {
        source?.target(mime)
        source?.accepted = mime != nil
    }

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

extension Seat {
    /// The drag in progress leaves Lodestone for the outside (see `OutgoingDrag`); nil
    /// when no drag with data is in progress.
    public func handOffDrag() -> OutgoingDrag? {
        guard let drag = grab as? DragGrab else { return nil }
        let icon = drag.iconSnapshot
        guard let source = drag.handOff() else { return nil }
        compositor.log.debug("a drag leaves Lodestone: \(source.mimeTypes.joined(separator: ", "))")
        return OutgoingDrag(source: source, drag: drag, icon: icon)
    }
}
