import CWaylandServer
import CXCB
import Glibc
import LodestoneSystem
import WaylandServer

/// One X selection (CLIPBOARD or PRIMARY) bridged to its Wayland counterpart (the
/// clipboard, `DataSelection`, or the primary selection), as wlroots' `xwayland/selection`
/// does. Xwayland has no Wayland data device of its own, so the window manager carries
/// both ways:
///
/// - X to Wayland: XFixes reports a new X owner; the window manager asks it for TARGETS
///   and sets an `XSelectionOffer` with their MIME types as the Wayland selection. A
///   Wayland client's receive converts the selection to the matching target on the
///   window manager's own window and writes the property's bytes into the client's pipe.
/// - Wayland to X: a Wayland client's new selection makes the window manager's window the
///   X owner; an X client's SelectionRequest gets TARGETS from the source's MIME types, or
///   the data: the source writes into a pipe Lodestone reads on the loop, and the bytes
///   go into the requestor's property before SelectionNotify.
///
/// Transfers never block the loop: pipes are non-blocking event sources (`PipeTransfer`).
/// Large data goes by ICCCM's INCR both ways: an X owner's chunks are read as it writes
/// them (each PropertyNotify NewValue on our window, until an empty one), and Wayland data
/// above `incrChunk` reaches the requestor in chunks, one per deletion of its property.
///
/// Neither side is trusted to finish (x11_fuzz.py's owners and requestors stall, lie and
/// vanish mid-INCR): a paste whose X owner says nothing for `stallTimeout`, or is replaced,
/// ends with what it got, and the next paste goes on; an owner's next chunk is taken only
/// once the paste has read the last one; a requestor that stops deleting its property is
/// dropped after `stallTimeout`, and at most `maximumOutgoing` are served at once.
final class XSelection {
    /// Wayland data larger than this goes to X in chunks of this size (INCR).
    static let incrChunk = 256 * 1024
    /// A Wayland source writing more than this is refused (no paste holds it all).
    static let maximumBytes = 64 * 1024 * 1024
    /// How long an X owner or requestor may keep a transfer waiting, in milliseconds.
    static let stallTimeout: Int32 = 5000
    /// Wayland pastes waiting for X beyond this are refused at once (their pipes closed).
    static let maximumReceives = 16
    /// INCR transfers to X requestors at once; a new one drops the oldest.
    static let maximumOutgoing = 4
    /// An X owner's TARGETS beyond this many are not looked at (each may cost a round trip).
    static let maximumTargets = 256
    private unowned let wm: XWM
    private let compositor: Compositor
    /// CLIPBOARD or PRIMARY.
    let atom: XAtom
    /// The window manager's window: the X owner on Wayland's behalf, and where X data
    /// for Wayland arrives.
    let window: XWindowID
    private let wayland: BridgedSelection
    /// The X owner's offer while it is (or is becoming) the Wayland selection.
    private var offer: XSelectionOffer?
    /// Wayland pastes waiting for X data, oldest first; the first one is converting.
    private var receives: [(target: XAtom, fd: Int32)] = []
    /// The first paste's pipe while its X owner sends INCR chunks.
    private var incoming: PipeTransfer?
    /// Wayland data going to X requestors in INCR chunks.
    private var outgoing: [OutgoingChunks] = []

    private final class OutgoingChunks {
        let requestor: XWindowID, property: XAtom, type: XAtom
        let data: [UInt8]
        var offset = 0
        /// When the requestor last took a chunk (CLOCK_MONOTONIC, ms).
        var lastProgress = monotonicMilliseconds()
        init(requestor: XWindowID, property: XAtom, type: XAtom, data: [UInt8]) {
            (self.requestor, self.property, self.type, self.data) = (requestor, property, type, data)
        }
    }
    /// Transfers in flight on the loop, both ways.
    private var transfers: [PipeTransfer] = []
    /// Our window owns the X selection (for a Wayland source): only then may an emptied
    /// Wayland selection empty X's.
    private var ownsX = false
    /// Fires when an X owner or requestor has kept a transfer waiting for `stallTimeout`.
    private var watchdog: EventSource?
    /// An INCR chunk arrived while the paste still had the last one to read: taken when it has.
    private var chunkWaiting = false
    /// When the paste converting last heard from its X owner or read (CLOCK_MONOTONIC, ms).
    private var receiveProgress: Int64 = 0

    private var connection: XConnection { wm.connection }
    private var atoms: XWM.Atoms { wm.atoms }

