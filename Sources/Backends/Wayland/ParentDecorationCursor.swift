import PointerAdaptation
import CWaylandClient
import CXcursor
import LodestoneCompositor
import Glibc
import Logging
import WaylandClient

/// The parent's cursor over Lodestone's own title bar and resize margin (over the output
/// the parent's cursor is hidden: Lodestone draws its own pointer there).
///
/// By name through `wp_cursor_shape_v1` when the parent has it; else (GNOME 43's mutter has
/// not) the image of the Xcursor theme clients use (XCURSOR_THEME, XCURSOR_SIZE), read with
/// libXcursor, on a cursor surface of our own.
final class ParentDecorationCursor {
    /// The cursors the decoration needs: the arrow, and one per resize edge.
    enum Name: Equatable {
        case arrow
        /// An `xdg_toplevel.resize_edge`.
        case resize(UInt32)

        /// The Xcursor theme name (the X11 names every theme has).
        var xcursorName: String {
            switch self {
            case .arrow: return "left_ptr"
            case .resize(let edge):
                switch edge {
                case 1: return "top_side"
                case 2: return "bottom_side"
                case 4: return "left_side"
                case 8: return "right_side"
                case 5: return "top_left_corner"
                case 9: return "top_right_corner"
                case 6: return "bottom_left_corner"
                default: return "bottom_right_corner"
                }
            }
        }

        var shape: UInt32 {
            switch self {
            case .arrow: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT.rawValue
            case .resize(let edge):
                switch edge {
                case 1: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_N_RESIZE.rawValue
                case 2: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_S_RESIZE.rawValue
                case 4: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_W_RESIZE.rawValue
                case 8: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_E_RESIZE.rawValue
                case 5: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NW_RESIZE.rawValue
                case 9: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NE_RESIZE.rawValue
                case 6: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_SW_RESIZE.rawValue
                default: return WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_SE_RESIZE.rawValue
                }
            }
        }
    }

    private let pointer: Proxy
    private let shm: Proxy
    private let compositor: Proxy
    private let log: Logger
    private var shapeDevice: Proxy?
    private var surface: Proxy?
    /// Theme images made into buffers, by name and scale (kept: a handful at most).
    private var images: [String: (buffer: ClientShmBuffer, hotspot: (x: Int32, y: Int32))] = [:]
    private var shown: (name: Name, serial: UInt32)?

    init(pointer: Proxy, globals: ParentGlobals, logger: Logger) {
        self.pointer = pointer
        shm = globals.shm
        compositor = globals.compositor
        log = logger
        if let manager = globals.cursorShapeManager {
            shapeDevice = try? Proxy(creating: { manager.request(pointer) { wp_cursor_shape_manager_v1_get_pointer($0, $1) } },
                                     on: pointer.connection, what: "wp_cursor_shape_manager_v1.get_pointer")
        }
    }

    deinit {
        shapeDevice?.destroy { wp_cursor_shape_device_v1_destroy($0) }
        surface?.destroy { wl_surface_destroy($0) }
    }

    /// Shows `name` for the pointer that entered with `serial` (once per name and enter).
    func show(_ name: Name, serial: UInt32, scale: Int32) {
        if let shown, shown.name == name, shown.serial == serial { return }
        shown = (name, serial)
        if let device = shapeDevice {
            device.request { wp_cursor_shape_device_v1_set_shape($0, serial, name.shape) }
            return
        }
        guard let image = themeImage(name.xcursorName, scale: scale) ?? themeImage("left_ptr", scale: scale) else {
            // No theme at all: the parent's default, whatever it is, beats an invisible pointer.
            return
        }
        if surface == nil {
            surface = try? Proxy(creating: { compositor.request { wl_compositor_create_surface($0) } }, on: pointer.connection, what: "wl_compositor.create_surface")
        }
        guard let surface else { return }
        pointer.request(surface) { wl_pointer_set_cursor($0, serial, $1, image.hotspot.x / scale, image.hotspot.y / scale) }
        surface.request { wl_surface_set_buffer_scale($0, scale) }
        surface.request(image.buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        surface.request { wl_surface_damage_buffer($0, 0, 0, image.buffer.width, image.buffer.height) }
        surface.request { wl_surface_commit($0) }
    }

    /// The theme's image for `name` at `scale`, read once.
    private func themeImage(_ name: String, scale: Int32) -> (buffer: ClientShmBuffer, hotspot: (x: Int32, y: Int32))? {
        let key = "\(name)@\(scale)"
        if let image = images[key] { return image }
        let theme = getenv("XCURSOR_THEME").map { String(cString: $0) } ?? "default"
        // XCURSOR_SIZE as CursorThemes reads it (8...512, else 24): any Int32 times the
        // scale trapped (issue 24).
        let requested = getenv("XCURSOR_SIZE").flatMap { Int32(String(cString: $0)) } ?? 24
        let size = ((8...512).contains(requested) ? requested : 24) * min(max(1, scale), ParentOutput.maximumScale)
        // A FIFO in the theme blocks libXcursor's fopen for good (issue 24).
        guard XcursorFiles.canLoad(name, theme: theme), let loaded = XcursorLibraryLoadImage(name, theme, size) else {
            log.debug("no cursor '\(name)' in the Xcursor theme '\(theme)'")
            return nil
        }
        defer { XcursorImageDestroy(loaded) }
        let x = loaded.pointee
        guard x.width > 0, x.height > 0, let buffer = ClientShmBuffer(shm: shm, width: Int32(x.width), height: Int32(x.height)) else { return nil }
        // Xcursor pixels are premultiplied ARGB, as wl_shm's ARGB8888.
        for i in 0..<Int(x.width * x.height) { buffer[i] = x.pixels[i] }
        let image = (buffer: buffer, hotspot: (x: Int32(x.xhot), y: Int32(x.yhot)))
        images[key] = image
        return image
    }
}
