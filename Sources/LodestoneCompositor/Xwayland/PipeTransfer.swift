import LodestoneSystem
import CWaylandServer
import Glibc
import WaylandServer

/// One pipe of a selection transfer (`XSelection`) on the loop: either reads what a
/// Wayland source writes until it closes its end, or writes X data to a Wayland client
/// as the pipe drains (more may be appended while an X owner sends INCR chunks). Never
/// blocks; the fd is closed when done.
final class PipeTransfer {
    private let fd: Int32
    private let loop: EventLoop
    private var watch: EventSource?
    private var buffer: [UInt8]
    private var offset = 0
    private let limit: Int
    private let reading: Bool
    /// Writing: no more data will be appended.
    private var complete: Bool
    private let done: (PipeTransfer) -> Void
    private(set) var isDone = false
    /// What was read, once the writer closed its end (nil: failed, or more than `limit`).
    private(set) var received: [UInt8]?
    /// Writing: called when all appended so far is in the pipe and more may come (an X
    /// owner's next INCR chunk is asked for only then, so a paste that reads slowly, or
    /// never, holds one chunk in Lodestone and not all of them).
    var drained: (() -> Void)?
    /// Writing: bytes appended and not yet in the pipe.
    var pendingBytes: Int { buffer.count - offset }

    /// Reads `fd` (non-blocking) to its end, at most `limit` bytes.
    init?(reading fd: Int32, limit: Int, loop: EventLoop, done: @escaping (PipeTransfer) -> Void) {
        (self.fd, self.loop, buffer, self.limit, reading, complete, self.done) = (fd, loop, [], limit, true, false, done)
        guard let w = try? loop.addFileDescriptor(fd, mask: UInt32(WL_EVENT_READABLE), { [unowned self] _ in self.readable() }) else {
            close(fd)
            return nil
        }
        watch = w
    }

    /// Writes `bytes` to `fd`: now as far as the pipe takes them, the rest as it drains.
    /// Unless `complete`, more comes with `append`.
    init(writing bytes: [UInt8], to fd: Int32, complete: Bool, loop: EventLoop, done: @escaping (PipeTransfer) -> Void) {
        (self.fd, self.loop, buffer, limit, reading, self.complete, self.done) = (fd, loop, bytes, 0, false, complete, done)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        writable()
    }

    /// More data to write; `complete`: the last of it.
    func append(_ bytes: [UInt8], complete: Bool) {
        guard !isDone, !reading else { return }
        buffer += bytes
        self.complete = complete
        if watch == nil { writable() }
    }

    private func readable() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            switch NonBlocking.run({ chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }) {
            case .done(let n) where n > 0:
                buffer += chunk[0..<n]
                if buffer.count > limit { return finish(nil) }
            case .done:
                return finish(buffer)
            case .wouldBlock:
                return
            case .failed:
                return finish(nil)
            }
        }
    }

    private func writable() {
        while offset < buffer.count {
            switch NonBlocking.run({ buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) } }) {
            case .done(let n) where n > 0:
                offset += n
            case .wouldBlock:
                // The pipe is full: go on when the client has read some.
                if watch == nil {
                    guard let w = try? loop.addFileDescriptor(fd, mask: UInt32(WL_EVENT_WRITABLE), { [unowned self] _ in self.writable() }) else {
                        return finish(nil)
                    }
                    watch = w
                }
                return
            case .done, .failed:
                return finish(nil)  // EPIPE: the paste target went away
            }
        }
        // All written so far: done, or waiting for the next chunk.
        buffer.removeAll(keepingCapacity: true)
        offset = 0
        watch?.remove()
        watch = nil
        if complete { finish([]) } else { drained?() }
    }

    private func finish(_ data: [UInt8]?) {
        guard !isDone else { return }
        cancel()
        received = reading ? data : nil
        done(self)
    }

    /// Ends the transfer without telling anyone (Xwayland went away).
    func cancel() {
        guard !isDone else { return }
        isDone = true
        drained = nil
        watch?.remove()
        watch = nil
        close(fd)
    }
}
