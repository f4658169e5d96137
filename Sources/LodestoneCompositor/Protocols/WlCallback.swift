import CWaylandServer
import WaylandServer

/// `wl_callback`: a one-shot "done" notification (frame callbacks).
final class WlCallback: Resource, WlCallbackInterface {
    init?(client: Client, id: UInt32) {
        super.init(client: client, version: 1, id: id)
    }

    /// Gone with its client: a plane's update may outlive the client that asked for it.
    private var isDestroyed = false

    /// Sends done and destroys the callback, as the protocol requires.
    func done(_ data: UInt32) {
        guard !isDestroyed else { return }
        send { wl_callback_send_done($0, data) }
        destroy()
    }

    override func destroyed() { isDestroyed = true }
}
