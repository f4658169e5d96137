/// What the test protocol asks of the layer shell (`TestControlHost`).
extension Compositor {
    /// The layer surface a surface belongs to (the test protocol names it by its namespace).
    func layerSurface(of surface: WlSurface) -> ZwlrLayerSurface? { scene.layerSurface(of: surface) }
}

extension ZwlrLayerSurface {
    /// How the test protocol names a layer surface where it names a window by title and
    /// app_id: its namespace, and the interface's name.
    var testControlName: (title: String, appID: String) { (namespace, "zwlr_layer_surface_v1") }
}
