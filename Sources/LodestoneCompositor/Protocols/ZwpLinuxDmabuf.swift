import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwp_linux_dmabuf_v1` (linux-dmabuf-unstable-v1, version 4): wl_buffers from dmabufs. Every
/// backend reads the linear 32-bit ones itself (`DmabufFormat.mappable`, `DmabufMapping`);
/// nested, the parent's main device is offered, and each buffer is also imported into the
/// parent (`DmabufParent`). The state is `LinuxDmabuf` (`Dmabuf/`); the params and the
/// buffers are in ZwpLinuxBufferParams.swift.
final class ZwpLinuxDmabuf: Resource, ZwpLinuxDmabufV1Handler {
    static let version: Int32 = 4
    unowned let dmabuf: LinuxDmabuf

    init?(dmabuf: LinuxDmabuf, client: Client, version: UInt32, id: UInt32) {
        self.dmabuf = dmabuf
        super.init(client: client, version: version, id: id)
        announceFormats()
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .createParams: _ = ZwpLinuxBufferParams(dmabuf: dmabuf, client: client, version: version, id: a.newID(0))
        case .getDefaultFeedback: _ = ZwpLinuxDmabufFeedback(dmabuf: dmabuf, surface: nil, client: client, version: version, id: a.newID(0))
        case .getSurfaceFeedback:
            // Every surface is composed (or passed to the parent) alike: its feedback is the
            // default one, kept apart so it can go inert with the surface.
            _ = ZwpLinuxDmabufFeedback(dmabuf: dmabuf, surface: a.object(1, as: WlSurface.self), client: client, version: version, id: a.newID(0))
        }
    }

    // MARK: Events before version 4

    /// Versions 1 and 2: each format (their clients name no modifier Lodestone can count on,
    /// and pass LINEAR or INVALID; LINEAR is taken). Version 3: each format + modifier pair.
    /// Version 4 clients ask for feedback instead: the protocol forbids both events to them.
    private func announceFormats() {
        guard version < 4 else { return }
        let pairs = dmabuf.feedback.tranches.flatMap(\.formats)
        if version >= 3 {
            for p in pairs { send { zwp_linux_dmabuf_v1_send_modifier($0, p.fourcc, UInt32(p.modifier >> 32), UInt32(truncatingIfNeeded: p.modifier)) } }
        } else {
            var seen: Set<UInt32> = []
            for p in pairs where seen.insert(p.fourcc).inserted { send { zwp_linux_dmabuf_v1_send_format($0, p.fourcc) } }
        }
    }
}

/// `zwp_linux_dmabuf_feedback_v1`: the format table, the main device and the tranches, sent
/// when made and again whenever `LinuxDmabuf`'s feedback changes (nested: the parent's did).
/// A surface's goes inert with its surface.
final class ZwpLinuxDmabufFeedback: Resource, ZwpLinuxDmabufFeedbackV1Handler {
    unowned let dmabuf: LinuxDmabuf
    private weak var surface: WlSurface?
    private let forSurface: Bool

    init?(dmabuf: LinuxDmabuf, surface: WlSurface?, client: Client, version: UInt32, id: UInt32) {
        self.dmabuf = dmabuf
        self.surface = surface
        forSurface = surface != nil
        super.init(client: client, version: version, id: id)
        dmabuf.listen(self)
        sendFeedback()
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { destroy() }
    }

    /// One whole feedback: format_table, main_device, each tranche (target device, flags,
    /// formats by index, tranche_done), done.
    func sendFeedback() {
        guard !forSurface || surface != nil else { return }
        guard let table = dmabuf.table else {
            // No memfd for the table (out of fds or memory): nothing can be said rightly.
            return client.postNoMemory()
        }
        let feedback = dmabuf.feedback
        send { zwp_linux_dmabuf_feedback_v1_send_format_table($0, table.fd, table.size) }
        withArray([feedback.mainDevice]) { array in send { zwp_linux_dmabuf_feedback_v1_send_main_device($0, array) } }
        for (tranche, indices) in zip(feedback.tranches, table.indices) {
            withArray([tranche.targetDevice]) { array in send { zwp_linux_dmabuf_feedback_v1_send_tranche_target_device($0, array) } }
            send { zwp_linux_dmabuf_feedback_v1_send_tranche_flags($0, tranche.flags) }
            withArray(indices) { array in send { zwp_linux_dmabuf_feedback_v1_send_tranche_formats($0, array) } }
            send { zwp_linux_dmabuf_feedback_v1_send_tranche_done($0) }
        }
        send { zwp_linux_dmabuf_feedback_v1_send_done($0) }
    }
}