    init(wm: XWM, compositor: Compositor, atom: XAtom, wayland: BridgedSelection) {
        self.wm = wm
        self.compositor = compositor
        self.atom = atom
        self.wayland = wayland
        window = wm.connection.createHelperWindow()
        // INCR chunks from X owners arrive as new values of our property.
        wm.connection.changeAttributes(window, mask: XCB_CW_EVENT_MASK.rawValue, values: [XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue])
        wayland.changed = { [unowned self] source in self.waylandSelectionChanged(source) }
        watchdog = try? compositor.display.eventLoop.addTimer { [unowned self] in self.stalled() }
        // A Wayland selection made before Xwayland started is X's to paste at once.
        if let source = wayland.source { waylandSelectionChanged(source) }
    }

    /// Xwayland went away: its offer leaves the Wayland selection, transfers end.
    func shutdown() {
        wayland.changed = nil
        watchdog?.remove()
        watchdog = nil
        if let offer, wayland.source === offer { wayland.setSelection(nil) }
        offer = nil
        if incoming == nil, let first = receives.first { close(first.fd) }
        for receive in receives.dropFirst() { close(receive.fd) }
        receives.removeAll()
        incoming = nil
        chunkWaiting = false
        outgoing.removeAll()
        for transfer in transfers { transfer.cancel() }
        transfers.removeAll()
    }

    // MARK: X to Wayland

    /// XFixesSelectionNotify: `owner` (0: none) has the X selection now.
    func ownerChanged(to owner: XWindowID) {
        guard owner != window else { return }
        ownsX = false
        // Pastes of the previous owner's data end with what they got: it will send no more
        // (it may have gone mid-INCR), and its late chunks must not be taken for the new
        // owner's answers.
        endReceives()
        guard owner != 0 else {
            // The X owner went away: its offer leaves the Wayland selection.
            if let offer, wayland.source === offer { wayland.setSelection(nil) }
            offer = nil
            return
        }
        connection.convertSelection(requestor: window, selection: atom, target: atoms.targets, property: atoms.wlSelection)
    }

    /// SelectionNotify on our window: the X owner answered a conversion.
    func selectionNotify(_ e: xcb_selection_notify_event_t) {
        if e.target == atoms.targets {
            guard e.property != 0, let value = connection.takeProperty(window, atoms.wlSelection) else { return }
            var targets: [(mime: String, target: XAtom)] = []
            let offered = Array(uniqued(value.bytes.cardinals).prefix(Self.maximumTargets))
            let names = connection.names(of: offered.filter { mimeTypeByAtom($0) == nil && !isKnownTarget($0) })
            for target in offered {
                guard let mime = mimeTypeByAtom(target) ?? names[target].flatMap({ $0.contains("/") ? $0 : nil }),
                      !targets.contains(where: { $0.mime == mime }) else { continue }
                targets.append((mime, target))
            }
            guard !targets.isEmpty else { return }
            let offer = XSelectionOffer(selection: self, targets: targets)
            self.offer = offer
            wayland.setSelection(offer)
            return
        }
        // An answer for the paste converting (a late one for a paste given up is not).
        guard let receive = receives.first, incoming == nil, e.target == receive.target else { return }
        guard e.property != 0, let value = connection.takeProperty(window, atoms.wlSelection) else {
            close(receive.fd)
            return nextReceive()
        }
        if value.type == atoms.incr {
            compositor.log.debug("X selection \(atom): the owner sends its data incrementally (INCR)")
            // Deleting the INCR property (done) asks the owner for the first chunk.
            incoming = write([], to: receive.fd, complete: false)
            if let incoming {
                incoming.drained = { [unowned self] in self.pasteDrained() }
                receiveProgressed()
            } else {
                nextReceive()
            }
            return
        }
        write(value.bytes, to: receive.fd, complete: true)
        nextReceive()
    }

    /// A property of a window changed: an INCR chunk for us, or a requestor took one of
    /// ours. False when it is none of the selection's business.
    func propertyNotify(_ e: xcb_property_notify_event_t) -> Bool {
        if e.window == window {
            guard e.atom == atoms.wlSelection, e.state == UInt8(XCB_PROPERTY_NEW_VALUE.rawValue), let incoming else { return true }
            // The paste has not read the last chunk: this one waits in X (the owner sends
            // no more until we delete it).
            guard incoming.pendingBytes == 0 || incoming.isDone else {
                chunkWaiting = true
                return true
            }
            takeChunk(into: incoming)
            return true
        }
        guard e.state == UInt8(XCB_PROPERTY_DELETE.rawValue),
              let chunks = outgoing.first(where: { $0.requestor == e.window && $0.property == e.atom }) else { return false }
        let end = min(chunks.offset + Self.incrChunk, chunks.data.count)
        chunks.lastProgress = monotonicMilliseconds()
        // The requestor read the last chunk: an empty one ends the transfer.
        connection.setProperty(chunks.requestor, chunks.property, type: chunks.type, bytes: Array(chunks.data[chunks.offset..<end]))
        if chunks.offset == end { outgoing.removeAll { $0 === chunks } }
        chunks.offset = end
        connection.flush()
        return true
    }

