import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zwlr_output_manager_v1` (wlr-output-management-unstable-v1, version 2): the heads,
/// on or off, with their modes, places, scales and transforms, for tools that arrange
/// displays (wlr-randr, kanshi). Each head is a `zwlr_output_head_v1` and each of its modes
/// a `zwlr_output_mode_v1`; after a change only what changed is sent, then `done` with the
/// new serial (`OutputManagement`). Configurations: `ZwlrOutputConfiguration`.
final class ZwlrOutputManager: Resource, ZwlrOutputManagerV1Handler {
    static let version: Int32 = 2
    private unowned let host: OutputManagementHost
    private var heads: [ZwlrOutputHead] = []
    private var stopped = false

    init?(host: OutputManagementHost, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        super.init(client: client, version: version, id: id)
        host.outputManagement.managerBound(self)
        update(heads: host.outputManagement.heads, serial: host.outputManagement.serial)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .createConfiguration:
            _ = ZwlrOutputConfiguration(host: host, serial: a.uint(1), client: client, version: version, id: a.newID(0))
        case .stop:
            // No more events but `finished`, after which the object is gone.
            guard !stopped else { return }
            stopped = true
            host.outputManagement.managerDestroyed(self)
            send { zwlr_output_manager_v1_send_finished($0) }
            destroy()
        }
    }

    override func destroyed() { host.outputManagement.managerDestroyed(self) }

    /// Heads that went are `finished`, new ones introduced, the others send what changed;
    /// then `done`.
    func update(heads current: [OutputHead], serial: UInt32) {
        for resource in heads where !current.contains(where: { $0 === resource.head }) { resource.finish() }
        heads.removeAll { $0.head == nil }
        for head in current where !heads.contains(where: { $0.head === head }) {
            guard let resource = ZwlrOutputHead(head: head, manager: self) else { continue }
            send(resource) { zwlr_output_manager_v1_send_head($0, $1) }
            heads.append(resource)
        }
        for resource in heads { resource.sendChanges() }
        send { zwlr_output_manager_v1_send_done($0, serial) }
    }
}

/// `zwlr_output_head_v1`: one head as a manager's client sees it. It remembers what it
/// last sent, so a change sends only the properties that changed. Finished when the head
/// goes; inert from then on (`head` nil).
final class ZwlrOutputHead: Resource, ZwlrOutputHeadV1Interface {
    private(set) weak var head: OutputHead?
    private var modes: [ZwlrOutputMode] = []
    private var sent: Sent?

    /// What was last sent of the properties that change.
    private struct Sent: Equatable {
        var enabled: Bool, mode: HeadMode?, x: Int32, y: Int32, transform: OutputTransform, scale: Int32
    }

    init?(head: OutputHead, manager: ZwlrOutputManager) {
        self.head = head
        super.init(client: manager.client, version: manager.version, id: 0)
    }

    /// The head's name and identity the first time, then whatever changed of its modes
    /// and state (the current mode and scale only while it is on).
    func sendChanges() {
        guard let head else { return }
        if sent == nil {
            send { zwlr_output_head_v1_send_name($0, head.name) }
            send { zwlr_output_head_v1_send_description($0, head.description) }
            let id = head.identity
            if id.widthMillimetres > 0, id.heightMillimetres > 0 {
                send { zwlr_output_head_v1_send_physical_size($0, id.widthMillimetres, id.heightMillimetres) }
            }
            // Since 2
            if has(2) {
                send { zwlr_output_head_v1_send_make($0, id.make) }
                send { zwlr_output_head_v1_send_model($0, id.model) }
                if !id.serialNumber.isEmpty { send { zwlr_output_head_v1_send_serial_number($0, id.serialNumber) } }
            }
        }
        syncModes(head)
        let now = Sent(enabled: head.isEnabled, mode: head.isEnabled ? head.mode : nil, x: head.bounds.x, y: head.bounds.y,
                       transform: head.transform, scale: head.scale.v120)
        let was = sent
        sent = now
        if was?.enabled != now.enabled { send { zwlr_output_head_v1_send_enabled($0, now.enabled ? 1 : 0) } }
        guard now.enabled else { return }
        if was?.mode != now.mode || was?.enabled != true, let mode = modes.first(where: { $0.mode.matches(head.mode) }) {
            send(mode) { zwlr_output_head_v1_send_current_mode($0, $1) }
        }
        if was?.x != now.x || was?.y != now.y || was?.enabled != true { send { zwlr_output_head_v1_send_position($0, now.x, now.y) } }
        if was?.transform != now.transform || was?.enabled != true { send { zwlr_output_head_v1_send_transform($0, now.transform.rawValue) } }
        if was?.scale != now.scale || was?.enabled != true { send { zwlr_output_head_v1_send_scale($0, wl_fixed_from_double(head.scale.factor)) } }
    }

    /// Modes the head no longer has are finished; new ones introduced.
    private func syncModes(_ head: OutputHead) {
        for mode in modes where !head.modes.contains(where: { $0 == mode.mode }) { mode.finish() }
        modes.removeAll { m in !head.modes.contains { $0 == m.mode } }
        for mode in head.modes where !modes.contains(where: { $0.mode == mode }) {
            guard let resource = ZwlrOutputMode(mode: mode, head: head, of: self) else { continue }
            send(resource) { zwlr_output_head_v1_send_mode($0, $1) }
            resource.describe()
            modes.append(resource)
        }
    }

    /// The head went: its modes and it are finished, and it is inert.
    func finish() {
        for mode in modes { mode.finish() }
        modes.removeAll()
        send { zwlr_output_head_v1_send_finished($0) }
        head = nil
    }
}

/// `zwlr_output_mode_v1`: one mode of a head; inert (`head` nil) once finished.
final class ZwlrOutputMode: Resource, ZwlrOutputModeV1Interface {
    let mode: HeadMode
    private(set) weak var head: OutputHead?

    init?(mode: HeadMode, head: OutputHead, of resource: ZwlrOutputHead) {
        self.mode = mode
        self.head = head
        super.init(client: resource.client, version: resource.version, id: 0)
    }

    func describe() {
        send { zwlr_output_mode_v1_send_size($0, mode.width, mode.height) }
        if mode.refreshMilliHz > 0 { send { zwlr_output_mode_v1_send_refresh($0, mode.refreshMilliHz) } }
        if mode.isPreferred { send { zwlr_output_mode_v1_send_preferred($0) } }
    }

    func finish() {
        send { zwlr_output_mode_v1_send_finished($0) }
        head = nil
    }
}
