import PointerAdaptation
import CWaylandServer
import Rendering
import WaylandServer

/// The cursor the client under the pointer chose, composed by Lodestone into its frame
/// (never on a plane, never by the parent): the surface it gave `wl_pointer.set_cursor` (with the theme
/// cursor name its image was recognised as, if any), a shape it named with
/// `wp_cursor_shape_device_v1.set_shape`, or no cursor at all. `AppCursorPolicy.source`
/// (PointerAdaptation's) decides what is shown: the adaptive pointer in the name's form, the
/// client's own image, or the theme's image for a name that has no adaptive form.
///
/// It holds no seat: the seat checks who may choose the cursor, tells it where the pointer
/// is (`follow`) and its side of the decision (`seatChanged`), and pushes its changes to the
/// pointer; a commit of the cursor's surface, which comes from a client while the seat is not
/// on the stack, is told through `onChange`.
final class ComposedClientCursor {
    /// Where its image is damaged and at which scale themes are read.
    private unowned let output: Output
    /// The cursor themes: standard images and the fingerprints of client images.
    let themes: CursorThemes
    /// The decision's inputs the seat last pushed (the drag, the focus, the settings); this
    /// cursor's own choice is laid over them (`policy`).
    private var pushed: AppCursorPolicy
    /// A frame for what is damaged.
    private unowned let clock: FrameClock
    /// The whole pixel the pointer is on (global logical), and whether it is off every
    /// output, as the seat last told (`follow`).
    private var pointerPixel: (x: Int32, y: Int32) = (0, 0)
    private var pointerOutside = false
    /// What the client chose changed on a commit of its cursor surface: the seat pushes it.
    var onChange: () -> Void = {}
    private(set) weak var surface: WlSurface?
    private var hotspot: (x: Int32, y: Int32) = (0, 0)
    /// The client asked for no cursor (a null surface).
    private var hidden = false
    /// The shape the client named, replacing any surface.
    private(set) var shape: CursorName?
    private var role: ClientCursorSurfaceRole?
    private var lastBounds: PixelRect?
    /// set_cursor and set_shape requests accepted so far (the test protocol's cursor_state).
    private(set) var sets: UInt32 = 0

    init(output: Output, themes: CursorThemes, clock: FrameClock, settings: AppCursorPolicy, pointerAt point: (x: Double, y: Double)) {
        self.output = output
        self.themes = themes
        pushed = settings
        self.clock = clock
        follow(point, outside: false)
    }

    /// Where the pointer is now (global logical), and whether it is off every output.
    func follow(_ point: (x: Double, y: Double), outside: Bool) {
        pointerPixel = (Int32(clamping: Int(point.x.rounded(.down))), Int32(clamping: Int(point.y.rounded(.down))))
        pointerOutside = outside
    }

    /// `wl_pointer.set_cursor` from the client the seat let choose: true when what it shows
    /// changed (the seat pushes it to the pointer).
    func set(from pointer: WlPointer, surface new: WlSurface?, hotspotX: Int32, hotspotY: Int32) -> Bool {
        sets &+= 1
        damage()
        shape = nil
        guard let new else {
            surface = nil
            hidden = true
            damage()
            return true
        }
        if new !== surface {
            // Toolkits set the same cursor surface again after every enter: a surface that
            // is already a cursor keeps its role object (and what its image was recognised as).
            let role = new.role as? ClientCursorSurfaceRole ?? ClientCursorSurfaceRole(cursor: self)
            guard new.assignRole(role, error: (pointer, WL_POINTER_ERROR_ROLE.rawValue)) else { return false }
            self.role = role
            role.recognise(new)
        }
        surface = new
        hidden = false
        hotspot = (hotspotX, hotspotY)
        damage()
        return true
    }

    /// `wp_cursor_shape_device_v1.set_shape`: the cursor by name. It replaces a surface (and
    /// a surface set later replaces it). The seat pushes the change to the pointer.
    func setShape(_ name: CursorName) {
        sets &+= 1
        damage()
        shape = name
        surface = nil
        hidden = false
        damage()
    }

    /// `wl_surface.offset` or an attach offset on the cursor surface moves the hotspot.
    func offset(dx: Int32, dy: Int32) {
        hotspot = (hotspot.x.clampedSubtracting(dx), hotspot.y.clampedSubtracting(dy))
    }


    var origin: (Int32, Int32) {
        let p = pointerPixel
        return (p.x.clampedSubtracting(hotspot.x), p.y.clampedSubtracting(hotspot.y))
    }

    /// The pointer went to another surface: its client chooses anew. The seat, which asked,
    /// pushes the change to the pointer itself (it is on the stack).
    func reset() {
        damage()
        surface = nil
        hidden = false
        shape = nil
        damage()
    }

    /// The cursor's surface went away; true when it was this cursor's, and the seat, which
    /// asked, pushes the change to the pointer.
    func surfaceDestroyed(_ gone: WlSurface) -> Bool {
        guard surface === gone else { return false }
        surface = nil
        role = nil
        hidden = true
        damage()
        return true
    }