    /// An X window was destroyed: a requestor gone mid-transfer takes no more chunks.
    func windowDestroyed(_ id: XWindowID) { outgoing.removeAll { $0.requestor == id } }

    /// The next INCR chunk of the X owner's into the paste's pipe; an empty one ends it.
    private func takeChunk(into incoming: PipeTransfer) {
        chunkWaiting = false
        let chunk = connection.takeProperty(window, atoms.wlSelection)?.bytes ?? []
        receiveProgressed()
        incoming.append(chunk, complete: chunk.isEmpty)
        if chunk.isEmpty || incoming.isDone {
            self.incoming = nil
            nextReceive()
        }
    }

    /// The paste read all it was given: the chunk waiting in X comes next.
    private func pasteDrained() {
        receiveProgressed()
        guard chunkWaiting, let incoming else { return }
        takeChunk(into: incoming)
        connection.flush()
    }

    private func receiveProgressed() {
        receiveProgress = monotonicMilliseconds()
        watchdog?.arm(milliseconds: Self.stallTimeout)
    }

    private func nextReceive() {
        if !receives.isEmpty { receives.removeFirst() }
        convertNext()
    }

    /// Ends the paste converting (its pipe closed: the client gets what came so far) and
    /// every one waiting.
    private func endReceives() {
        if let incoming {
            incoming.cancel()
            finished(incoming)
            self.incoming = nil
        } else if let first = receives.first {
            close(first.fd)
        }
        for receive in receives.dropFirst() { close(receive.fd) }
        receives.removeAll()
        chunkWaiting = false
    }

    /// The watchdog fired: a paste whose X owner said nothing (or whose client read
    /// nothing) for `stallTimeout` ends and the next one goes on; requestors that stopped
    /// taking chunks are dropped.
    private func stalled() {
        let now = monotonicMilliseconds()
        let before = outgoing.count
        outgoing.removeAll { now - $0.lastProgress >= Int64(Self.stallTimeout) }
        if outgoing.count < before {
            compositor.log.notice("X selection \(atom): \(before - outgoing.count) X requestor(s) stopped taking INCR chunks; dropped")
        }
        if let first = receives.first, now - receiveProgress >= Int64(Self.stallTimeout) {
            compositor.log.notice("X selection \(atom): the X owner kept a paste waiting \(Self.stallTimeout) ms; it ends with what it got")
            if let incoming {
                incoming.cancel()
                finished(incoming)
                self.incoming = nil
            } else {
                close(first.fd)
            }
            chunkWaiting = false
            nextReceive()
            connection.flush()
        }
        if !receives.isEmpty || !outgoing.isEmpty { watchdog?.arm(milliseconds: Self.stallTimeout) }
    }

