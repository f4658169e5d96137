/// A DRM format and layout modifier (drm_fourcc.h): what `zwp_linux_dmabuf_v1` advertises,
/// one entry of its format table, and what a client's buffer names.
public struct DmabufFormat: Hashable, Sendable, CustomStringConvertible {
    /// `DRM_FORMAT_*`, a little-endian fourcc ("XR24").
    public var fourcc: UInt32
    /// `DRM_FORMAT_MOD_*`: how the pixels are laid out in memory (tiling, compression).
    public var modifier: UInt64

    public init(_ fourcc: UInt32, _ modifier: UInt64) {
        self.fourcc = fourcc
        self.modifier = modifier
    }

    /// `DRM_FORMAT_XRGB8888` ('XR24'): 32-bit pixels, B G R X in memory; pixman's x8r8g8b8.
    public static let xrgb8888: UInt32 = 0x3432_5258
    /// `DRM_FORMAT_ARGB8888` ('AR24'): the same with alpha, premultiplied (linux-dmabuf's rule
    /// for every format); pixman's a8r8g8b8.
    public static let argb8888: UInt32 = 0x3432_5241
    /// `DRM_FORMAT_MOD_LINEAR`: rows one after another, `stride` bytes apart.
    public static let linear: UInt64 = 0
    /// `DRM_FORMAT_MOD_INVALID`: no explicit modifier, the layout is the driver's own
    /// (implicit). Not taken where Lodestone reads the pixels: an implicit layout may be tiled
    /// (i915's X tiling set through GEM, amdgpu's tiling in the buffer's metadata) and nothing
    /// in the dmabuf says so to a reader of its mapping.
    public static let invalidModifier: UInt64 = 0x00ff_ffff_ffff_ffff

    /// What Lodestone reads itself, in every backend: one linear plane of 32-bit pixels,
    /// mapped and composed as `wl_shm` buffers are (`DmabufMapping`).
    public static let mappable: [DmabufFormat] = [DmabufFormat(xrgb8888, linear), DmabufFormat(argb8888, linear)]

    /// Whether Lodestone can read buffers of this pair itself.
    public var isMappable: Bool { Self.mappable.contains(self) }

    /// "XR24:0x0", "NV12:0x100000000000004".
    public var description: String {
        let letters = (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> ($0 * 8)) }
        let name = letters.allSatisfy({ (0x20..<0x7f).contains($0) }) ? String(decoding: letters, as: UTF8.self) : "0x" + String(fourcc, radix: 16)
        return "\(name):0x\(String(modifier, radix: 16))"
    }
}

/// What `zwp_linux_dmabuf_feedback_v1` tells clients: the main device, whose buffers the
/// compositor can always import, and tranches of format + modifier pairs, most preferred
/// first, each for a target device.
public struct DmabufFeedback: Equatable, Sendable {
    /// A `dev_t`; 0 where there is no DRM device at all (see `DmabufDevice.local`).
    public var mainDevice: UInt64
    public var tranches: [Tranche]

    public struct Tranche: Equatable, Sendable {
        public var targetDevice: UInt64
        /// `zwp_linux_dmabuf_feedback_v1.tranche_flags` (1: scan-out).
        public var flags: UInt32
        public var formats: [DmabufFormat]

        public init(targetDevice: UInt64, flags: UInt32 = 0, formats: [DmabufFormat]) {
            self.targetDevice = targetDevice
            self.flags = flags
            self.formats = formats
        }
    }

    public init(mainDevice: UInt64, tranches: [Tranche]) {
        self.mainDevice = mainDevice
        self.tranches = tranches
    }

    /// Every pair of every tranche: what `create` accepts.
    public var formats: Set<DmabufFormat> { Set(tranches.flatMap(\.formats)) }

    /// What Lodestone offers its clients. Without a parent, or with one whose planes cannot
    /// show a buffer Lodestone does not read itself: the main device (the parent's when nested)
    /// and the mappable pairs. With such planes: the parent's tranches, then the mappable pairs
    /// the parent did not already list for its main device (the protocol forbids a pair twice
    /// for the same device and flags).
    static func offered(localDevice: UInt64, parent: DmabufFeedback?, parentShowsUnmappable: Bool) -> DmabufFeedback {
        guard let parent else {
            return DmabufFeedback(mainDevice: localDevice, tranches: [Tranche(targetDevice: localDevice, formats: DmabufFormat.mappable)])
        }
        guard parentShowsUnmappable else {
            return DmabufFeedback(mainDevice: parent.mainDevice, tranches: [Tranche(targetDevice: parent.mainDevice, formats: DmabufFormat.mappable)])
        }
        var tranches = parent.tranches
        let listed = Set(tranches.filter { $0.targetDevice == parent.mainDevice && $0.flags == 0 }.flatMap(\.formats))
        let rest = DmabufFormat.mappable.filter { !listed.contains($0) }
        if !rest.isEmpty { tranches.append(Tranche(targetDevice: parent.mainDevice, formats: rest)) }
        return DmabufFeedback(mainDevice: parent.mainDevice, tranches: tranches)
    }
}
