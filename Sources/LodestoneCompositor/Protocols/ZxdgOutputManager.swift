import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `zxdg_output_manager_v1` (xdg-output-unstable-v1): the output in logical
/// (compositor) coordinates, which wl_output's pixel mode and integer scale do not
/// give once a scale or transform applies. Toolkits, bars and screenshot tools read it.
final class ZxdgOutputManager: Resource, ZxdgOutputManagerV1Handler {
    static let version: Int32 = 3

    override init?(client: Client, version: UInt32, id: UInt32) {
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getXdgOutput:
            // libwayland has checked that the argument is a wl_output; a released one is
            // gone from the client's map, so `from` finds it whenever it is alive.
            _ = ZxdgOutput(output: a.object(1, as: WlOutput.self), client: client, version: version, id: a.newID(0))
        }
    }
}

/// `zxdg_output_v1`: one wl_output seen in logical coordinates. It describes itself once
/// when created and again whenever its wl_output does; from version 3 the wl_output's
/// `done` ends the description, before that its own.
final class ZxdgOutput: Resource, ZxdgOutputV1Handler {
    private weak var wlOutput: WlOutput?

    init?(output: WlOutput?, client: Client, version: UInt32, id: UInt32) {
        wlOutput = output
        super.init(client: client, version: version, id: id)
        guard let output else { return }
        output.xdgOutputs.append(self)
        sendDescription()
        if has(3) { output.sendDone() } else { send { zxdg_output_v1_send_done($0) } }
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .destroy { destroy() }
    }

    override func destroyed() { wlOutput?.xdgOutputs.removeAll { $0 === self } }

    /// Position, size, name and description; `WlOutput.sendAll` sends them before its
    /// `done`, and ends them with `zxdg_output_v1.done` for clients older than version 3.
    func sendDescription() {
        guard let head = wlOutput?.head else { return }
        // The head's place in the layout (`OutputLayout`).
        send { zxdg_output_v1_send_logical_position($0, head.bounds.x, head.bounds.y) }
        send { zxdg_output_v1_send_logical_size($0, head.bounds.width, head.bounds.height) }
        // Since 2
        if has(2) {
            send { zxdg_output_v1_send_name($0, head.name) }
            send { zxdg_output_v1_send_description($0, head.description) }
        }
    }

    /// The pre-version-3 end of a description (version 3 deprecates it for wl_output's).
    func sendLegacyDone() { if !has(3) { send { zxdg_output_v1_send_done($0) } } }
}