    /// A Wayland client pastes the X selection as `target` into `fd`.
    fileprivate func receive(target: XAtom, fd: Int32) {
        // The offer closes its copy once this returns.
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return }
        guard receives.count < Self.maximumReceives else {
            compositor.log.notice("X selection \(atom): \(receives.count) pastes already wait for the X owner; this one gets nothing")
            close(own)
            return
        }
        receives.append((target, own))
        if receives.count == 1 { convertNext() }
        connection.flush()
    }

    fileprivate func offerCancelled(_ cancelled: XSelectionOffer) {
        if offer === cancelled { offer = nil }
    }

    private func convertNext() {
        guard let first = receives.first else { return }
        connection.convertSelection(requestor: window, selection: atom, target: first.target, property: atoms.wlSelection)
        receiveProgressed()
    }

    /// Starts writing X data to a Wayland client's pipe; nil if it already ended.
    @discardableResult
    private func write(_ bytes: [UInt8], to fd: Int32, complete: Bool) -> PipeTransfer? {
        let transfer = PipeTransfer(writing: bytes, to: fd, complete: complete, loop: compositor.display.eventLoop) { [unowned self] t in self.finished(t) }
        guard !transfer.isDone else { return nil }
        transfers.append(transfer)
        return transfer
    }

    /// The Wayland MIME type of a text target (other MIME types are the target's name).
    private func mimeTypeByAtom(_ target: XAtom) -> String? {
        switch target {
        case atoms.utf8String: return "text/plain;charset=utf-8"
        case atoms.text, XWM.Atoms.string: return "text/plain"
        default: return nil
        }
    }

    /// Targets that are no data a Wayland client would ask for.
    private func isKnownTarget(_ target: XAtom) -> Bool { target == atoms.targets || target == atoms.timestamp || target == 0 }

    // MARK: Wayland to X

    /// The Wayland selection changed: X's selection follows, owned by our window (unless
    /// the new source is the X owner's own offer).
    private func waylandSelectionChanged(_ source: SelectionSource?) {
        if let source, source === offer { return }
        if source != nil {
            offer = nil
            connection.setSelectionOwner(window, atom)
            ownsX = true
        } else if ownsX {
            connection.setSelectionOwner(0, atom)
            ownsX = false
        }
        connection.flush()
    }

    /// An X client asks our window for the selection as `target`.
    func selectionRequest(_ e: xcb_selection_request_event_t) {
        // Obsolete clients name no property: the target is the property.
        let property = e.property == 0 ? e.target : e.property
        guard let source = wayland.source, source !== offer else { return connection.notifySelection(e, property: 0) }
        if e.target == atoms.targets {
            var targets = [atoms.targets]
            for mime in source.mimeTypes { targets += self.targets(for: mime) }
            connection.setProperty(e.requestor, property, type: XWM.Atoms.atom, uniqued(targets))
            return connection.notifySelection(e, property: property)
        }
        guard let mime = mimeType(for: e.target, in: source.mimeTypes) else { return connection.notifySelection(e, property: 0) }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return connection.notifySelection(e, property: 0) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        source.send(mime: mime, fd: fds[1])
        close(fds[1])
        let type = e.target == atoms.text ? atoms.utf8String : e.target
        let transfer = PipeTransfer(reading: fds[0], limit: Self.maximumBytes, loop: compositor.display.eventLoop) { [unowned self] t in
            self.finished(t)
            if let data = t.received {
                self.answer(e, property: property, type: type, data: data)
            } else {
                self.compositor.log.notice("an X11 paste of \(mime) failed: the Wayland source wrote more than \(Self.maximumBytes) bytes or could not be read")
                self.connection.notifySelection(e, property: 0)
            }
            self.connection.flush()
        }
        if let transfer { transfers.append(transfer) } else { connection.notifySelection(e, property: 0) }
    }

    /// The data in the requestor's property, whole or (above `incrChunk`) announced as INCR
    /// with its size and sent a chunk at a time as the requestor deletes the property.
    private func answer(_ e: xcb_selection_request_event_t, property: XAtom, type: XAtom, data: [UInt8]) {
        guard data.count > Self.incrChunk else {
            connection.setProperty(e.requestor, property, type: type, bytes: data)
            return connection.notifySelection(e, property: property)
        }
        compositor.log.debug("X selection \(atom): \(data.count) bytes to window 0x\(String(e.requestor, radix: 16)) incrementally (INCR)")
        // Its deletions of the property are what we wait for.
        wm.watchProperties(of: e.requestor)
        if outgoing.count >= Self.maximumOutgoing {
            compositor.log.notice("X selection \(atom): \(outgoing.count) INCR transfers to X already; the oldest is dropped")
            outgoing.removeFirst()
        }
        outgoing.append(OutgoingChunks(requestor: e.requestor, property: property, type: type, data: data))
        watchdog?.arm(milliseconds: Self.stallTimeout)
        connection.setProperty(e.requestor, property, type: atoms.incr, [UInt32(data.count)])
        connection.notifySelection(e, property: property)
    }

    private func finished(_ transfer: PipeTransfer) { transfers.removeAll { $0 === transfer } }

    /// The X targets a Wayland MIME type is offered as.
    private func targets(for mime: String) -> [XAtom] {
        switch mime {
        case "text/plain;charset=utf-8": return [atoms.utf8String, atoms.text, XWM.Atoms.string]
        case "text/plain": return [atoms.text, XWM.Atoms.string]
        default: return wm.connection.internAtoms([mime]).values.map { $0 }
        }
    }

    /// The source's MIME type an X target asks for.
    private func mimeType(for target: XAtom, in mimes: [String]) -> String? {
        let wanted: [String]
        switch target {
        case atoms.utf8String: wanted = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain"]
        case atoms.text, XWM.Atoms.string: wanted = ["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING"]
        default: wanted = connection.name(of: target).map { [$0] } ?? []
        }
        return wanted.first { mimes.contains($0) }
    }
}

/// CLOCK_MONOTONIC in milliseconds.
private func monotonicMilliseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
}

/// Duplicates out, order kept.
private func uniqued(_ atoms: [XAtom]) -> [XAtom] {
    var seen = Set<XAtom>()
    return atoms.filter { seen.insert($0).inserted }
}

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
