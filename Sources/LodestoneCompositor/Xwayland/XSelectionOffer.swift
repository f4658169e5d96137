import CXCB

/// An X app's selection as a Wayland selection source: pastes are converted by X.
final class XSelectionOffer: SelectionSource {
    private weak var selection: XSelection?
    private let targets: [(mime: String, target: XAtom)]

    init(selection: XSelection, targets: [(mime: String, target: XAtom)]) {
        self.selection = selection
        self.targets = targets
    }

    var mimeTypes: [String] { targets.map(\.mime) }

    func send(mime: String, fd: Int32) {
        guard let target = targets.first(where: { $0.mime == mime })?.target else { return }
        selection?.receive(target: target, fd: fd)
    }

    func cancelled() { selection?.offerCancelled(self) }
}