    /// The client asked for no cursor (the test protocol's cursor_state).
    var isHidden: Bool { appCursor == .hidden }
    /// What the focused client chose, in the decision's terms.
    var appCursor: AppCursor {
        if let shape { return .named(shape) }
        if let surface { return .image((surface.role as? ClientCursorSurfaceRole)?.name) }
        return hidden ? .hidden : .unset
    }

    /// Which pointer shows over the app: the adaptive pointer, this image, or a theme's.
    var policy: AppCursorPolicy {
        var p = pushed
        p.cursor = appCursor
        return p
    }

    /// The seat's side of the decision, pushed when it changes and before each input and
    /// frame: what shows may change, so the old and new images are repainted.
    func seatChanged(_ policy: AppCursorPolicy) {
        guard policy != pushed else { return }
        pushed = policy
        damage()
    }

    /// Whether images are fingerprinted at all: only the adaptive pointer reads names.
    var readsCursorNames: Bool { pushed.readsCursorNames }

    /// Whether a theme has an image for `name` at the output's scale.
    func themeHasImage(_ name: CursorName) -> Bool { themes.standardCursor(name, scale: output.scale.ceiling) != nil }

    /// What the client's cursor means, when it says: the shape it named, or the theme cursor
    /// its image was recognised as.
    var name: CursorName? { shape ?? surface.flatMap { ($0.role as? ClientCursorSurfaceRole)?.name } }

    /// The image shown instead of the adaptive pointer, if any, and where it goes.
    private var shown: (image: Image, bounds: PixelRect, toImage: Affine)? {
        if pointerOutside { return nil }
        switch policy.source(themeHasImage: themeHasImage) {
        case .adaptive:
            return nil
        case .clientImage:
            // An empty cursor surface shows nothing.
            guard let s = surface, let texture = s.texture else { return nil }
            let (ox, oy) = origin
            return (texture, PixelRect(x: ox, y: oy, width: s.width, height: s.height), s.surfaceToBuffer)
        case .standardCursor(let name):
            let scale = output.scale.ceiling
            guard let c = themes.standardCursor(name, scale: scale) else { return nil }
            let (px, py) = pointerPixel
            // Rounded up so no pixel of the image is cut off at a fractional size.
            let w = (c.image.width + c.scale - 1) / c.scale, h = (c.image.height + c.scale - 1) / c.scale
            let bounds = PixelRect(x: px - c.hotspot.x / c.scale, y: py - c.hotspot.y / c.scale, width: w, height: h)
            return (c.image, bounds, .scale(Double(c.scale), Double(c.scale)))
        }
    }

    /// Where the shown image is drawn, in global logical coordinates; nil while the adaptive
    /// pointer draws the pointer.
    private var bounds: PixelRect? { shown?.bounds }

    /// What the client chose changed on a commit: the seat hears it and pushes it to the
    /// pointer before the next input or frame, and the old and new images are repainted.
    private func changed() {
        onChange()
        damage()
    }

    func damage() {
        if let last = lastBounds { output.damage(logical: last) }
        lastBounds = bounds
        if let now = lastBounds { output.damage(logical: now) }
        clock.schedule()
    }

    /// The cursor image, when it is the one to show.
    func element(output: Output) -> RenderElement? {
        guard let (image, bounds, toLocalImage) = shown else { return nil }
        let pixels = output.pixels(logical: bounds)
        return RenderElement(image: image, bounds: pixels, outputToImage: Scene.outputToImage(toLocalImage, logical: bounds, pixels: pixels))
    }

    /// The role's new buffer was recognised (or not): what shows may change.
    fileprivate func imageCommitted(by role: ClientCursorSurfaceRole) {
        if role === self.role, surface != nil { changed() } else { damage() }
    }
}

/// The role a surface gets from `wl_pointer.set_cursor`. It remembers which theme cursor
/// the surface's current buffer is, worked out once per committed buffer.
final class ClientCursorSurfaceRole: SurfaceRole {
    unowned let cursor: ComposedClientCursor
    let roleName = "wl_pointer cursor"
    /// The theme cursor the current buffer shows, if it is one.
    private(set) var name: CursorName?
    private var recognisedCommit: UInt64?

    init(cursor: ComposedClientCursor) { self.cursor = cursor }

    func surfaceCommitted() {
        guard let surface = cursor.surface, surface.role === self else { return cursor.damage() }
        recognise(surface)
        cursor.imageCommitted(by: self)
    }

    /// Fingerprints the surface's buffer if it is new since the last look (and the pointer
    /// mode cares about names at all).
    func recognise(_ surface: WlSurface) {
        guard recognisedCommit != surface.bufferCommits else { return }
        recognisedCommit = surface.bufferCommits
        guard cursor.readsCursorNames, let texture = surface.texture else {
            name = nil
            return
        }
        name = texture.reading { cursor.themes.name(of: texture, scale: surface.scale) }
    }
}
