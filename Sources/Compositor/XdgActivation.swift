import CWaylandProtocols
import CWaylandServer
import WaylandServer

extension Interface {
    static var xdgActivation: UnsafePointer<wl_interface> { cwp_xdg_activation_v1_interface() }
    static var xdgActivationToken: UnsafePointer<wl_interface> { cwp_xdg_activation_token_v1_interface() }
}

/// `xdg_activation_v1` (xdg-activation-v1, staging): one client hands another (or itself)
/// a token to raise and focus a window, as a launcher starting an app or a link opening in
/// a running browser does. Focus is honoured: a token activates only if the client that
/// asked for it had the keyboard then, so a background app cannot steal focus.
final class XdgActivation: Resource, ProtocolObject {
    static let version: Int32 = 1
    static var interface: UnsafePointer<wl_interface> { Interface.xdgActivation }
    unowned let tokens: ActivationTokens

    enum Request: UInt32 { case destroy, getActivationToken, activate }

    init?(tokens: ActivationTokens, client: Client, version: UInt32, id: UInt32) {
        self.tokens = tokens
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        switch Request(rawValue: opcode) {
        case .destroy: destroy()
        case .getActivationToken: _ = XdgActivationToken(tokens: tokens, client: client, version: version, id: a.newID(0))
        case .activate:
            guard let token = a.string(0), let surface = WlSurface.from(a.object(1)) else { return }
            tokens.activate(token: token, surface: surface)
        case nil: break
        }
    }
}

/// `xdg_activation_token_v1`: collects what the token is for, then `commit` issues it
/// (`done`). Every request after `commit` is the already_used error.
final class XdgActivationToken: Resource, ProtocolObject {
    static var interface: UnsafePointer<wl_interface> { Interface.xdgActivationToken }
    unowned let tokens: ActivationTokens
    private var committed = false
    private weak var surface: WlSurface?

    enum Request: UInt32 { case setSerial, setAppID, setSurface, commit, destroy }

    init?(tokens: ActivationTokens, client: Client, version: UInt32, id: UInt32) {
        self.tokens = tokens
        super.init(client: client, interface: Self.interface, version: version, id: id)
    }

    override func dispatch(opcode: UInt32, arguments a: Arguments) {
        let request = Request(rawValue: opcode)
        if committed, request != .destroy, request != nil {
            return postError(XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED.rawValue, "this xdg_activation_token_v1 was already committed; make a new one")
        }
        switch request {
        case .setSerial, .setAppID: break  // focus at commit decides, not the serial; the app_id is a hint
        case .setSurface: surface = WlSurface.from(a.object(0))
        case .commit:
            committed = true
            xdg_activation_token_v1_send_done(pointer, tokens.issue(for: client, surface: surface))
        case .destroy: destroy()
        case nil: break
        }
    }
}

/// The tokens issued and not yet used. A token is honoured when, at its commit, the
/// keyboard was on a surface of the client that asked for it (on the surface it named,
/// if it named one); others are issued all the same (the protocol has no refusal) and
/// do nothing. Each token works once, and only the newest `limit` are kept.
public final class ActivationTokens {
    unowned let compositor: Compositor
    private var issued: [(token: String, honoured: Bool)] = []
    private let limit = 32

    init(compositor: Compositor) { self.compositor = compositor }

    func issue(for client: Client, surface: WlSurface?) -> String {
        // 128 random bits (the system's generator): not guessable by another client.
        let token = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16) }.joined()
        let focus = compositor.seat.keyboard.focus
        issued.append((token, focus?.client == client && (surface == nil || surface === focus)))
        if issued.count > limit { issued.removeFirst() }
        return token
    }

    /// A token for the command Lodestone starts (`XDG_ACTIVATION_TOKEN` in its environment):
    /// the user launched it, so its first window may take the focus with it.
    public func issueForLaunch() -> String {
        let token = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16) }.joined()
        issued.append((token, true))
        if issued.count > limit { issued.removeFirst() }
        return token
    }

    func activate(token: String, surface: WlSurface) {
        guard let index = issued.firstIndex(where: { $0.token == token }) else { return }
        let honoured = issued.remove(at: index).honoured
        // A minimized window counts: activation is how it comes back.
        guard honoured, let toplevel = (surface.role as? XdgSurface)?.toplevel,
              (compositor.scene.windows + compositor.scene.minimized).contains(where: { $0 === toplevel }) else { return }
        compositor.desktop.activate(toplevel)
    }
}

/// Random handles and tokens in hex, zero-padded to a fixed width (xdg_activation_v1, xdg-foreign).
extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
