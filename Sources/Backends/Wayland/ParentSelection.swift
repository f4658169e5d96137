import CWaylandClient
import CWaylandProtocols
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// One of Lodestone's selections (the clipboard or the primary selection) shared with the
/// parent session, both ways. Lodestone is a client of the parent: a `wl_data_device` or
/// `zwp_primary_selection_device_v1` on the parent's seat.
///
/// - Parent to Lodestone: the parent's selection (an offer, with the MIME types its source
///   offers) becomes Lodestone's selection as a `SelectionSource`; a client's paste is the
///   offer's `receive`, with the client's own pipe.
/// - Lodestone to parent: a client's new selection becomes our source in the parent,
///   offering that client's MIME types; a parent client's paste (`send`) passes its pipe to
///   the client's source.
///
/// No byte goes through Lodestone: each paste's fd is handed on to the writing side, so no
/// pipe is ever read or written on the event loop and nothing can block it. A side that
/// has gone away has the fd closed at once: the reader sees an empty paste and end of file.
///
/// The parent lets a client set its selection only with a serial of its own input: our
/// source is set while our window has the parent's keyboard, with the latest serial
/// (keyboard enter, key, button); a selection made inside while it has not waits for the
/// next keyboard enter. Our own source coming back as the parent's selection is not taken
/// for a new one: while it is not cancelled, the parent's selection is ours.
final class ParentSelection<Kind: ParentSelectionKind> {
    private let connection: Connection
    let manager: Proxy
    /// The device on the parent's seat (the clipboard's also carries drags, `ParentDrag`).
    let device: Proxy
    private let selection: BridgedSelection
    private let log: Logger
    /// Offers the parent announced that are not (yet) its selection.
    private var announced: [ParentOffer] = []
    /// The parent's selection, as Lodestone's clients see it.
    private var current: ParentOffer?
    /// Our source in the parent for Lodestone's selection, until the parent cancels it.
    private var ours: ParentSource?
    /// Lodestone's selection, waiting for the parent's keyboard to be set there.
    private weak var waiting: SelectionSource?
    /// The latest input serial while our window has the parent's keyboard (nil: it has not).
    private var serial: UInt32?

    init?(manager: Proxy, seat: Proxy, selection: BridgedSelection, logger: Logger) {
        guard let raw = seat.request({ seatPointer in manager.request { Kind.getDevice($0, seatPointer) } }) else { return nil }
        connection = manager.connection
        self.manager = manager
        device = Proxy(raw, on: manager.connection)
        self.selection = selection
        log = logger
        device.onEvent = { [unowned self] opcode, a in self.deviceEvent(opcode, a) }
        selection.observe { [weak self] source in self?.lodestoneSelectionChanged(source) }
    }

    deinit {
        current?.destroy()
        for offer in announced { offer.destroy() }
        ours?.destroy()
        device.destroy { Kind.destroyDevice($0) }
        manager.destroy { Kind.destroyManager($0) }
    }

    /// The parent's keyboard came or gave a newer serial (nil: it left our window).
    func keyboardSerial(_ serial: UInt32?) {
        self.serial = serial
        if let source = waiting, serial != nil {
            waiting = nil
            offerToParent(source)
        }
    }

    // MARK: Parent to Lodestone

    private func deviceEvent(_ opcode: UInt32, _ a: EventArguments) {
        switch opcode {
        case 0:  // data_offer: a new offer, its MIME types follow
            guard let raw = a.object(0) else { return }
            announced.append(ParentOffer(Proxy(raw, on: connection)))
        case Kind.selectionOpcode: parentSelectionChanged(a.object(0))
        case _ where Kind.enterOpcode != .max && (Kind.enterOpcode...Kind.enterOpcode + 3).contains(opcode):
            // A drag from the parent: enter, leave, motion, drop (`ParentDrag`).
            if let dragEvent { return dragEvent(opcode, a) }
            // Nothing takes it here: the offer is let go, and a drop cancels the parent's drag.
            if opcode == Kind.enterOpcode, let i = announced.firstIndex(where: { $0.proxy.isObject(a.object(4)) }) { announced.remove(at: i).destroy() }
        default: break
        }
    }

    /// The device's drag events (the clipboard's device carries the parent's drags).
    var dragEvent: ((UInt32, EventArguments) -> Void)?

    /// Takes the announced offer `raw` (a drag's, named by its enter).
    func takeOffer(_ raw: OpaquePointer?) -> ParentOffer? {
        announced.firstIndex { $0.proxy.isObject(raw) }.map { announced.remove(at: $0) }
    }

    private func parentSelectionChanged(_ raw: OpaquePointer?) {
        let offer = announced.firstIndex { $0.proxy.isObject(raw) }.map { announced.remove(at: $0) }
        if let offer, ours != nil {
            // Our own source, offered back to us.
            offer.destroy()
            return
        }
        let previous = current
        current = offer
        if let offer {
            log.debug("the parent's \(Kind.name) offers \(offer.mimeTypes.joined(separator: ", "))")
            selection.setSelection(offer)
        } else if previous != nil, selection.source === previous {
            selection.setSelection(nil)
        }
        previous?.destroy()
    }

    // MARK: Lodestone to parent

