import CWaylandClient
import CWaylandProtocols
import Foundation
import Glibc
import WaylandClient

/// A client of the bench's own: a 200×200 window redrawn at every frame callback, each commit
/// with wp_presentation feedback, from buffers it reuses once released (as simple-shm does);
/// keeps commit → presented (milliseconds, CLOCK_MONOTONIC).
final class PresentationProbe {
    let globals: Globals
    let window: Window
    let presentation: Proxy
    var clockID: UInt32?
    var latencies: [Double] = []
    var discarded = 0
    private var feedbacks: [Proxy] = []
    private var buffers: [(buffer: ClientShmBuffer, busy: Bool)] = []
    private var frame: Proxy?
    private var frameDone = false
    private var shade: UInt32 = 0

    init(socketPath: String) throws {
        globals = try Globals(connection: try Connection(name: socketPath))
        window = try Window(globals, title: "presentation-probe", width: 200, height: 200)
        // Bound after the window's round trips: its clock_id comes with the next one, heard.
        guard let bound = globals.registry.bind(cwp_wp_presentation_interface(), version: 1) else { throw BenchError("no wp_presentation") }
        presentation = Proxy(bound, on: globals.connection)
        presentation.handleEvents(PresentationEvent.self) { [unowned self] event in
            if case .clockID(let id) = event { self.clockID = id }
        }
        try globals.connection.roundtrip()
    }

    /// Milliseconds on `clock` (the compositor's presentation clock: weston's is
    /// CLOCK_MONOTONIC_RAW, Lodestone's and wlroots' CLOCK_MONOTONIC).
    static func now(_ clock: UInt32 = UInt32(CLOCK_MONOTONIC)) -> Double {
        var ts = timespec()
        clock_gettime(clockid_t(clock), &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }

    /// A free buffer, or a new one (at most four).
    private func freeBuffer() -> Int? {
        if let i = buffers.firstIndex(where: { !$0.busy }) { return i }
        guard buffers.count < 4, let b = ClientShmBuffer(shm: globals.shm, width: 200, height: 200) else { return nil }
        let index = buffers.count
        b.buffer.handleEvents(BufferEvent.self) { [unowned self] event in
            if case .release = event { self.buffers[index].busy = false }
        }
        buffers.append((b, false))
        return index
    }

    /// A new frame: a changed fill, a feedback, a frame callback, the commit.
    private func draw() {
        guard let i = freeBuffer() else { return }
        shade = (shade &+ 8) & 0xff
        buffers[i].buffer.fill(0xff00_0000 | shade << 16 | (255 - shade))
        buffers[i].busy = true
        let surface = window.surface, c = globals.connection
        surface.request(buffers[i].buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        surface.request { wl_surface_damage_buffer($0, 0, 0, 200, 200) }
        frameDone = false
        frame = try? Proxy(creating: { surface.request { wl_surface_frame($0) } }, on: c, what: "wl_surface.frame")
        frame?.handleEvents(CallbackEvent.self) { [unowned self] _ in self.frameDone = true }
        if let feedback = try? Proxy(creating: { presentation.request(surface) { wp_presentation_feedback($0, $1) } }, on: c, what: "wp_presentation.feedback") {
            let committed = clockID.map { Self.now($0) }
            feedback.handleEvents(PresentationFeedbackEvent.self) { [unowned self, unowned feedback] event in
                switch event {
                case .syncOutput: return
                case .presented(let seconds, let nanoseconds, _, _, _):
                    if let committed { self.latencies.append(Double(seconds) * 1000 + Double(nanoseconds) / 1e6 - committed) }
                case .discarded: self.discarded += 1
                }
                if let i = self.feedbacks.firstIndex(where: { $0 === feedback }) { withExtendedLifetime(self.feedbacks.remove(at: i)) {} }
            }
            feedbacks.append(feedback)
        }
        surface.request { wl_surface_commit($0) }
        c.flush()
    }

    /// Draws at every frame callback for `seconds`.
    func run(seconds: Double) throws {
        let end = Self.now() + seconds * 1000
        draw()
        let fd = globals.connection.fileDescriptor
        while Self.now() < end {
            try globals.connection.flushChecked()
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, 20) > 0 { try globals.connection.readAndDispatch() }
            if frameDone { draw() }
        }
    }
}
