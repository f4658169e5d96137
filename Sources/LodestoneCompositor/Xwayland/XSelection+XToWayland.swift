import CWaylandServer
import CXCB
import Glibc
import LodestoneSystem
import WaylandServer

/// X to Wayland: an X owner's TARGETS become a Wayland selection source, and a Wayland
/// paste is converted by the X owner and carried over a pipe (INCR in chunks).
extension XSelection {
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
    func takeChunk(into incoming: PipeTransfer) {
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
    func pasteDrained() {
        receiveProgressed()
        guard chunkWaiting, let incoming else { return }
        takeChunk(into: incoming)
        connection.flush()
    }

    func receiveProgressed() {
        receiveProgress = monotonicMilliseconds()
        watchdog?.arm(milliseconds: Self.stallTimeout)
    }

    func nextReceive() {
        if !receives.isEmpty { receives.removeFirst() }
        convertNext()
    }

    /// Ends the paste converting and every one waiting. The paste keeps all the owner sent:
    /// a chunk waiting in our property is taken, and what is not yet in the pipe is still
    /// written before the pipe closes. (Closed at once, a paste that read slowly lost the
    /// owner's last chunk when the owner hung up mid-INCR: 65,536 of 131,072 bytes.)
    func endReceives() {
        if let incoming {
            let waiting = chunkWaiting ? connection.takeProperty(window, atoms.wlSelection)?.bytes ?? [] : []
            incoming.append(waiting, complete: true)
            if incoming.isDone { finished(incoming) }
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
    func stalled() {
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
    func receive(target: XAtom, fd: Int32) {
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

    func offerCancelled(_ cancelled: XSelectionOffer) {
        if offer === cancelled { offer = nil }
    }

    func convertNext() {
        guard let first = receives.first else { return }
        connection.convertSelection(requestor: window, selection: atom, target: first.target, property: atoms.wlSelection)
        receiveProgressed()
    }

    /// Starts writing X data to a Wayland client's pipe; nil if it already ended.
    @discardableResult
    func write(_ bytes: [UInt8], to fd: Int32, complete: Bool) -> PipeTransfer? {
        let transfer = PipeTransfer(writing: bytes, to: fd, complete: complete, loop: compositor.display.eventLoop) { [unowned self] t in self.finished(t) }
        guard !transfer.isDone else { return nil }
        transfers.append(transfer)
        return transfer
    }

    /// The Wayland MIME type of a text target (other MIME types are the target's name).
    func mimeTypeByAtom(_ target: XAtom) -> String? {
        switch target {
        case atoms.utf8String: return "text/plain;charset=utf-8"
        case atoms.text, XWM.Atoms.string: return "text/plain"
        default: return nil
        }
    }

    /// Targets that are no data a Wayland client would ask for.
    func isKnownTarget(_ target: XAtom) -> Bool { target == atoms.targets || target == atoms.timestamp || target == 0 }
}

/// CLOCK_MONOTONIC in milliseconds (the selections' watchdogs).
func monotonicMilliseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
}

/// Duplicates out, order kept (a TARGETS list).
func uniqued(_ atoms: [XAtom]) -> [XAtom] {
    var seen = Set<XAtom>()
    return atoms.filter { seen.insert($0).inserted }
}
