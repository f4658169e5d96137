import LodestoneSystem
import CWaylandClient
import CWaylandProtocols
import Glibc
import WaylandClient

/// The demo's side of drag and drop (`wl_data_device` version 3): the drop panel's
/// `photo.jpg` chip is dragged with `wl_data_device.start_drag` (its picture as the drag
/// icon), and any drag over the window, ours or another app's, asks the panel whether the
/// spot takes it. A drop's data is read from a pipe in the demo's poll loop, never in a
/// blocking read: the source may be the demo itself, which writes only once it runs again.
final class DemoDragAndDrop {
    /// What the drop panel decides and hears.
    struct Target {
        /// Whether a drop at this window-local point would be taken.
        var accepts: (Point) -> Bool
        /// A drag is over the window at this point (nil: it left or dropped).
        var hovered: (Point?) -> Void
        /// The data of a drop arrived: its MIME type and bytes.
        var dropped: (String, [UInt8]) -> Void
        /// The drag left the window from this point, or was dropped there and not taken
        /// (the compositor tells a refused drop with leave).
        var left: (Point) -> Void
    }

    /// What the demo's own chip carries: its name as text.
    static let photoName = "photo.jpg"
    /// The types taken from other apps, in order of preference.
    static let accepted = ["text/uri-list", "text/plain;charset=utf-8", "text/plain"]

    private let globals: Globals
    private let manager: Proxy
    private let device: Proxy
    var target: Target?
    /// Our chip is being dragged (from start_drag until the drop performed or cancelled).
    var onSourceChanged: ((Bool) -> Void)?
    /// Each drag event in words (`LODESTONE_DEMO_TRACE`).
    var trace: ((String) -> Void)?
    /// Offers announced with `data_offer`, waiting for enter or selection.
    private var announced: [Offer] = []
    /// The drag over the window, its serial and where it is.
    private var current: Offer?
    private var enterSerial: UInt32 = 0
    private var position = Point.outside
    private var source: Proxy?
    private var icon: (surface: Proxy, buffer: ClientShmBuffer)?
    /// Drops being read: the pipe's read end, the offer to finish, what came so far.
    private var reads: [(fd: Int32, offer: Offer, mime: String, bytes: [UInt8])] = []

    init?(globals: Globals) {
        guard let seat = globals.seat, let raw = globals.registry.bind(cwp_wl_data_device_manager_interface(), version: 3) else { return nil }
        self.globals = globals
        manager = Proxy(raw, on: globals.connection)
        guard let d = manager.request({ m in seat.request { wl_data_device_manager_get_data_device(m, $0) } }) else { return nil }
        device = Proxy(d, on: globals.connection)
        device.onEvent = { [unowned self] opcode, a in self.deviceEvent(opcode, a) }
    }

    // MARK: Dragging the chip

    /// Starts dragging the chip from the press just made on `surface`; `draw` paints the
    /// icon (its top-left at the pointer's offset `(dx, dy)`). False if the compositor has
    /// no drag for us (the panel then imitates one).
    func startDrag(from surface: Proxy, scale: Int32, size: (width: Int32, height: Int32), offset: (dx: Int32, dy: Int32),
                   draw: (ClientShmBuffer) -> Void) -> Bool {
        guard source == nil, let s = manager.request({ wl_data_device_manager_create_data_source($0) }) else { return false }
        let source = Proxy(s, on: globals.connection)
        for mime in ["text/plain;charset=utf-8", "text/plain"] { source.request { wl_data_source_offer($0, mime) } }
        source.request { wl_data_source_set_actions($0, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE.rawValue) }
        source.onEvent = { [unowned self, unowned source] opcode, a in
            switch opcode {
            case 1:  // send: the photo's name into the target's pipe (a few bytes: it never blocks)
                let fd = a.fd(1)
                _ = Self.photoName.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            case 0: self.trace?("drag target \(a.string(0).isEmpty ? "none" : a.string(0))")
            case 2, 4:  // cancelled, dnd_finished: the drag is over
                self.trace?(opcode == 2 ? "drag cancelled" : "drag dnd_finished")
                self.sourceEnded(source)
            case 3: self.trace?("drag dnd_drop_performed")
            default: break  // action
            }
        }
        guard let i = try? Proxy(creating: { globals.compositor.request { wl_compositor_create_surface($0) } }, on: globals.connection, what: "wl_compositor.create_surface"),
              let buffer = ClientShmBuffer(shm: globals.shm, width: size.width * scale, height: size.height * scale) else {
            source.destroy { wl_data_source_destroy($0) }
            return false
        }
        draw(buffer)
        device.request(source, surface, { d, s, o in
            i.request { wl_data_device_start_drag(d, s, o, $0, globals.lastButtonSerial) }
        })
        i.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        i.request { wl_surface_set_buffer_scale($0, scale); wl_surface_offset($0, offset.dx, offset.dy); wl_surface_commit($0) }
        self.source = source
        icon = (i, buffer)
        trace?("drag started")
        onSourceChanged?(true)
        return true
    }

