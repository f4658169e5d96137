import CWaylandServer
import Glibc

/// One plane of a client's dmabuf (`zwp_linux_buffer_params_v1.add`).
public struct DmabufPlane: Sendable {
    /// The dmabuf; owned by the `DmabufAttributes` it ends up in (or the params until then).
    public let fd: Int32
    public let offset: UInt32
    public let stride: UInt32
    public let modifier: UInt64
}

/// A client's dmabuf as `create` named it: its planes, size, format and flags. It owns the
/// planes' fds and closes them when the last holder lets go (the wl_buffer, its mapping, a
/// parent's import in flight): the protocol has the server keep them for the buffer's life.
public final class DmabufAttributes {
    public let width: Int32, height: Int32
    /// The fourcc and the modifier every plane has.
    public let format: DmabufFormat
    /// `zwp_linux_buffer_params_v1.flags`: y_invert 1, interlaced 2, bottom_first 4.
    public let flags: UInt32
    public let planes: [DmabufPlane]

    init(width: Int32, height: Int32, format: DmabufFormat, flags: UInt32, planes: [DmabufPlane]) {
        self.width = width
        self.height = height
        self.format = format
        self.flags = flags
        self.planes = planes
    }

    deinit { for plane in planes { close(plane.fd) } }
}

/// A `zwp_linux_buffer_params_v1` error: `code` is the protocol's, or nil for an import that
/// failed in a way the client could not foresee (`failed` after `create`; after `create_immed`,
/// `invalid_wl_buffer`).
struct DmabufParamsError: Error {
    let code: UInt32?
    let message: String

    static func fatal(_ code: zwp_linux_buffer_params_v1_error, _ message: String) -> DmabufParamsError {
        DmabufParamsError(code: code.rawValue, message: message)
    }
    static func failed(_ message: String) -> DmabufParamsError { DmabufParamsError(code: nil, message: message) }
}

/// The planes one `zwp_linux_buffer_params_v1` gathers, and every check of its `create`,
/// each failure named as the protocol names it. Holds the fds until `create` hands them to
/// a `DmabufAttributes`, or `closeAll` (the params destroyed unused).
struct DmabufParams {
    /// The protocol's largest plane count (`EGL_EXT_image_dma_buf_import`'s four).
    static let maximumPlanes: UInt32 = 4
    private(set) var planes: [UInt32: DmabufPlane] = [:]
    private(set) var used = false

    /// `add`: takes the fd whatever happens (closed here on an error).
    mutating func add(fd: Int32, index: UInt32, offset: UInt32, stride: UInt32, modifier: UInt64) throws(DmabufParamsError) {
        guard !used else {
            close(fd)
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED, "these params already made a wl_buffer; only destroy is left")
        }
        guard index < Self.maximumPlanes else {
            close(fd)
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX, "plane index \(index) is out of bounds: a dmabuf has at most \(Self.maximumPlanes) planes (0-\(Self.maximumPlanes - 1))")
        }
        guard planes[index] == nil else {
            close(fd)
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_SET, "plane \(index) was already added")
        }
        planes[index] = DmabufPlane(fd: fd, offset: offset, stride: stride, modifier: modifier)
    }

    /// `create` and `create_immed`: the checks, in the order a client's mistakes are told;
    /// the planes then belong to the attributes returned. `offered` says which pairs were
    /// advertised; `version` is the params object's (version 4 makes an unadvertised pair an
    /// error rather than a failed import).
    mutating func create(width: Int32, height: Int32, fourcc: UInt32, flags: UInt32, version: UInt32,
                         offered: Set<DmabufFormat>) throws(DmabufParamsError) -> DmabufAttributes {
        guard !used else {
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED, "these params already made a wl_buffer; only destroy is left")
        }
        used = true
        guard !planes.isEmpty else { throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE, "no plane was added") }
        let count = UInt32(planes.count)
        if let missing = (0..<count).first(where: { planes[$0] == nil }) {
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE,
                         "plane \(missing) is missing: \(count) planes were added, so planes 0-\(count - 1) must be")
        }
        let ordered = (0..<count).map { planes[$0]! }
        let modifier = ordered[0].modifier
        if let odd = ordered.firstIndex(where: { $0.modifier != modifier }) {
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT,
                         "plane \(odd) has modifier 0x\(String(ordered[odd].modifier, radix: 16)), plane 0 has 0x\(String(modifier, radix: 16)): every plane needs the same")
        }
        guard width > 0, height > 0 else {
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_DIMENSIONS, "the buffer is \(width)×\(height): both must be positive")
        }
        let format = DmabufFormat(fourcc, modifier)
        if !offered.contains(format) {
            if version >= 4 || !offered.contains(where: { $0.fourcc == fourcc }) {
                throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT, "format and modifier \(format) were not advertised")
            }
            // Before version 4 a client could not be told which modifiers go with a format.
            throw .failed("modifier 0x\(String(modifier, radix: 16)) of \(format) is not one Lodestone takes")
        }
        if format.isMappable && count != 1 {
            throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE, "\(format) has one plane, \(count) were added")
        }
        try Self.checkBounds(ordered, height: height, rowBytes: format.isMappable ? Int64(width) * 4 : nil)
        for index in 0..<count { planes[index] = nil }
        return DmabufAttributes(width: width, height: height, format: format, flags: flags, planes: ordered)
    }

    /// Offsets and strides inside each plane's dmabuf (its size from `lseek(SEEK_END)`, as the
    /// protocol suggests; a dmabuf that cannot seek is not checked here). Later planes may be
    /// subsampled, so only plane 0's height is known. `rowBytes`: the least stride of a format
    /// Lodestone reads itself.
    private static func checkBounds(_ planes: [DmabufPlane], height: Int32, rowBytes: Int64?) throws(DmabufParamsError) {
        for (i, p) in planes.enumerated() {
            let offset = Int64(p.offset), stride = Int64(p.stride)
            let end = i == 0 ? offset + stride * Int64(height) : offset + stride
            if i == 0, let rowBytes, stride < rowBytes {
                throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS, "plane 0's stride \(stride) is less than a row, \(rowBytes) bytes")
            }
            guard end <= Int64(UInt32.max) else {
                throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS, "plane \(i): offset \(offset) + stride \(stride) × \(i == 0 ? height : 1) rows overflows 32 bits")
            }
            let size = Int64(lseek(p.fd, 0, SEEK_END))
            guard size >= 0 else { continue }
            lseek(p.fd, 0, SEEK_SET)
            if stride == 0 || offset + stride > size {
                throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS, "plane \(i): offset \(offset) and stride \(stride) reach past the dmabuf's \(size) bytes")
            }
            if end > size {
                throw .fatal(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS,
                             "plane \(i): offset \(offset) + stride \(stride) × \(height) rows = \(end) bytes, past the dmabuf's \(size)")
            }
        }
    }

    /// The params go unused (destroyed, or the client gone): their fds close.
    mutating func closeAll() {
        for plane in planes.values { close(plane.fd) }
        planes = [:]
    }
}
