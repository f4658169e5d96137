import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// `xdg_activation_v1` (xdg-activation-v1, staging): one client hands another (or itself)
/// a token to raise and focus a window, as a launcher starting an app or a link opening in
/// a running browser does. Focus is honoured: a token activates only if the client that
/// asked for it had the keyboard then, so a background app cannot steal focus.
final class XdgActivation: Resource, XdgActivationV1Handler {
    static let version: Int32 = 1
    unowned let tokens: ActivationTokens
    /// Brings forward the window a token names (the desktop's activation).
    unowned let activation: any WindowActivation

    init?(tokens: ActivationTokens, activation: any WindowActivation, client: Client, version: UInt32, id: UInt32) {
        self.tokens = tokens
        self.activation = activation
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .getActivationToken: _ = XdgActivationToken(tokens: tokens, client: client, version: version, id: a.newID(0))
        case .activate:
            guard let token = a.string(0), let surface = a.object(1, as: WlSurface.self) else { return }
            if let window = tokens.activate(token: token, surface: surface) { activation.activateWindow(window) }
        }
    }
}

/// `xdg_activation_token_v1`: collects what the token is for, then `commit` issues it
/// (`done`). Every request after `commit` is the already_used error.
final class XdgActivationToken: Resource, XdgActivationTokenV1Handler {
    unowned let tokens: ActivationTokens
    private var committed = false
    private weak var surface: WlSurface?

    init?(tokens: ActivationTokens, client: Client, version: UInt32, id: UInt32) {
        self.tokens = tokens
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if committed, request != .destroy {
            return postError(XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue, "this xdg_activation_token_v1 was already committed; make a new one")
        }
        switch request {
        case .setSerial, .setAppId: break  // focus at commit decides, not the serial; the app_id is a hint
        case .setSurface: surface = a.object(0, as: WlSurface.self)
        case .commit:
            committed = true
            send { xdg_activation_token_v1_send_done($0, tokens.issue(for: client, surface: surface)) }
        case .destroy: destroy()
        }
    }
}
