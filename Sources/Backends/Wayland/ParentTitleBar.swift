import CWaylandClient
import LodestoneSystem
import Logging
import Rendering
import WaylandClient

/// The title bar Lodestone draws on its own window when the parent draws none: the parent
/// offers no `zxdg_decoration_manager_v1` (GNOME's mutter) or answers "client side".
///
/// Drawn by Lodestone rather than through libdecor: it is the bar Lodestone already draws
/// for its own clients (`TitleBarImage`), so a nested session looks like its windows, and
/// it needs no decoration plugin (libdecor draws nothing when its cairo plugin, a separate
/// package, is missing) and leaves the window's `xdg_toplevel` and configure flow where
/// they are (libdecor would own both).
///
/// One subsurface of the window, below it, covering the window and an invisible margin
/// around it: the bar (opaque, `TitleBarImage.height` tall) sits above the output, the
/// margin is transparent and takes the presses that resize. The window's own surface stays
/// the output pixel for pixel, so pointer coordinates on it need no offset; the window
/// geometry (set by `ParentWindow`) starts at the bar's top.
///
/// The subsurface is synchronized: a new bar (new width, activation) is cached until the
/// window's next commit, so bar and output change size in the same parent frame.
final class ParentTitleBar {
    static var height: Int32 { TitleBarImage.height }
    /// The invisible margin around the window where a press starts a resize.
    static let border: Int32 = 8
    /// Along an edge, this close to a corner a press resizes both ways.
    static let corner: Int32 = 24
    /// Two presses on the bar within this many milliseconds are a double click.
    static let doubleClickMilliseconds: UInt32 = 400
    /// A press on the bar moves the window once the pointer went this far (logical pixels).
    static let dragThreshold = 3.0

    /// What a press on the decoration does.
    enum Part: Equatable {
        case bar
        case button(TitleBarImage.Button)
        /// An `xdg_toplevel.resize_edge`.
        case edge(UInt32)
    }

    /// What the window should ask the parent for.
    enum Action: Equatable {
        case move, resize(edge: UInt32), toggleMaximized, minimize, close
        /// Right click on the bar: the parent's window menu, at bar-surface coordinates.
        case windowMenu(x: Int32, y: Int32)
    }

    let surface: Proxy
    private let subsurface: Proxy
    private let shm: Proxy
    private let log: Logger
    /// The buffer attached now, and earlier ones the parent may still be reading.
    private var current: ClientShmBuffer?
    private var retired: [ClientShmBuffer] = []
    /// What the current buffer shows: frame width and content height (logical), scale, activation.
    private var drawnFor: (width: Int32, contentHeight: Int32, scale: Int32, activated: Bool)?
    private var width: Int32 = 1, contentHeight: Int32 = 1
    /// While maximized there are no free edges to resize from.
    private(set) var isMaximized = false

    /// The pressed button (acts if the press ends over it), and the last press on the bar itself.
    private var pressedButton: TitleBarImage.Button?
    private var lastBarPress: UInt32?
    /// A left press on the bar that may become a move: where (surface-local) and its serial.
    private var barPress: (x: Double, y: Double, serial: UInt32)?
    /// Where the parent's pointer is on the decoration (surface-local, logical).
    private(set) var pointer: (x: Double, y: Double) = (0, 0)

    /// A subsurface of `window` below it; throws when the parent's connection failed.
    init(compositor: Proxy, subcompositor: Proxy, shm: Proxy, window: Proxy, logger: Logger) throws(SystemError) {
        self.shm = shm
        log = logger
        let connection = shm.connection
        let surface = try Proxy(creating: { compositor.request { wl_compositor_create_surface($0) } }, on: connection, what: "wl_compositor.create_surface")
        do {
            subsurface = try Proxy(creating: { subcompositor.request(surface, window) { wl_subcompositor_get_subsurface($0, $1, $2) } },
                                   on: connection, what: "wl_subcompositor.get_subsurface")
        } catch {
            surface.destroy { wl_surface_destroy($0) }
            throw error
        }
        self.surface = surface
        subsurface.request { wl_subsurface_set_position($0, -Self.border, -Self.height - Self.border) }
        // Below the window: where both are, the output gets the pointer.
        subsurface.request(window) { wl_subsurface_place_below($0, $1) }
    }

    deinit {
        subsurface.destroy { wl_subsurface_destroy($0) }
        surface.destroy { wl_surface_destroy($0) }
    }

    // MARK: Drawing

