/// A drag started inside Lodestone that carries on outside it: the nested backend's parent
/// takes it over when the pointer leaves the window with the button held (`ParentDrag`).
/// The client's `wl_data_source` stays the drag's source: the outside asks it for data
/// (`send`) and tells it what its own targets say (`target`, `action`, the drop and its end).
public final class OutgoingDrag {
    private weak var source: WlDataSource?
    public let mimeTypes: [String]
    /// The source's actions (`wl_data_device_manager.dnd_action` bits).
    public let actions: UInt32

    init(source: WlDataSource) {
        self.source = source
        mimeTypes = source.mimeTypes
        actions = source.supportedActions.rawValue
    }

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
        guard let drag = grab as? DragGrab, let source = drag.handOff() else { return nil }
        compositor.log.debug("a drag leaves Lodestone: \(source.mimeTypes.joined(separator: ", "))")
        return OutgoingDrag(source: source)
    }
}