    private func sourceEnded(_ ended: Proxy) {
        guard ended === source else { return }
        ended.destroy { wl_data_source_destroy($0) }
        source = nil
        icon?.surface.destroy { wl_surface_destroy($0) }
        icon = nil
        onSourceChanged?(false)
    }

    // MARK: Drags over the window

    private func deviceEvent(_ opcode: UInt32, _ a: EventArguments) {
        switch opcode {
        case 0:  // data_offer: a new offer, its MIME types follow
            if let raw = a.object(0) { announced.append(Offer(Proxy(raw, on: globals.connection))) }
        case 1:  // enter
            let raw = a.object(4)
            current = announced.firstIndex { $0.proxy.isObject(raw) }.map { announced.remove(at: $0) }
            enterSerial = a.uint(0)
            trace?("drag enter \(current?.mimeTypes.joined(separator: ",") ?? "no data")")
            moved(to: Point(a.fixed(2), a.fixed(3)))
        case 2:  // leave
            trace?("drag leave")
            current?.destroy()
            current = nil
            target?.left(position)
        case 3: moved(to: Point(a.fixed(1), a.fixed(2)))  // motion
        case 4: drop()
        case 5:  // selection: the clipboard, not ours to use; its offer goes
            let raw = a.object(0)
            if let i = announced.firstIndex(where: { $0.proxy.isObject(raw) }) { announced.remove(at: i).destroy() }
        default: break
        }
    }

    /// The drag moved: the offer is accepted where the panel takes it and refused elsewhere,
    /// with copy (the folder keeps a copy) as the action.
    private func moved(to p: Point) {
        position = p
        target?.hovered(p)
        guard let current else { return }
        let mime = Self.accepted.first { current.mimeTypes.contains($0) }
        let takes = mime != nil && target?.accepts(p) == true
        guard takes != current.takes || !current.answered else { return }
        current.answered = true
        current.takes = takes
        let copy = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue
        current.proxy.request { wl_data_offer_accept($0, enterSerial, takes ? mime : nil) }
        current.proxy.request { wl_data_offer_set_actions($0, takes ? copy : 0, takes ? copy : 0) }
    }

    /// The drop: the data is read through a pipe (in `readable`), then the offer finished.
    private func drop() {
        trace?("drag drop")
        target?.hovered(nil)
        guard let offer = current, offer.takes, let mime = Self.accepted.first(where: { offer.mimeTypes.contains($0) }) else {
            // Not ours to take: the compositor follows with leave (and the source hears cancelled).
            return
        }
        current = nil
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return offer.destroy() }
        _ = fcntl(fds[0], F_SETFL, O_NONBLOCK)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        offer.proxy.request { wl_data_offer_receive($0, mime, fds[1]) }
        close(fds[1])
        globals.connection.flush()
        reads.append((fds[0], offer, mime, []))
    }

    /// The pipes of drops being read, for the demo's poll.
    var readFDs: [Int32] { reads.map(\.fd) }

    /// `fd` is readable: more data, or the end (the offer is finished and the panel told).
    func readable(_ fd: Int32) {
        guard let i = reads.firstIndex(where: { $0.fd == fd }) else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        switch NonBlocking.run({ read(fd, &chunk, chunk.count) }) {
        case .done(let n) where n > 0:
            if reads[i].bytes.count < 1 << 20 { reads[i].bytes += chunk[0..<n] }
            return
        case .wouldBlock: return
        case .done, .failed: break
        }
        let done = reads.remove(at: i)
        close(fd)
        done.offer.proxy.request { wl_data_offer_finish($0) }
        done.offer.destroy()
        trace?("drop received \(done.mime) \(String(decoding: done.bytes, as: UTF8.self))")
        target?.dropped(done.mime, done.bytes)
    }

    /// A `wl_data_offer` and the MIME types it announced.
    final class Offer {
        let proxy: Proxy
        private(set) var mimeTypes: [String] = []
        /// Whether we answered it, and whether we take it.
        var answered = false
        var takes = false

        init(_ proxy: Proxy) {
            self.proxy = proxy
            proxy.onEvent = { [unowned self] opcode, a in
                if opcode == 0, mimeTypes.count < 256 { mimeTypes.append(a.string(0)) }
            }
        }

        func destroy() { proxy.destroy { wl_data_offer_destroy($0) } }
    }
}
