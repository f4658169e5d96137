import CWaylandServer
import Rendering
import WaylandServer

/// `zwlr_layer_surface_v1`: one surface on a layer of one head. Its set_* requests are
/// double-buffered (`LayerPlacement`); `LayerShell` places it on commit and sends the size
/// it gets (`configure`); it maps with its first buffer after acknowledging one, unmaps
/// with a null buffer (and must then make an initial commit again), and is `closed` when
/// its head goes or its margins leave it no room.
final class ZwlrLayerSurface: Resource, ZwlrLayerSurfaceV1Handler, SurfaceRole {
    unowned let layers: LayerShell
    /// Applies what the layer shell returns (`Desktop.Effect`: the keyboard's focus).
    private unowned let seat: Seat
    private(set) weak var surface: WlSurface?
    /// The head it is on; nil once closed.
    private(set) weak var head: OutputHead?
    /// What the client calls it ("waybar", "launcher", "notifications").
    let namespace: String
    let roleName = "zwlr_layer_surface_v1"
    private var pending: LayerPlacement
    /// The placement as last committed.
    private(set) var current: LayerPlacement
    /// Where the surface is, in global logical coordinates (`LayerShell.arrange`).
    var box = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private(set) var isMapped = false
    /// The initial commit was answered with a configure; reset when it unmaps.
    private(set) var initialized = false
    private var configured = false
    private var unackedSerials: [UInt32] = []
    private var lastAcked: UInt32?
    /// The size the last configure asked for.
    private var configuredSize: (width: Int32, height: Int32)?
    /// `closed` was sent: the surface stays unmapped and answers nothing until destroyed.
    private(set) var isClosed = false
    /// Sizes, zones and margins beyond this are refused or clamped, so no sum overflows.
    private static let limit: Int32 = 1 << 24

