import CPixman
import Logging

/// A `pixman_image_t` that owns its pixels (or wraps borrowed ones).
public final class Image {
    /// The `pixman_image_t *`, for Rendering's own pixman calls. Over borrowed pixels it is
    /// made again whenever their owner moved them: a client's `wl_shm_pool.resize` may move
    /// its whole pool (mremap), and Lodestone holds nothing that would stop it (issue 23).
    var pointer: OpaquePointer {
        if let access, let now = access.address, now != borrowed { rewrap(now) }
        return image
    }
    ///
    /// `image`, `borrowed` and `access` skip the dynamic exclusivity check: the pixman calls of
    /// one frame read `pointer` dozens of times (~60 instructions a check, issue 29), and no
    /// access to them overlaps another (`rewrap` runs to completion, the core is single-threaded).
    @exclusivity(unchecked) private var image: OpaquePointer
    /// Where the borrowed pixels were when `image` was made; nil for pixels Lodestone owns.
    @exclusivity(unchecked) private var borrowed: UnsafeMutableRawPointer?
    public let width: Int32
    public let height: Int32
    public let format: Format

    /// Pixel formats Lodestone composes: 32-bit ARGB, premultiplied, and the
    /// same with the alpha byte ignored.
    public enum Format: Sendable {
        case argb8888, xrgb8888
        var pixman: pixman_format_code_t { self == .argb8888 ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8 }
    }

    /// A new image with pixman-allocated, zeroed pixels, of a size Lodestone chose and bounds
    /// (an output, a cursor, a test's screenshot): failing to allocate one is fatal. A size a
    /// client chooses goes through `clientSized`, which refuses instead.
    public convenience init(width: Int32, height: Int32, format: Format) {
        guard let image = Image(allocating: width, height, format: format) else {
            fatalError("out of memory creating a \(width)×\(height) image")
        }
        self.init(moving: image)
    }

    /// A new image with pixman-allocated, zeroed pixels, nil when they cannot be allocated:
    /// for sizes a client chose (a copy of its buffer), which must never end the compositor.
    public init?(allocating width: Int32, _ height: Int32, format: Format) {
        guard width > 0, height > 0, let image = pixman_image_create_bits(format.pixman, width, height, nil, 0) else { return nil }
        self.image = image
        self.width = width
        self.height = height
        self.format = format
    }

    /// A new image of a size a client chose (a copy of the pixels under its region, a title
    /// bar as wide as its window), or nil, with a log line, when pixman cannot allocate it:
    /// a client's size must never end the compositor.
    public static func clientSized(width: Int32, height: Int32, format: Format, for what: String) -> Image? {
        guard let image = Image(allocating: width, height, format: format) else {
            Logger(label: "lodestone.rendering").warning("cannot allocate a \(width)×\(height) image for \(what): not drawn")
            return nil
        }
        return image
    }

    /// Shares another image's pixman image, with a reference of its own.
    private init(moving other: Image) {
        image = pixman_image_ref(other.image)
        width = other.width
        height = other.height
        format = other.format
    }

    /// Wraps pixels someone else owns; valid only while they stay mapped.
    public init?(borrowing data: UnsafeMutableRawPointer, width: Int32, height: Int32, stride: Int32, format: Format) {
        guard width > 0, height > 0, Int(stride) >= Int(width) * 4,  // wide: a client's width may be near Int32.max
              let image = pixman_image_create_bits(format.pixman, width, height, data.assumingMemoryBound(to: UInt32.self), stride)
        else { return nil }
        self.image = image
        borrowed = data
        self.width = width
        self.height = height
        self.format = format
    }

    deinit { pixman_image_unref(image) }

    /// The same pixels at their new address. Transform, filter and repeat are set per
    /// composite, so the new image needs nothing of the old one's. If pixman cannot wrap
    /// them (out of memory), the old image stays: the owner keeps the old mapping readable
    /// until its next request, and the frame shows stale pixels rather than none.
    private func rewrap(_ data: UnsafeMutableRawPointer) {
        guard let moved = pixman_image_create_bits(format.pixman, width, height, data.assumingMemoryBound(to: UInt32.self),
                                                   pixman_image_get_stride(image)) else { return }
        pixman_image_unref(image)
        image = moved
        borrowed = data
    }

    /// Guards reads of borrowed pixels another process may take away (a client's wl_shm
    /// pool): nil for pixels Lodestone owns.
    @exclusivity(unchecked) public var access: (any PixelAccess)?

    /// Runs `body`, which reads the pixels, inside the owner's guard if there is one.
    @inlinable public func reading<R>(_ body: () throws -> R) rethrows -> R {
        guard let access else { return try body() }
        access.begin()
        defer { access.end() }
        return try body()
    }

    public var stride: Int32 { pixman_image_get_stride(pointer) }
    /// The pixels, for Rendering's own loops; other modules use `withPixels`.
    var data: UnsafeMutablePointer<UInt32> { pixman_image_get_data(pointer) }

    /// Calls `body` with the pixels (rows `stride` bytes apart, 0xAARRGGBB premultiplied);
    /// the pointer is valid only there.
    public func withPixels<R>(_ body: (UnsafeMutablePointer<UInt32>) throws -> R) rethrows -> R { try body(data) }

    /// The pixel at (x, y) as 0xAARRGGBB (premultiplied).
    public func pixel(x: Int32, y: Int32) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height)
        return data[Int(y) * Int(stride / 4) + Int(x)]
    }

    /// Copies `rect` of `source` into the same place of this image (SRC).
    public func copy(from source: Image, rect: PixelRect) {
        pixman_image_composite32(PIXMAN_OP_SRC, source.pointer, nil, pointer,
                                 rect.x, rect.y, 0, 0, rect.x, rect.y, rect.width, rect.height)
    }

    /// Copies `rect` of `source` to (`x`, `y`) of this image (SRC): a region of the output
    /// into a buffer of the region's size.
    public func copy(from source: Image, rect: PixelRect, toX x: Int32, y: Int32) {
        pixman_image_composite32(PIXMAN_OP_SRC, source.pointer, nil, pointer,
                                 rect.x, rect.y, 0, 0, x, y, rect.width, rect.height)
    }

    /// Fills `rect` with a solid colour (0xAARRGGBB, premultiplied).
    public func fill(_ rect: PixelRect, color: UInt32, operator op: pixman_op_t = PIXMAN_OP_SRC) {
        var c = pixman_color_t(red: UInt16((color >> 16) & 0xff) * 257, green: UInt16((color >> 8) & 0xff) * 257,
                               blue: UInt16(color & 0xff) * 257, alpha: UInt16(color >> 24) * 257)
        var box = pixman_rectangle16_t(x: Int16(clamping: rect.x), y: Int16(clamping: rect.y),
                                       width: UInt16(clamping: rect.width), height: UInt16(clamping: rect.height))
        pixman_image_fill_rectangles(op, pointer, &c, 1, &box)
    }
}

/// What an `Image` that borrows its pixels needs around every read: for a client's wl_shm
/// buffer, libwayland's SIGBUS guard (`wl_shm_buffer_begin_access`/`end_access`), and
/// where the pixels are now.
public protocol PixelAccess: AnyObject {
    func begin()
    func end()
    /// The pixels' current address, asked before every use of the image; nil when the
    /// owner can no longer say (its buffer is gone, and nothing reads the image again).
    var address: UnsafeMutableRawPointer? { get }
}
