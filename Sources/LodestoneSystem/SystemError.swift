import Glibc

/// Lodestone's one error: what failed and, when there is one, why.
///
/// Every C call that can fail goes through one of the helpers below, which
/// turn its failure value (NULL, -1 with errno, or an error number) into this
/// error, as swift-nio's `NIOPosix/System.swift` does. The description is the
/// message a user reads, e.g. "cannot start 'foo': No such file or directory".
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words a user can act on ("wl_display_create failed",
    /// "cannot write PNG 'shot.png'").
    public let what: String
    /// Why, when the C side says: errno's text or the library's own message.
    public let reason: String?
    /// The C function that failed, when one did.
    public let call: String?
    /// The errno value behind `reason`, when there is one.
    public let errnoCode: Int32?

    /// A failure explained in words (a missing global, a test that timed out).
    public init(_ what: String, call: String? = nil, reason: String? = nil) {
        self.what = what
        self.call = call
        self.reason = reason
        errnoCode = nil
    }

    /// A failure with an errno value; 0 means the call gave no reason.
    public init(_ what: String, call: String? = nil, errno code: Int32) {
        self.what = what
        self.call = call
        errnoCode = code == 0 ? nil : code
        reason = code == 0 ? nil : String(cString: strerror(code))
    }

    public var description: String { reason.map { "\(what): \($0)" } ?? what }
}

/// Runs a C call that returns NULL on failure (`wl_display_create`,
/// `wl_global_create`, `wl_event_loop_add_*`, `wl_client_create`) and returns
/// its value. The error names `what` (default "NAME failed") with errno's
/// text when the call set errno.
@inline(__always)
public func call<T>(_ name: String, what: @autoclosure () -> String? = nil, _ body: () -> T?) throws(SystemError) -> T {
    errno = 0  // a stale errno must not become the reason
    if let value = body() { return value }
    let code = errno
    throw SystemError(what() ?? "\(name) failed", call: name, errno: code)
}

/// Runs a call whose result only says whether it worked (libwayland's
/// `== 0`, libpng's nonzero): `body` returns true on success.
@inline(__always)
public func check(_ name: String, what: @autoclosure () -> String? = nil, _ body: () -> Bool) throws(SystemError) {
    errno = 0
    if body() { return }
    let code = errno
    throw SystemError(what() ?? "\(name) failed", call: name, errno: code)
}

/// Runs a POSIX call that returns -1 and sets errno on failure (`socketpair`,
/// `pipe`, `fcntl`, `ftruncate`), again while it is interrupted (EINTR).
@inline(__always)
@discardableResult
public func syscall<T: FixedWidthInteger>(_ name: String, what: @autoclosure () -> String? = nil, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        guard result == -1 else { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(what() ?? "\(name) failed", call: name, errno: code)
    }
}

/// Runs a call that returns 0 or an error number instead of setting errno
/// (`posix_spawn`, `posix_spawnp`).
@inline(__always)
public func callReturningErrno(_ name: String, what: @autoclosure () -> String? = nil, _ body: () -> Int32) throws(SystemError) {
    let code = body()
    guard code == 0 else { throw SystemError(what() ?? "\(name) failed", call: name, errno: code) }
}

/// Runs a call that returns a negative error number on failure and zero or more on
/// success (libsystemd's sd-bus: `-ENOENT`), and returns its value.
@inline(__always)
@discardableResult
public func callReturningNegativeErrno(_ name: String, what: @autoclosure () -> String? = nil, _ body: () -> Int32) throws(SystemError) -> Int32 {
    let result = body()
    guard result < 0 else { return result }
    throw SystemError(what() ?? "\(name) failed", call: name, errno: -result)
}

// MARK: errno, read in one place

extension SystemError {
    /// The failure a call just reported through errno (`drmModeAddFB`, `mmap`, `stat`):
    /// for calls whose failure value the helpers above cannot take (a status compared by
    /// hand, a pointer checked against MAP_FAILED).
    public static func lastError(_ what: String, call: String? = nil) -> SystemError {
        SystemError(what, call: call, errno: errno)
    }
}

/// errno as the last call left it, for the few checks that branch on which failure it was
/// (`EEXIST` from an exclusive open, `ESRCH` from `kill(pid, 0)`, `EAGAIN` from a flush).
public var lastErrno: Int32 { errno }

/// What a read or write on a non-blocking descriptor did (`NonBlocking.run`).
public enum NonBlocking: Equatable, Sendable {
    /// Bytes moved (0 from a read: the other end closed).
    case done(Int)
    /// Nothing now: the descriptor would have blocked (EAGAIN); wait for it to be ready.
    case wouldBlock
    /// A failure, with its errno value.
    case failed(Int32)

    /// Runs a `read` or `write` (a result of -1 sets errno), again while it is interrupted
    /// (EINTR), and says which of the three it came to.
    public static func run(_ body: () -> Int) -> NonBlocking {
        while true {
            let n = body()
            if n >= 0 { return .done(n) }
            let code = errno
            if code == EINTR { continue }
            return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
        }
    }
}
