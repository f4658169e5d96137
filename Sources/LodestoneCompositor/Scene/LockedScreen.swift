import Rendering

/// What the screen shows while the session is locked (`SessionLock` sets `Scene.lock`;
/// nil: unlocked): every head covered by an opaque fill and, over it, the lock surface the
/// locker drew for that head, if it drew one. Nothing else is drawn, under the pointer or a
/// finger, or answered frame callbacks: the scene walks only these.
struct LockedScreen {
    /// One head and the lock surface shown on it.
    struct Cover {
        let bounds: PixelRect
        weak var surface: WlSurface?
    }

    var covers: [Cover]
    /// The fill: one opaque pixel, stretched over each head.
    let fill: Image

    /// Whether `surface` is shown on a head (a root lock surface; its subsurfaces through it).
    func shows(_ surface: WlSurface) -> Bool { covers.contains { $0.surface === surface } }
}

extension Scene {
    /// Whether a surface may have the keyboard or a pen's held tip now: any while unlocked;
    /// while locked, a lock surface shown on a head (or none).
    func mayReceiveInput(_ surface: WlSurface?) -> Bool {
        guard let lock, let surface else { return true }
        return lock.shows(rootSurface(surface))
    }

    /// A lock surface's top-left: its head's, while it is shown.
    func lockOrigin(of surface: WlSurface) -> (Int32, Int32)? {
        guard let cover = lock?.covers.first(where: { $0.surface === surface }) else { return nil }
        return (cover.bounds.x, cover.bounds.y)
    }

    /// Visits the shown lock surfaces' trees bottom to top with their global origins.
    func forEachLockSurface(_ lock: LockedScreen, _ body: (WlSurface, Int32, Int32) -> Void) {
        for cover in lock.covers {
            if let surface = cover.surface { walk(surface, x: cover.bounds.x, y: cover.bounds.y, body) }
        }
    }

    /// The lock surface accepting input at a global point, with local coordinates.
    func lockInputTarget(_ lock: LockedScreen, atX x: Double, y: Double) -> InputTarget? {
        var hit: InputTarget?
        forEachLockSurface(lock) { s, ox, oy in
            let sx = x - Double(ox), sy = y - Double(oy)
            if s.acceptsInput(x: sx, y: sy) { hit = .surface(s, sx, sy) }
        }
        return hit
    }

    /// A head's opaque fill while locked (`bounds`, global logical): one pixel stretched over it.
    func lockFill(_ lock: LockedScreen, bounds: PixelRect, output: Output) -> RenderElement {
        let pixels = output.pixels(logical: bounds)
        let toPixel = Affine.scale(1 / Double(bounds.width), 1 / Double(bounds.height))
        return RenderElement(image: lock.fill, bounds: pixels, outputToImage: Self.outputToImage(toPixel, logical: bounds, pixels: pixels), opaque: true)
    }
}