    init?(layers: LayerShell, seat: Seat, surface: WlSurface, head: OutputHead?, layer: ShellLayer, namespace: String,
          client: Client, version: UInt32, id: UInt32) {
        self.layers = layers
        self.seat = seat
        self.surface = surface
        self.head = head
        self.namespace = namespace
        pending = LayerPlacement(layer: layer)
        current = pending
        super.init(client: client, version: version, id: id)
        layers.added(self)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { return destroy() }
        guard surface != nil, !isClosed else { return }  // inert
        switch request {
        case .setSize:
            let (w, h) = (a.uint(0), a.uint(1))
            guard w <= UInt32(Self.limit), h <= UInt32(Self.limit) else {
                return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "size \(w)×\(h) is larger than \(Self.limit)")
            }
            (pending.width, pending.height) = (Int32(w), Int32(h))
        case .setAnchor:
            let anchor = LayerAnchor(rawValue: a.uint(0))
            guard LayerAnchor.all.isSuperset(of: anchor) else {
                return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR.rawValue, "anchor \(a.uint(0)) has bits beyond top, bottom, left and right")
            }
            pending.anchor = anchor
        case .setExclusiveZone: pending.exclusiveZone = min(a.int(0), Self.limit)
        case .setMargin:
            let m = (0..<4).map { max(-Self.limit, min(a.int($0), Self.limit)) }
            pending.margin = LayerMargin(top: m[0], right: m[1], bottom: m[2], left: m[3])
        case .setKeyboardInteractivity:
            // Before version 4 it was a boolean: on_demand did not exist.
            guard let mode = LayerKeyboardInteractivity(rawValue: a.uint(0)), mode != .onDemand || has(4) else {
                return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY.rawValue,
                                 "keyboard interactivity \(a.uint(0)) is not valid at version \(version)")
            }
            pending.keyboard = mode
        case .getPopup:
            guard let popup = a.object(0, as: XdgPopup.self) else { return }
            guard popup.parent == nil, popup.layerParent == nil else {
                return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                                 "get_popup with xdg_popup@\(popup.objectID), which already has a parent")
            }
            popup.layerParent = self
        case .ackConfigure: ackConfigure(a.uint(0))
        // Since 2
        case .setLayer:
            // As wlroots: the shell's error code, on this object (the shell may be gone).
            guard let layer = ShellLayer(a.uint(0)) else {
                return postError(ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER.rawValue, "layer \(a.uint(0)) is not a zwlr_layer_shell_v1.layer value")
            }
            pending.layer = layer
        case .destroy: break
        }
    }

    private func ackConfigure(_ serial: UInt32) {
        // Acknowledged already on the client's behalf (`acceptsBufferBeforeInitialAck`): wlcs
        // 1.5 acknowledges after its buffer.
        if layers.acceptsBufferBeforeInitialAck, let acked = lastAcked, serial <= acked { return }
        guard let index = unackedSerials.firstIndex(of: serial) else {
            return postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue,
                             "ack_configure with serial \(serial), which was never sent or is already acknowledged")
        }
        unackedSerials.removeFirst(index + 1)
        configured = true
        lastAcked = serial
    }

    /// Sends the size the surface gets, unless it already has it.
    func configure(width: Int32, height: Int32) {
        guard !isClosed, configuredSize.map({ $0 != (width, height) }) ?? true else { return }
        configuredSize = (width, height)
        let serial = layers.nextSerial()
        // A client that never acknowledges keeps only the newest serials.
        if unackedSerials.count >= 64 { unackedSerials.removeFirst() }
        unackedSerials.append(serial)
        send { zwlr_layer_surface_v1_send_configure($0, serial, UInt32(width), UInt32(height)) }
    }

    /// Tells the client the surface is gone for good (its head went, or it has no room).
    func close() {
        guard !isClosed else { return }
        unmap()
        isClosed = true
        head = nil
        send { zwlr_layer_surface_v1_send_closed($0) }
    }

    // MARK: SurfaceRole

    func surfaceWillCommit() -> Bool {
        guard let surface, !isClosed else { return true }
        if pending.width == 0 && !pending.anchor.isSuperset(of: [.left, .right]) {
            postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "width 0 without anchoring to both the left and the right edge")
            return false
        }
        if pending.height == 0 && !pending.anchor.isSuperset(of: [.top, .bottom]) {
            postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE.rawValue, "height 0 without anchoring to both the top and the bottom edge")
            return false
        }
        if case .some(.some) = surface.pending.buffer, !configured, layers.acceptsBufferBeforeInitialAck {
            // wlcs 1.5: as if the initial commit and its acknowledgement had happened.
            if !initialized {
                initialized = true
                current = pending
                layers.arrange()
            }
            if let sent = unackedSerials.last { ackConfigure(sent) }
        }
        if case .some(.some) = surface.pending.buffer, !configured {
            postError(ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE.rawValue, "commit with a buffer before acknowledging a configure")
            return false
        }
        return true
    }

    func surfaceCommitted() {
        guard let surface, !isClosed else { return }
        let before = current
        current = pending
        if !initialized {
            // The initial commit carries no buffer: placed, and told its size.
            initialized = true
            return layers.arrange()
        }
        if surface.hasContent && !isMapped {
            isMapped = true
            seat.apply(layers.mapped(self))
        } else if !surface.hasContent && isMapped {
            unmap()
            // A null buffer resets it to before its initial commit.
            initialized = false
            configured = false
            configuredSize = nil
        } else if current != before {
            seat.apply(layers.placementChanged(self, from: before))
        }
    }

    private func unmap() {
        guard isMapped else { return }
        isMapped = false
        seat.apply(layers.unmapped(self))
    }

    /// Its wl_surface went first: it leaves the screen and answers nothing more.
    func surfaceDestroyed() {
        unmap()
        layers.forget(self)
        surface = nil
    }

    override func destroyed() {
        unmap()
        layers.forget(self)
    }
}
