import CWaylandClient
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// Drags from the parent session into Lodestone's window. The parent's `wl_data_device`
/// says enter (with an offer), motion, leave and drop over our window; each becomes the
/// same over the surface under it inside (`ExternalDrag`), with the parent's offer as the
/// drag's source, as `ParentSelection` makes the parent's clipboard a source inside. What
/// the client there answers (the MIME type it takes, its actions) is our answer to the
/// parent (`accept`, `set_actions`), so the parent's source hears the client's choice; a
/// drop's data is the parent offer's `receive` into the client's own pipe, and the
/// client's `finish` is ours.
///
/// And the reverse: a drag inside whose pointer leaves the window with the button held
/// carries on in the parent (`carryOut`): our `wl_data_device.start_drag` there, with the
/// press's serial and a source of ours offering the client's MIME types and actions; the
/// parent's target, action, drop and end reach the client's source (`OutgoingDrag`), and
/// a paste's pipe is handed to it, so no byte passes through Lodestone. An X app's drag
/// carries on the same way (its XDND over Lodestone's desktop, `XDragSource.handOff`).
final class ParentDrag {
    private unowned let compositor: Compositor
    private unowned let clipboard: ParentSelection<ParentClipboard>
    private let window: Proxy
    private let log: Logger
    /// The parent's drag over our window: its offer, the enter serial, and its drag inside.
    private var offer: ParentSelection<ParentClipboard>.ParentOffer?
    private var serial: UInt32 = 0
    private var drag: ExternalDrag?
    /// The drag entered our window's own surface (not our title bar): its coordinates are ours.
    private var onOutput = false
    private var dropped = false
    /// Our source in the parent for a drag carried out, until the parent ends it, and the
    /// icon shown there (a copy of the client's).
    private var outgoing: (source: Proxy, drag: OutgoingDrag, icon: (surface: Proxy, buffer: ClientShmBuffer)?)?
    private let globals: ParentGlobals

    init(compositor: Compositor, clipboard: ParentSelection<ParentClipboard>, window: Proxy, globals: ParentGlobals, logger: Logger) {
        self.compositor = compositor
        self.globals = globals
        self.clipboard = clipboard
        self.window = window
        log = logger
        clipboard.dragEvent = { [unowned self] opcode, a in self.event(opcode, a) }
    }

    /// The compositor may be gone already: only the parent's objects are let go.
    deinit {
        offer?.destroy()
        outgoing?.source.destroy { wl_data_source_destroy($0) }
    }

    private func event(_ opcode: UInt32, _ a: EventArguments) {
        switch opcode {
        case 1:  // enter(serial, surface, x, y, offer)
            end()
            serial = a.uint(0)
            onOutput = window.isObject(a.object(1))
            guard let offer = clipboard.takeOffer(a.object(4)) else { return }
            self.offer = offer
            log.debug("a drag from the parent is over the window: \(offer.mimeTypes.joined(separator: ", "))")
            let drag = ExternalDrag(compositor: compositor, source: offer, sourceActions: offer.sourceActions,
                                    answered: { [unowned self] in self.answer($0) }, finished: { [unowned self] in self.finished($0) })
            offer.sourceActionsChanged = { [unowned drag] in drag.sourceActionsChanged($0) }
            self.drag = drag
            moved(a.fixed(2), a.fixed(3), time: 0)
        case 2:  // leave: after a drop the client inside may still be reading
            if !dropped { end() }
        case 3: moved(a.fixed(1), a.fixed(2), time: a.uint(0))  // motion(time, x, y)
        case 4:  // drop
            guard let drag, !dropped else { return }
            dropped = true
            drag.drop()
        default: break
        }
    }

    /// Window-local coordinates are Lodestone's global logical ones.
    private func moved(_ x: Double, _ y: Double, time: UInt32) {
        drag?.moved(x: onOutput ? x : nil, y: onOutput ? y : nil, time: time)
    }

    /// The client under the drag answered: the parent hears the same. After the drop only
    /// its choice for `ask` can come, which the parent's source learns by set_actions.
    private func answer(_ answer: ExternalDrag.Answer) {
        guard let offer else { return }
        if !dropped { offer.proxy.request { wl_data_offer_accept($0, serial, answer.mime) } }
        if offer.proxy.version >= 3 {
            offer.proxy.request { wl_data_offer_set_actions($0, answer.actions, answer.preferred) }
        }
        offer.proxy.connection.flush()
    }

