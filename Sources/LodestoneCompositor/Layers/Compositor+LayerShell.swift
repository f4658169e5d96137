import Rendering

/// The core as the layer shell sees it (`LayerShellHost`).
extension Compositor: LayerShellHost {
    var headUnderPointer: OutputHead? {
        let p = seat.position.logical
        return layout.head(for: PixelRect(x: Int32(clamping: Int64(p.x)), y: Int32(clamping: Int64(p.y)), width: 1, height: 1))
    }
    var keyboardFocus: WlSurface? { seat.keyboard.focus }
    func setKeyboardFocus(_ surface: WlSurface?) { seat.setKeyboardFocus(surface) }

    func returnKeyboardToWindows() {
        if let next = scene.windows.last(where: \.isActivated) ?? scene.windows.last { desktop.activate(next) } else { seat.setKeyboardFocus(nil) }
    }

    func layerShown(_ layer: ZwlrLayerSurface) { accessibility.windowShown(layer) }

    func workAreasChanged() {
        for window in scene.windows { window.outputResized() }
    }

    /// The layer surface a surface belongs to (the test protocol names it by its namespace).
    func layerSurface(of surface: WlSurface) -> ZwlrLayerSurface? { scene.layerSurface(of: surface) }
}

extension ZwlrLayerSurface {
    /// How the test protocol names a layer surface where it names a window by title and
    /// app_id: its namespace, and the interface's name.
    var testControlName: (title: String, appID: String) { (namespace, "zwlr_layer_surface_v1") }
}
