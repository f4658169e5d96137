import CWaylandClient
import Glibc
import LodestoneCompositor
import Logging
import WaylandClient

/// The parent's `zwp_linux_dmabuf_v1`, when it offers one: its feedback (version 4; the
/// modifiers of version 3) becomes what Lodestone's clients are offered (`LinuxDmabuf.parent`),
/// so they allocate on the parent's main device, and every dmabuf a client makes is imported
/// into the parent as well (`zwp_linux_buffer_params_v1.create`, never `create_immed`, whose
/// refusal may be fatal to the whole connection), for parent planes to attach.
///
/// Only validated buffers reach the parent: `DmabufParams` has checked them, and, while
/// `showsUnmappableBuffers` is false, they are pairs the parent advertised too, or they are
/// not sent (`importBuffer` returns nil).
final class ParentDmabuf: DmabufParent {
    private let manager: Proxy
    private var defaultFeedback: Proxy?
    private let log: Logger
    /// The parent's feedback as last completed (`done`).
    private(set) var feedback: DmabufFeedback?
    /// Parent planes do not yet show client buffers (issue 37, items 1-2): Lodestone reads
    /// every buffer it is given, and offers only what it reads.
    let showsUnmappableBuffers = false
    /// Called when `feedback` changed.
    var changed: (() -> Void)?

    // The feedback being received: table, main device, tranches so far, the open tranche.
    private var table: [DmabufFormat] = []
    private var mainDevice: UInt64 = 0
    private var tranches: [DmabufFeedback.Tranche] = []
    private var tranche = DmabufFeedback.Tranche(targetDevice: 0, formats: [])

    init(manager: Proxy, logger: Logger) {
        self.manager = manager
        log = logger
        if manager.version >= 4 {
            guard let proxy = try? Proxy(creating: { manager.request { zwp_linux_dmabuf_v1_get_default_feedback($0) } },
                                         on: manager.connection, what: "zwp_linux_dmabuf_v1.get_default_feedback") else { return }
            defaultFeedback = proxy
            proxy.handleEvents(LinuxDmabufFeedbackEvent.self) { [unowned self] in self.feedbackEvent($0) }
        } else {
            // Version 3's modifier events (or 1's and 2's formats) come once, after the bind;
            // there is no main device: this machine's stands in for it.
            manager.handleEvents(LinuxDmabufEvent.self) { [unowned self] event in
                let pair: DmabufFormat
                switch event {
                case .format(let fourcc): pair = DmabufFormat(fourcc, DmabufFormat.invalidModifier)
                case .modifier(let fourcc, let modifier): pair = DmabufFormat(fourcc, modifier)
                }
                let device = DmabufDevice.local()
                var formats = self.feedback?.tranches.first?.formats ?? []
                formats.append(pair)
                self.feedback = DmabufFeedback(mainDevice: device, tranches: [.init(targetDevice: device, formats: formats)])
                self.changed?()
            }
        }
    }

    /// The manager is `ParentGlobals`'; only its events stop reaching this object.
    deinit {
        defaultFeedback?.destroy { zwp_linux_dmabuf_feedback_v1_destroy($0) }
        manager.onEvent = nil
    }

    private func feedbackEvent(_ event: LinuxDmabufFeedbackEvent) {
        switch event {
        case .formatTable(let fd, let size): table = Self.readTable(fd: fd, size: size)
        case .mainDevice(let device): mainDevice = device
        case .trancheTargetDevice(let device): tranche.targetDevice = device
        case .trancheFlags(let flags): tranche.flags = flags
        case .trancheFormats(let indices): tranche.formats += indices.compactMap { Int($0) < table.count ? table[Int($0)] : nil }
        case .trancheDone:
            tranches.append(tranche)
            tranche = DmabufFeedback.Tranche(targetDevice: 0, formats: [])
        case .done:
            let now = DmabufFeedback(mainDevice: mainDevice, tranches: tranches)
            tranches = []
            guard now != feedback else { return }
            feedback = now
            log.info("the parent's linux-dmabuf: main device \(DmabufDevice.name(now.mainDevice)), \(now.formats.count) format and modifier pairs in \(now.tranches.count) tranches")
            changed?()
        }
    }

    /// The parent's format table: 16-byte entries (fourcc, padding, modifier), mapped
    /// read-only and private as the protocol asks; the fd is closed here.
    private static func readTable(fd: Int32, size: UInt32) -> [DmabufFormat] {
        defer { close(fd) }
        guard size >= 16, let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else { return [] }
        defer { munmap(map, Int(size)) }
        return (0..<Int(size) / 16).map { i in
            DmabufFormat(map.load(fromByteOffset: i * 16, as: UInt32.self), map.load(fromByteOffset: i * 16 + 8, as: UInt64.self))
        }
    }

    // MARK: DmabufParent

    func importBuffer(_ buffer: DmabufAttributes, answered: @escaping (Bool) -> Void) -> AnyObject? {
        guard showsUnmappableBuffers || feedback?.formats.contains(buffer.format) == true,
              let params = try? Proxy(creating: { manager.request { zwp_linux_dmabuf_v1_create_params($0) } },
                                      on: manager.connection, what: "zwp_linux_dmabuf_v1.create_params") else { return nil }
        for (index, plane) in buffer.planes.enumerated() {
            params.request {
                zwp_linux_buffer_params_v1_add($0, plane.fd, UInt32(index), plane.offset, plane.stride,
                                               UInt32(buffer.format.modifier >> 32), UInt32(truncatingIfNeeded: buffer.format.modifier))
            }
        }
        params.request { zwp_linux_buffer_params_v1_create($0, buffer.width, buffer.height, buffer.format.fourcc, buffer.flags) }
        manager.connection.flush()
        return ParentDmabufBuffer(params: params, answered: answered)
    }
}

/// A client's dmabuf in the parent: the params until the parent answers, then its wl_buffer,
/// destroyed with this object (when the client's buffer goes).
final class ParentDmabufBuffer {
    private var params: Proxy?
    /// The parent's wl_buffer, once created.
    private(set) var buffer: Proxy?

    init(params: Proxy, answered: @escaping (Bool) -> Void) {
        self.params = params
        params.handleEvents(LinuxBufferParamsEvent.self) { [unowned self] event in
            switch event {
            case .created(let raw):
                if let raw { self.buffer = Proxy(raw, on: params.connection) }
                answered(raw != nil)
            case .failed: answered(false)
            }
            self.params?.destroy { zwp_linux_buffer_params_v1_destroy($0) }
            self.params = nil
        }
    }

    deinit {
        params?.destroy { zwp_linux_buffer_params_v1_destroy($0) }
        buffer?.destroy { wl_buffer_destroy($0) }
        buffer?.connection.flush()
    }
}
