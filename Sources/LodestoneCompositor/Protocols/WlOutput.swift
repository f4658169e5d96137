import CWaylandServer
import WaylandServer

/// `wl_output`: tells clients one head's geometry, mode, scale, transform and name
/// (`OutputHead`, as `zwlr_output_manager_v1` last arranged it).
final class WlOutput: Resource, WlOutputHandler {
    static let version: Int32 = 4
    weak var output: Output?
    weak var head: OutputHead?
    /// The client's `zxdg_output_v1`s for this output: they describe themselves before
    /// each `done`.
    var xdgOutputs: [ZxdgOutput] = []

    init?(head: OutputHead, output: Output, client: Client, version: UInt32, id: UInt32) {
        self.output = output
        self.head = head
        super.init(client: client, version: version, id: id)
        head.resources.append(self)
        sendAll()
    }

    func handle(_ request: Request, _ arguments: Arguments) {
        if request == .release { destroy() }
    }

    /// The client destroyed it: no event may name it any more (a surface's leave).
    private(set) var isDestroyed = false

    override func destroyed() {
        isDestroyed = true
        head?.resources.removeAll { $0 === self }
    }

    /// The whole description, ended by done.
    func sendAll() {
        guard output != nil, let head else { return }
        let b = head.bounds, id = head.identity
        // A virtual head has no physical size (0), so clients fall back to the scale. Its
        // position is in the global space, as xdg_output's logical_position.
        send { wl_output_send_geometry($0, b.x, b.y, id.widthMillimetres, id.heightMillimetres, Int32(WL_OUTPUT_SUBPIXEL_UNKNOWN.rawValue),
                                id.make, id.model.isEmpty ? head.name : id.model, head.transform.rawValue) }
        send { wl_output_send_mode($0, WL_OUTPUT_MODE_CURRENT.rawValue | (head.mode.isPreferred ? WL_OUTPUT_MODE_PREFERRED.rawValue : 0),
                            head.mode.width, head.mode.height, head.refreshMilliHz) }
        // Since 2
        // A fractional scale is advertised rounded up: clients without wp_fractional_scale
        // draw that sharp and the compositor scales them down (as wlroots does).
        if has(2) { send { wl_output_send_scale($0, head.scale.ceiling) } }
        // Since 4
        if has(4) {
            send { wl_output_send_name($0, head.name) }
            send { wl_output_send_description($0, head.description) }
        }
        for xdgOutput in xdgOutputs { xdgOutput.sendDescription() }
        sendDone()
        for xdgOutput in xdgOutputs { xdgOutput.sendLegacyDone() }
    }

    /// Ends a description (wl_output version 1 has no `done`).
    func sendDone() { if has(2) { send { wl_output_send_done($0) } } }
}
