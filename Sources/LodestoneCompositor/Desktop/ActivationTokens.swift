import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// The tokens issued and not yet used. A token is honoured when, at its commit, the
/// keyboard was on a surface of the client that asked for it (on the surface it named,
/// if it named one); others are issued all the same (the protocol has no refusal) and
/// do nothing. Each token works once, and only the newest `limit` are kept.
///
/// It reads the keyboard's focus and the scene's windows, and activates nothing itself:
/// `activate` returns the window a token brings forward, and the `xdg_activation_v1`
/// handler has the desktop activate it (`WindowActivation`).
public final class ActivationTokens {
    private let keyboard: KeyboardFocus
    private let scene: Scene
    private var issued: [(token: String, honoured: Bool)] = []
    private let limit = 32

    init(keyboard: KeyboardFocus, scene: Scene) {
        self.keyboard = keyboard
        self.scene = scene
    }

    func issue(for client: Client, surface: WlSurface?) -> String {
        // 128 random bits (the system's generator): not guessable by another client.
        let token = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16).leftPadded(to: 16) }.joined()
        let focus = keyboard.focus
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

    /// Uses `token` up; returns the window it brings forward, or nil when it does nothing
    /// (unknown, used, not honoured, or not a mapped toplevel's surface).
    func activate(token: String, surface: WlSurface) -> DesktopWindow? {
        guard let index = issued.firstIndex(where: { $0.token == token }) else { return nil }
        let honoured = issued.remove(at: index).honoured
        // A minimized window counts: activation is how it comes back.
        guard honoured, let toplevel = (surface.role as? XdgSurface)?.toplevel,
              (scene.windows + scene.minimized).contains(where: { $0 === toplevel }) else { return nil }
        return toplevel
    }
}

/// Random handles and tokens in hex, zero-padded to a fixed width (xdg_activation_v1, xdg-foreign).
extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