    /// Draws the bar for a window whose output is `width`×`contentHeight` logical pixels and
    /// commits it (applied with the window's next commit); false when nothing changed.
    @discardableResult
    func update(width: Int32, contentHeight: Int32, scale: Int32, activated: Bool, maximized: Bool) -> Bool {
        isMaximized = maximized
        self.width = max(1, width)
        self.contentHeight = max(1, contentHeight)
        let key = (self.width, self.contentHeight, scale, activated)
        if let d = drawnFor, d == key { return false }
        let b = Self.border
        let w = (self.width + 2 * b) * scale, h = (Self.height + self.contentHeight + 2 * b) * scale
        let buffer: ClientShmBuffer
        do {
            buffer = try ClientShmBuffer(on: shm, width: w, height: h, format: WL_SHM_FORMAT_ARGB8888.rawValue)
        } catch {
            log.error("cannot make a buffer for Lodestone's title bar: \(error)")
            return false
        }
        // A new memfd is zeroed: the margin and the area under the output are transparent.
        guard let target = buffer.image( width: w, height: h, stride: buffer.stride, format: .argb8888) else { return false }
        let bar = TitleBarImage.draw(title: "Lodestone", width: self.width, scale: scale, activated: activated)
        target.copy(from: bar, rect: PixelRect(x: 0, y: 0, width: bar.width, height: bar.height), toX: b * scale, y: b * scale)
        drawnFor = key

        buffer.buffer.handleEvents(BufferEvent.self) { [unowned self, unowned buffer] event in
            switch event {
            case .release: self.retired.removeAll { $0 === buffer }
            }
        }
        if let old = current { retired.append(old) }
        current = buffer
        surface.request(buffer.buffer) {
            wl_surface_set_buffer_scale($0, scale)
            wl_surface_attach($0, $1, 0, 0)
            wl_surface_damage_buffer($0, 0, 0, w, h)
            wl_surface_commit($0)
        }
        return true
    }

    // MARK: Pointer

    /// What is at a point of the decoration surface (logical, surface-local); nil over the
    /// output, which the window's own surface covers.
    func part(atX x: Double, y: Double) -> Part? {
        let fx = x - Double(Self.border), fy = y - Double(Self.border)
        let fw = Double(width), fh = Double(Self.height + contentHeight), c = Double(Self.corner)
        var edges: UInt32 = 0
        if fx < 0 { edges |= XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue } else if fx >= fw { edges |= XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue }
        if fy < 0 { edges |= XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue } else if fy >= fh { edges |= XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue }
        if edges != 0 {
            guard !isMaximized else { return nil }
            // Near a corner along one edge: both edges, as a corner grip.
            let horizontal = XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue | XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue
            if edges & horizontal == 0 {
                if fx < c { edges |= XDG_TOPLEVEL_RESIZE_EDGE_LEFT.rawValue } else if fx >= fw - c { edges |= XDG_TOPLEVEL_RESIZE_EDGE_RIGHT.rawValue }
            } else if edges & ~horizontal == 0 {
                if fy < c { edges |= XDG_TOPLEVEL_RESIZE_EDGE_TOP.rawValue } else if fy >= fh - c { edges |= XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM.rawValue }
            }
            return .edge(edges)
        }
        guard fy < Double(Self.height) else { return nil }
        let button = TitleBarImage.Button.allCases.first { TitleBarImage.frame(of: $0, barWidth: width).contains(x: fx, y: fy) }
        return button.map { .button($0) } ?? .bar
    }

    /// The pointer moved on the decoration: a press on the bar that moved past the drag
    /// threshold becomes a move (with the press's serial).
    func pointerMoved(x: Double, y: Double) -> (Action, serial: UInt32)? {
        pointer = (x, y)
        guard let press = barPress, abs(x - press.x) > Self.dragThreshold || abs(y - press.y) > Self.dragThreshold else { return nil }
        barPress = nil
        // A drag is no first click of a double click.
        lastBarPress = nil
        return (.move, press.serial)
    }

    /// A button of the parent's pointer went down or up on the decoration at `time`
    /// (milliseconds), with `serial`: what the window should do, and the serial to ask with.
    /// A press on an edge resizes at once; on the bar it moves the window once the pointer
    /// has moved past the drag threshold with the button down (so a double click, which
    /// maximizes, never starts a move), as GTK's bars do; a title bar button acts when the
    /// press ends over it.
    func button(_ button: UInt32, pressed: Bool, time: UInt32, serial: UInt32) -> (Action, serial: UInt32)? {
        let part = self.part(atX: pointer.x, y: pointer.y)
        guard pressed else {
            barPress = nil
            defer { pressedButton = nil }
            guard let b = pressedButton, part == .button(b) else { return nil }
            switch b {
            case .close: return (.close, serial)
            case .maximize: return (.toggleMaximized, serial)
            case .minimize: return (.minimize, serial)
            }
        }
        let left: UInt32 = 0x110, right: UInt32 = 0x111  // BTN_LEFT, BTN_RIGHT
        switch part {
        case .bar? where button == right:
            return (.windowMenu(x: Int32(pointer.x), y: Int32(pointer.y)), serial)
        case .bar? where button == left:
            if let last = lastBarPress, time &- last <= Self.doubleClickMilliseconds {
                lastBarPress = nil
                return (.toggleMaximized, serial)
            }
            lastBarPress = time
            barPress = (pointer.x, pointer.y, serial)
            return nil
        case .edge(let edge)? where button == left: return (.resize(edge: edge), serial)
        case .button(let b)? where button == left:
            pressedButton = b
            return nil
        default: return nil
        }
    }

    /// The pointer left the decoration: a pressed button no longer acts, a press no longer drags.
    func pointerLeft() {
        pressedButton = nil
        barPress = nil
    }
}