    private func lodestoneSelectionChanged(_ source: SelectionSource?) {
        if let source, source === current { return }
        // The parent's selection is no longer Lodestone's: its offer goes.
        if let current, selection.source !== current {
            self.current = nil
            current.destroy()
        }
        waiting = nil
        guard let source else {
            // Destroying our source empties the parent's selection, no serial needed.
            ours?.destroy()
            ours = nil
            return
        }
        if serial == nil { waiting = source } else { offerToParent(source) }
    }

    private func offerToParent(_ source: SelectionSource) {
        guard let serial, let raw = manager.request({ Kind.createSource($0) }) else { return }
        let parentSource = ParentSource(Proxy(raw, on: connection), for: source)
        for mime in source.mimeTypes { parentSource.proxy.request { Kind.offer($0, mime) } }
        parentSource.proxy.onEvent = { [unowned self, unowned parentSource] opcode, a in
            switch opcode {
            case Kind.sendOpcode: parentSource.send(mime: a.string(0), fd: a.fd(1))
            case Kind.cancelledOpcode:
                // The parent's selection is someone else's now (its offer follows).
                parentSource.destroy()
                if self.ours === parentSource { self.ours = nil }
            default: break
            }
        }
        ours?.destroy()
        ours = parentSource
        device.request(parentSource.proxy) { Kind.setSelection($0, $1, serial) }
        connection.flush()
        log.debug("Lodestone's \(Kind.name) offered to the parent: \(source.mimeTypes.joined(separator: ", "))")
    }

    /// The parent's selection (a `wl_data_offer` or `zwp_primary_selection_offer_v1`) as a
    /// source inside Lodestone.
    final class ParentOffer: SelectionSource {
        let proxy: Proxy
        private(set) var mimeTypes: [String] = []
        /// A drag's offer: what the parent's source can do (`source_actions`).
        private(set) var sourceActions: UInt32 = 0
        var sourceActionsChanged: ((UInt32) -> Void)?
        private var alive = true

        init(_ proxy: Proxy) {
            self.proxy = proxy
            proxy.onEvent = { [unowned self] opcode, a in
                // offer: one more MIME type (each once; a parent's list is not ours to trust).
                if opcode == 0, self.mimeTypes.count < 1024, !self.mimeTypes.contains(a.string(0)) { self.mimeTypes.append(a.string(0)) }
                if opcode == 1, Kind.enterOpcode != .max {
                    self.sourceActions = a.uint(0)
                    self.sourceActionsChanged?(a.uint(0))
                }
            }
        }

        /// A paste inside: the parent's source writes into the client's pipe. Our copy of the
        /// fd is closed by the caller; libwayland sends a duplicate.
        func send(mime: String, fd: Int32) {
            guard alive, mimeTypes.contains(mime) else { return }
            proxy.request { Kind.receive($0, mime, fd) }
            proxy.connection.flush()
        }

        func cancelled() {}

        func destroy() {
            guard alive else { return }
            alive = false
            proxy.destroy { Kind.destroyOffer($0) }
        }
    }

    /// Our source in the parent (`wl_data_source`, `zwp_primary_selection_source_v1`) for a
    /// selection inside Lodestone.
    final class ParentSource {
        let proxy: Proxy
        weak var source: SelectionSource?

        init(_ proxy: Proxy, for source: SelectionSource) {
            self.proxy = proxy
            self.source = source
        }

        /// A paste in the parent: the client inside writes into the parent client's pipe, or
        /// (its source gone) the pipe closes empty.
        func send(mime: String, fd: Int32) {
            defer { close(fd) }
            guard let source, source.mimeTypes.contains(mime) else { return }
            source.send(mime: mime, fd: fd)
        }

        func destroy() { proxy.destroy { Kind.destroySource($0) } }
    }
}

/// Both selections shared with the parent, when it has the managers.
final class ParentSelections {
    let clipboard: ParentSelection<ParentClipboard>?
    let primary: ParentSelection<ParentPrimarySelection>?
    /// The parent's drags over our window, on the clipboard's device.
    let drags: ParentDrag?

    init(globals: ParentGlobals, registry: Registry, seat: Proxy, window: Proxy, compositor: Compositor, logger: Logger) {
        let selections = compositor.bridgedSelections
        func bind(_ interface: UnsafePointer<wl_interface>, _ version: UInt32) -> Proxy? {
            registry.bind(interface, version: version).map { Proxy($0, on: globals.connection) }
        }
        // Version 3: release, and the drag actions a later step will need.
        clipboard = bind(cwp_wl_data_device_manager_interface(), 3).flatMap {
            ParentSelection(manager: $0, seat: seat, selection: selections.clipboard, logger: logger)
        }
        primary = bind(cwp_zwp_primary_selection_device_manager_v1_interface(), 1).flatMap {
            ParentSelection(manager: $0, seat: seat, selection: selections.primary, logger: logger)
        }
        drags = clipboard.map { ParentDrag(compositor: compositor, clipboard: $0, window: window, globals: globals, logger: logger) }
        let shared = [clipboard != nil ? "clipboard" : nil, primary != nil ? "primary selection" : nil].compactMap { $0 }
        logger.info(shared.isEmpty ? "the parent offers no clipboard to share" : "sharing the \(shared.joined(separator: " and ")) with the parent")
    }

    func keyboardSerial(_ serial: UInt32?) {
        clipboard?.keyboardSerial(serial)
        primary?.keyboardSerial(serial)
    }
}