    /// The drop is over: `finish` if the client inside finished, and the offer goes.
    private func finished(_ success: Bool) {
        if success, let offer, offer.proxy.version >= 3 { offer.proxy.request { wl_data_offer_finish($0) } }
        log.debug("the parent's drag dropped inside: \(success ? "taken" : "not taken")")
        end()
    }

    private func end() {
        drag?.leave()
        drag = nil
        offer?.destroy()
        offer?.proxy.connection.flush()
        offer = nil
        dropped = false
    }

    // MARK: Inside to the parent

    /// The pointer left the window with a button held (the press `serial` on our window):
    /// a drag inside carries on in the parent. False when no drag is in progress.
    func carryOut(serial: UInt32) -> Bool {
        guard outgoing == nil, let drag = compositor.seat.handOffDrag() else { return false }
        guard let raw = clipboard.manager.request({ wl_data_device_manager_create_data_source($0) }) else {
            drag.cancelled()
            return true
        }
        let source = Proxy(raw, on: clipboard.manager.connection)
        for mime in drag.mimeTypes { source.request { wl_data_source_offer($0, mime) } }
        if source.version >= 3 { source.request { wl_data_source_set_actions($0, drag.actions) } }
        source.onEvent = { [unowned self, unowned drag] opcode, a in
            switch opcode {
            case 0: drag.target(a.string(0).isEmpty ? nil : a.string(0))  // target
            case 1:  // send: the client's source writes into the parent client's pipe
                drag.send(mime: a.string(0), fd: a.fd(1))
                close(a.fd(1))
            case 2:  // cancelled
                drag.cancelled()
                self.endOutgoing()
            case 3: drag.dropPerformed()
            case 4:  // dnd_finished
                drag.finished()
                self.endOutgoing()
            case 5: drag.action(a.uint(0))
            default: break
            }
        }
        // The client's source went away: ours goes too, and the parent ends its drag.
        drag.sourceGone = { [unowned self] in self.endOutgoing() }
        let icon = drag.icon.flatMap(makeIcon)
        outgoing = (source, drag, icon)
        clipboard.device.request(source, window) { device, source, origin in
            if let icon { icon.surface.request { wl_data_device_start_drag(device, source, origin, $0, serial) } }
            else { wl_data_device_start_drag(device, source, origin, nil, serial) }
        }
        if let icon, let picture = drag.icon {
            // The role is the icon's once start_drag is sent: now its buffer, at the client's offset.
            // (Before wl_surface 5 the offset is the attach's.)
            let version = icon.surface.version
            icon.surface.request(icon.buffer.buffer) { wl_surface_attach($0, $1, version >= 5 ? 0 : picture.x, version >= 5 ? 0 : picture.y) }
            icon.surface.request {
                if version >= 3 { wl_surface_set_buffer_scale($0, picture.scale) }
                if version >= 5 { wl_surface_offset($0, picture.x, picture.y) }
                wl_surface_damage($0, 0, 0, .max, .max)
                wl_surface_commit($0)
            }
        }
        source.connection.flush()
        log.debug("a drag inside left the window: carried on in the parent (\(drag.mimeTypes.joined(separator: ", ")))")
        return true
    }

    /// A surface in the parent showing the client's icon.
    private func makeIcon(_ picture: OutgoingDrag.Icon) -> (surface: Proxy, buffer: ClientShmBuffer)? {
        guard let raw = globals.compositor.request({ wl_compositor_create_surface($0) }),
              let buffer = ClientShmBuffer(shm: globals.shm, width: picture.width, height: picture.height) else { return nil }
        for y in 0..<Int(picture.height) {
            for x in 0..<Int(picture.width) { buffer[y * Int(buffer.stride / 4) + x] = picture.pixels[y * Int(picture.width) + x] }
        }
        return (Proxy(raw, on: globals.connection), buffer)
    }

    private func endOutgoing() {
        outgoing?.icon?.surface.destroy { wl_surface_destroy($0) }
        outgoing?.source.destroy { wl_data_source_destroy($0) }
        outgoing?.source.connection.flush()
        outgoing = nil
    }
}
