import CWaylandServer
import Rendering
import WaylandServer

/// `xdg_popup`: a menu or tooltip placed relative to a parent by positioner rules.
final class XdgPopup: Resource, XdgPopupHandler {
    unowned let host: any ShellHost
    let xdgSurface: XdgSurface
    private(set) weak var parent: XdgSurface?
    /// The layer surface this popup belongs to (`zwlr_layer_surface_v1.get_popup`), made
    /// with a null parent.
    weak var layerParent: ZwlrLayerSurface?
    private var rules: PositionerRules
    /// The popup's box relative to the parent's window geometry.
    private(set) var box = PixelRect(x: 0, y: 0, width: 0, height: 0)
    private var sentInitialConfigure = false
    private(set) var grabbed = false
    private var dismissed = false

    init?(xdgSurface: XdgSurface, parent: XdgSurface?, rules: PositionerRules, id: UInt32) {
        host = xdgSurface.host
        self.xdgSurface = xdgSurface
        self.parent = parent
        self.rules = rules
        super.init(client: xdgSurface.client, version: xdgSurface.version, id: id)
    }

    /// The toplevel at the root of this popup's parent chain.
    var rootToplevel: XdgToplevel? {
        var p = parent
        while let current = p {
            if let t = current.toplevel { return t }
            p = current.popup?.parent
        }
        return nil
    }

    /// The layer surface at the root of this popup's parent chain.
    var rootLayer: ZwlrLayerSurface? {
        var popup: XdgPopup? = self
        while let current = popup {
            if let layer = current.layerParent { return layer }
            popup = current.parent?.popup
        }
        return nil
    }

    /// Where the parent's window geometry starts (a layer surface's is its box), and
    /// whether it is on screen.
    private var parentOrigin: (x: Int32, y: Int32)? {
        if let parent { return parent.position }
        if let layer = layerParent, layer.surface != nil { return (layer.box.x, layer.box.y) }
        return nil
    }
    private var parentIsMapped: Bool { parent?.isMapped ?? layerParent?.isMapped ?? false }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy:
            if host.popups.contains(where: { $0.parent === xdgSurface }) {
                return xdgSurface.postWmBaseError(XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP.rawValue,
                                                       "xdg_popup destroyed while a child popup is still mapped")
            }
            destroy()
        case .grab:
            if xdgSurface.isMapped {
                return postError(XDG_POPUP_ERROR_INVALID_GRAB.rawValue, "grab requested after the popup was mapped")
            }
            // The grab must answer this client's current input (a press, a key), or the
            // popup is dismissed at once: no client captures the pointer on its own.
            guard host.isCurrentInputSerial(a.uint(1), of: client) else {
                host.log.info("dismissed a popup whose grab carried serial \(a.uint(1)), not from its client's current input")
                return dismiss()
            }
            grabbed = true
        case .reposition:
            guard let positioner = a.object(0, as: XdgPositioner.self) else { return }
            rules = positioner.rules
            // Since 3
            send { xdg_popup_send_repositioned($0, a.uint(1)) }
            sendConfigure()
        }
    }

    /// Places the popup inside the output, as its constraint adjustments allow.
    private func sendConfigure() {
        guard let parentOrigin else { return }
        let area = host.outputBounds.offsetBy(dx: Int32(0).clampedSubtracting(parentOrigin.x), dy: Int32(0).clampedSubtracting(parentOrigin.y))
        box = rules.place(within: area)
        send { xdg_popup_send_configure($0, box.x, box.y, box.width, box.height) }
        xdgSurface.sendConfigure()
        if xdgSurface.isMapped { updatePosition() }
    }

    private func updatePosition() {
        guard let parentOrigin else { return }
        host.moveWindow(xdgSurface, to: parentOrigin.x.clampedAdding(box.x), parentOrigin.y.clampedAdding(box.y))
    }

    /// Its layer surface moved (rearranged): the popup keeps its place beside it.
    func parentMoved() { if xdgSurface.isMapped { updatePosition() } }

    func committed() {
        guard let surface = xdgSurface.surface, !dismissed else { return }
        if !sentInitialConfigure {
            sendInitialConfigure()
            return
        }
        if surface.hasContent && !xdgSurface.isMapped {
            guard parentIsMapped, let parentOrigin else { return dismiss() }
            xdgSurface.position = (parentOrigin.x.clampedAdding(box.x), parentOrigin.y.clampedAdding(box.y))
            xdgSurface.isMapped = true
            host.popupMapped(self)
            if grabbed { host.popupGrabbed(self) }
        } else if !surface.hasContent && xdgSurface.isMapped {
            unmap()
        }
    }

    /// The answer to the initial commit; also sent when a buffer comes without
    /// one under `Options.acceptsBufferBeforeInitialAck`.
    func sendInitialConfigure() {
        guard !sentInitialConfigure else { return }
        sentInitialConfigure = true
        sendConfigure()
    }

    /// Closes the popup from the compositor's side (outside click, parent gone).
    func dismiss() {
        guard !dismissed else { return }
        dismissed = true
        // Children go first, topmost first.
        for child in host.popups.reversed() where child.parent === xdgSurface { child.dismiss() }
        send { xdg_popup_send_popup_done($0) }
        unmap()
    }

    private func unmap() {
        guard xdgSurface.isMapped else { return }
        xdgSurface.isMapped = false
        host.popupUnmapped(self)
    }

    override func destroyed() {
        unmap()
        xdgSurface.popup = nil
    }
}
