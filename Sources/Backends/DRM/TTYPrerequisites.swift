import Glibc

/// What a TTY session needs from the machine, read once as plain values so the start-up
/// message is tested without a GPU or a seat (`probe()` reads them; `missing` words them).
///
/// A seat comes from one of libseat's backends: seatd (its socket), logind (a session of the
/// user on seat0) or the builtin one, which needs root *and* a virtual terminal (it runs
/// seatd in the process and takes the VT). Root alone is not enough: a container or an ssh
/// session has no VT, so root there still has no seat.
public struct TTYPrerequisites: Equatable, Sendable {
    /// `/dev/dri/card*`.
    public var cards: [String]
    /// seatd's socket (`SEATD_SOCK` or `/run/seatd.sock`) exists.
    public var seatdSocket: Bool
    /// logind runs a seat0 and this process belongs to a session (`XDG_SESSION_ID`).
    public var logindSession: Bool
    public var isRoot: Bool
    /// Standard input is a virtual console (`/dev/ttyN`, major 4, minor 1–63).
    public var onVirtualTerminal: Bool
    /// `/dev/input` exists.
    public var inputDevices: Bool

    public init(cards: [String], seatdSocket: Bool, logindSession: Bool, isRoot: Bool,
                onVirtualTerminal: Bool, inputDevices: Bool) {
        self.cards = cards
        self.seatdSocket = seatdSocket
        self.logindSession = logindSession
        self.isRoot = isRoot
        self.onVirtualTerminal = onVirtualTerminal
        self.inputDevices = inputDevices
    }

    /// The sentence for a missing seat, also used when libseat itself refuses.
    public static let noSeat = "no seat: libseat could not open a session (no logind session or seatd); "
        + "run from a text console as a user in the video/input groups, or start seatd"

    /// Whether one of libseat's backends can give a session.
    public var hasSeat: Bool { seatdSocket || logindSession || (isRoot && onVirtualTerminal) }

    /// Each missing piece in a few words, in the order they matter; empty when all is there.
    public var missing: [String] {
        var out: [String] = []
        if cards.isEmpty { out.append("no DRM device (/dev/dri has no card*: no GPU with a kernel modesetting driver)") }
        if !hasSeat { out.append(Self.noSeat) }
        if !inputDevices { out.append("no input devices (/dev/input is missing)") }
        return out
    }

    /// Reads this machine. Only `stat`/`access`/`readdir`: it cannot block.
    public static func probe() -> TTYPrerequisites {
        let seatdPath = getenv("SEATD_SOCK").map { String(cString: $0) } ?? "/run/seatd.sock"
        let session = getenv("XDG_SESSION_ID").map { $0.pointee != 0 } ?? false
        var st = stat()
        let vt = fstat(0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR && isVirtualConsole(st.st_rdev)
        return TTYPrerequisites(cards: DRMBackend.cards(), seatdSocket: access(seatdPath, F_OK) == 0,
                                logindSession: session && access("/run/systemd/seats/seat0", F_OK) == 0,
                                isRoot: getuid() == 0, onVirtualTerminal: vt,
                                inputDevices: access("/dev/input", F_OK) == 0)
    }

    /// `/dev/tty1`…`/dev/tty63`: character major 4, minor 1–63 (64 and up are serial ports).
    static func isVirtualConsole(_ device: dev_t) -> Bool {
        let major = (device >> 8) & 0xfff, minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        return major == 4 && (1...63).contains(minor)
    }
}
