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
/// Transfers never block the loop: pipes are non-blocking event sources. Data comes whole
/// in one property: INCR (the incremental transfer X clients use for large data, GTK above
/// 256 KiB) is not spoken, so such a paste from X delivers nothing, and one from Wayland
/// larger than the server's largest request is refused.
final class XSelection {
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
    /// Transfers in flight on the loop, both ways.
    private var transfers: [PipeTransfer] = []
    /// Our window owns the X selection (for a Wayland source): only then may an emptied
    /// Wayland selection empty X's.
    private var ownsX = false

    private var connection: XConnection { wm.connection }
    private var atoms: XWM.Atoms { wm.atoms }

    init(wm: XWM, compositor: Compositor, atom: XAtom, wayland: BridgedSelection) {
        self.wm = wm
        self.compositor = compositor
        self.atom = atom
        self.wayland = wayland
        window = wm.connection.createHelperWindow()
        wayland.changed = { [unowned self] source in self.waylandSelectionChanged(source) }
        // A Wayland selection made before Xwayland started is X's to paste at once.
        if let source = wayland.source { waylandSelectionChanged(source) }
    }

    /// Xwayland went away: its offer leaves the Wayland selection, transfers end.
    func shutdown() {
        wayland.changed = nil
        if let offer, wayland.source === offer { wayland.setSelection(nil) }
        offer = nil
        for receive in receives { close(receive.fd) }
        receives.removeAll()
        for transfer in transfers { transfer.cancel() }
        transfers.removeAll()
    }

    // MARK: X to Wayland

    /// XFixesSelectionNotify: `owner` (0: none) has the X selection now.
    func ownerChanged(to owner: XWindowID) {
        guard owner != window else { return }
        ownsX = false
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
            for target in value.bytes.cardinals {
                guard let mime = mimeType(of: target), !targets.contains(where: { $0.mime == mime }) else { continue }
                targets.append((mime, target))
            }
            guard !targets.isEmpty else { return }
            let offer = XSelectionOffer(selection: self, targets: targets)
            self.offer = offer
            wayland.setSelection(offer)
            return
        }
        guard !receives.isEmpty else { return }
        let receive = receives.removeFirst()
        if e.property != 0, let value = connection.takeProperty(window, atoms.wlSelection) {
            if value.type == atoms.incr {
                compositor.log.notice("an X11 app offers the selection incrementally (INCR), which Lodestone does not read; nothing pasted")
                close(receive.fd)
            } else {
                write(value.bytes, to: receive.fd)
            }
        } else {
            close(receive.fd)
        }
        convertNext()
    }

    /// A Wayland client pastes the X selection as `target` into `fd`.
    fileprivate func receive(target: XAtom, fd: Int32) {
        // The offer closes its copy once this returns.
        let own = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard own >= 0 else { return }
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
    }

    private func write(_ bytes: [UInt8], to fd: Int32) {
        guard let transfer = PipeTransfer(writing: bytes, to: fd, loop: compositor.display.eventLoop, done: { [unowned self] t in self.finished(t) }) else { return }
        if !transfer.isDone { transfers.append(transfer) }
    }

    /// The Wayland MIME type an X target stands for (nil: none a Wayland client would ask for).
    private func mimeType(of target: XAtom) -> String? {
        switch target {
        case atoms.utf8String: return "text/plain;charset=utf-8"
        case atoms.text, XWM.Atoms.string: return "text/plain"
        case atoms.targets, atoms.timestamp: return nil
        default:
            guard let name = connection.name(of: target), name.contains("/") else { return nil }
            return name
        }
    }

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
        let limit = connection.maximumRequestBytes - 64
        let type = e.target == atoms.text ? atoms.utf8String : e.target
        let transfer = PipeTransfer(reading: fds[0], limit: limit, loop: compositor.display.eventLoop) { [unowned self] t in
            self.finished(t)
            if let data = t.received {
                self.connection.setProperty(e.requestor, property, type: type, bytes: data)
                self.connection.notifySelection(e, property: property)
            } else {
                self.compositor.log.notice("an X11 paste of \(mime) failed: the data is larger than one X request (no INCR) or could not be read")
                self.connection.notifySelection(e, property: 0)
            }
            self.connection.flush()
        }
        if let transfer { transfers.append(transfer) } else { connection.notifySelection(e, property: 0) }
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

/// One pipe of a selection transfer on the loop: either reads what a Wayland source
/// writes (until it closes its end) or writes X data to a Wayland client; never blocks.
final class PipeTransfer {
    private let fd: Int32
    private var watch: EventSource?
    private var buffer: [UInt8]
    private var offset = 0
    private let limit: Int
    private let done: (PipeTransfer) -> Void
    private let reading: Bool
    private(set) var isDone = false
    /// What was read, once the writer closed its end (nil: failed or too large).
    private(set) var received: [UInt8]?

    /// Reads `fd` (non-blocking) to its end, at most `limit` bytes.
    init?(reading fd: Int32, limit: Int, loop: EventLoop, done: @escaping (PipeTransfer) -> Void) {
        (self.fd, buffer, self.limit, self.done, reading) = (fd, [], limit, done, true)
        guard let w = try? loop.addFileDescriptor(fd, mask: UInt32(WL_EVENT_READABLE), { [unowned self] _ in self.readable() }) else {
            close(fd)
            return nil
        }
        watch = w
    }

    /// Writes `bytes` to `fd`, now as far as the pipe takes them, the rest when it drains.
    init?(writing bytes: [UInt8], to fd: Int32, loop: EventLoop, done: @escaping (PipeTransfer) -> Void) {
        (self.fd, buffer, limit, self.done, reading) = (fd, bytes, bytes.count, done, false)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        writable()
        guard !isDone else { return }
        guard let w = try? loop.addFileDescriptor(fd, mask: UInt32(WL_EVENT_WRITABLE), { [unowned self] _ in self.writable() }) else {
            finish(nil)
            return nil
        }
        watch = w
    }

    private func readable() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer += chunk[0..<n]
                if buffer.count > limit { return finish(nil) }
            } else if n == 0 {
                return finish(buffer)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                return
            } else {
                return finish(nil)
            }
        }
    }

    private func writable() {
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && errno == EAGAIN {
                return
            } else {
                return finish(nil)  // EPIPE: the paste target went away
            }
        }
        finish(buffer)
    }

    private func finish(_ data: [UInt8]?) {
        guard !isDone else { return }
        isDone = true
        watch?.remove()
        watch = nil
        close(fd)
        received = reading ? data : nil
        done(self)
    }

    /// Xwayland went away mid-transfer.
    func cancel() {
        guard !isDone else { return }
        isDone = true
        watch?.remove()
        watch = nil
        close(fd)
    }
}
