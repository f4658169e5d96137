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
///
/// X to Wayland is in XSelection+XToWayland.swift; the Wayland selection as an X app sees it
/// (`XSelectionOffer`) in XSelectionOffer.swift.
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
    unowned let wm: XWM
    let compositor: Compositor
    /// CLIPBOARD or PRIMARY.
    let atom: XAtom
    /// The window manager's window: the X owner on Wayland's behalf, and where X data
    /// for Wayland arrives.
    let window: XWindowID
    let wayland: BridgedSelection
    /// The X owner's offer while it is (or is becoming) the Wayland selection.
    var offer: XSelectionOffer?
    /// Wayland pastes waiting for X data, oldest first; the first one is converting.
    var receives: [(target: XAtom, fd: Int32)] = []
    /// The first paste's pipe while its X owner sends INCR chunks.
    var incoming: PipeTransfer?
    /// Wayland data going to X requestors in INCR chunks.
    var outgoing: [OutgoingChunks] = []

    final class OutgoingChunks {
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
    var transfers: [PipeTransfer] = []
    /// Our window owns the X selection (for a Wayland source): only then may an emptied
    /// Wayland selection empty X's.
    var ownsX = false
    /// Fires when an X owner or requestor has kept a transfer waiting for `stallTimeout`.
    var watchdog: EventSource?
    /// An INCR chunk arrived while the paste still had the last one to read: taken when it has.
    var chunkWaiting = false
    /// When the paste converting last heard from its X owner or read (CLOCK_MONOTONIC, ms).
    var receiveProgress: Int64 = 0

    var connection: XConnection { wm.connection }
    var atoms: XWM.Atoms { wm.atoms }

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

    // MARK: Wayland to X

    /// The Wayland selection changed: X's selection follows, owned by our window (unless
    /// the new source is the X owner's own offer).
    func waylandSelectionChanged(_ source: SelectionSource?) {
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
    func answer(_ e: xcb_selection_request_event_t, property: XAtom, type: XAtom, data: [UInt8]) {
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

    func finished(_ transfer: PipeTransfer) { transfers.removeAll { $0 === transfer } }

    /// The X targets a Wayland MIME type is offered as.
    func targets(for mime: String) -> [XAtom] {
        switch mime {
        case "text/plain;charset=utf-8": return [atoms.utf8String, atoms.text, XWM.Atoms.string]
        case "text/plain": return [atoms.text, XWM.Atoms.string]
        default: return wm.connection.internAtoms([mime]).values.map { $0 }
        }
    }

    /// The source's MIME type an X target asks for.
    func mimeType(for target: XAtom, in mimes: [String]) -> String? {
        let wanted: [String]
        switch target {
        case atoms.utf8String: wanted = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain"]
        case atoms.text, XWM.Atoms.string: wanted = ["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING"]
        default: wanted = connection.name(of: target).map { [$0] } ?? []
        }
        return wanted.first { mimes.contains($0) }
    }
}
