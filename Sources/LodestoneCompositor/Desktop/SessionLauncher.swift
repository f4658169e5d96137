import Glibc
import Logging
import LodestoneSystem

/// The programs Lodestone starts for the user: the session's startup programs (config.toml's
/// `[session] startup`, a panel, a notifier) and the terminal on Super+Return. Each is a shell
/// command (`/bin/sh -c`), so `exec waybar` and `command -v mako && mako` work as in a sway
/// config. They outlive nothing: when Lodestone ends its clients lose their connection. The
/// executable reaps them on SIGCHLD (`reap`).
public final class SessionLauncher {
    /// What every program gets: WAYLAND_DISPLAY (DISPLAY with Xwayland), set once the socket
    /// listens and the backend runs.
    public var environment: [String: String] = [:]
    /// config.toml's `session.terminal`; nil: the first of `fallbackTerminals` on PATH.
    public var terminal: String?
    static let fallbackTerminals = ["foot", "x-terminal-emulator", "weston-terminal"]
    private var children: [ChildProcess] = []
    private let log: Logger

    init(log: Logger) { self.log = log }

    /// Starts `command` with the session's environment and, when given, an xdg-activation
    /// token (its first window takes the keyboard). A command that cannot start is logged.
    public func run(_ command: String, activationToken: String? = nil) {
        var env = environment
        if let activationToken { env["XDG_ACTIVATION_TOKEN"] = activationToken }
        do {
            let child = try ChildProcess(["/bin/sh", "-c", command], environment: env)
            children.append(child)
            log.info("started '\(command)' (pid \(child.pid))")
        } catch {
            log.error("\(error)")
        }
    }

    /// The terminal for Super+Return: the configured one, else the first found on PATH.
    var terminalCommand: String? {
        if let terminal { return terminal }
        let path = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
        return Self.fallbackTerminals.first { name in path.contains { access("\($0)/\(name)", X_OK) == 0 } }
    }

    func launchTerminal(activationToken: String) {
        guard let command = terminalCommand else {
            return log.warning("Super+Return: no terminal (set session.terminal in config.toml, or install \(Self.fallbackTerminals.joined(separator: ", ")))")
        }
        run(command, activationToken: activationToken)
    }

    /// Collects the programs that ended (on SIGCHLD), each logged with its status.
    public func reap() {
        children.removeAll { child in
            guard let status = child.reap() else { return false }
            log.info("session program (pid \(child.pid)) exited with status \(status)")
            return true
        }
    }
}
