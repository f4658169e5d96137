import Logging
import WaylandServer

/// A backend that can hand client dmabufs to a compositor of its own (nested: the parent
/// session), for its planes to show them without Lodestone reading a pixel.
public protocol DmabufParent: AnyObject {
    /// The parent's own feedback (main device and tranches), nil until it said.
    var feedback: DmabufFeedback? { get }
    /// Whether a buffer Lodestone cannot read itself (a tiled modifier, a YUV format) can be
    /// shown: only through parent planes. While false, clients are offered only the pairs
    /// Lodestone maps (`DmabufFormat.mappable`), on the parent's main device.
    var showsUnmappableBuffers: Bool { get }
    /// Starts importing a client's buffer into the parent (`zwp_linux_buffer_params_v1`);
    /// `answered` is called once, later (from the parent's event, never before this returns),
    /// with whether the parent took it. The buffer is the parent's for as long as the returned
    /// object lives; nil when it cannot even be asked.
    func importBuffer(_ buffer: DmabufAttributes, answered: @escaping (Bool) -> Void) -> AnyObject?
}

/// linux-dmabuf's state: what Lodestone offers (`DmabufFeedback.offered`), compiled once into
/// a format table, the feedback objects to tell when it changes, and how many dmabuf fds each
/// client makes Lodestone hold (`ClientLimits.dmabufFdsPerClient`).
public final class LinuxDmabuf {
    /// The backend's device when it has no parent to defer to: the TTY's card, or
    /// `DmabufDevice.local()` (the default) headless and nested without linux-dmabuf.
    public var localDevice: UInt64 { didSet { if localDevice != oldValue { refresh() } } }
    /// The nested backend's parent, when it offers linux-dmabuf.
    public weak var parent: DmabufParent? { didSet { refresh() } }
    /// The parent took a client's buffer (after the client may already show it, composed):
    /// parent planes may show it now.
    var parentTookBuffer: (() -> Void)?

    private(set) var feedback: DmabufFeedback
    private(set) var table: DmabufFormatTable?
    /// What `create` accepts: every pair of `feedback`.
    private(set) var offered: Set<DmabufFormat>
    private var listeners: [Weak<ZwpLinuxDmabufFeedback>] = []
    private var heldFds: [Client: Int] = [:]
    let log: Logger

    init(localDevice: UInt64 = DmabufDevice.local(), log: Logger) {
        self.localDevice = localDevice
        self.log = log
        feedback = DmabufFeedback.offered(localDevice: localDevice, parent: nil, parentShowsUnmappable: false)
        offered = feedback.formats
        table = DmabufFormatTable(feedback)
    }

    /// The parent's feedback changed (it said it for the first time, or its GPU changed):
    /// every feedback object hears the new one.
    public func parentChanged() { refresh() }

    private func refresh() {
        let now = DmabufFeedback.offered(localDevice: localDevice, parent: parent?.feedback,
                                         parentShowsUnmappable: parent?.showsUnmappableBuffers ?? false)
        guard now != feedback else { return }
        feedback = now
        offered = now.formats
        table = DmabufFormatTable(now)
        listeners.removeAll { $0.value == nil }
        for listener in listeners { listener.value?.sendFeedback() }
    }

    func listen(_ feedback: ZwpLinuxDmabufFeedback) { listeners.append(Weak(feedback)) }

    // MARK: fds held for clients

    /// Counts `n` more fds held for `client`; false when that passes the limit (nothing counted).
    func hold(_ n: Int, for client: Client) -> Bool {
        let now = heldFds[client, default: 0] + n
        guard now <= ClientLimits.dmabufFdsPerClient else { return false }
        heldFds[client] = now
        return true
    }

    func release(_ n: Int, for client: Client) {
        guard let held = heldFds[client] else { return }
        heldFds[client] = held > n ? held - n : nil
    }
}
