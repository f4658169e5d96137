import CWaylandProtocols
import CWaylandServer
import Glibc
import LodestoneSystem
import WaylandServer

/// `zwp_linux_buffer_params_v1`: a client's planes gathered into one dmabuf wl_buffer. The
/// checks are `DmabufParams`'; a buffer Lodestone reads itself is mapped here
/// (`DmabufMapping`), so one that cannot be gets `failed` (after `create`, where the client
/// can fall back) or `invalid_wl_buffer` (after `create_immed`, which cannot say it later).
/// Nested, every buffer made is also imported into the parent (`DmabufParent`); one Lodestone
/// cannot read, offered only while parent planes show such buffers, exists only if the
/// parent takes it.
final class ZwpLinuxBufferParams: Resource, ZwpLinuxBufferParamsV1Handler {
    unowned let dmabuf: LinuxDmabuf
    private var params = DmabufParams()
    /// A `create` waiting for the parent's answer (a buffer only the parent can show).
    private var waiting: (attributes: DmabufAttributes, parentBuffer: AnyObject?)?

    init?(dmabuf: LinuxDmabuf, client: Client, version: UInt32, id: UInt32) {
        self.dmabuf = dmabuf
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .destroy: destroy()
        case .add: add(fd: a.fd(0), index: a.uint(1), offset: a.uint(2), stride: a.uint(3), modifier: UInt64(a.uint(4)) << 32 | UInt64(a.uint(5)))
        case .create: create(id: nil, width: a.int(0), height: a.int(1), fourcc: a.uint(2), flags: a.uint(3))
        case .createImmed: create(id: a.newID(0), width: a.int(1), height: a.int(2), fourcc: a.uint(3), flags: a.uint(4))
        }
    }

    private func add(fd: Int32, index: UInt32, offset: UInt32, stride: UInt32, modifier: UInt64) {
        guard dmabuf.hold(1, for: client) else {
            close(fd)
            return client.postLimitExceeded("the client holds \(ClientLimits.dmabufFdsPerClient) dmabuf fds in Lodestone, the limit")
        }
        do throws(DmabufParamsError) {
            try params.add(fd: fd, index: index, offset: offset, stride: stride, modifier: modifier)
        } catch {
            dmabuf.release(1, for: client)
            refuse(error, immediate: true)
        }
    }

    /// `create` (`id` nil: the buffer is announced with `created`) and `create_immed`.
    private func create(id: UInt32?, width: Int32, height: Int32, fourcc: UInt32, flags: UInt32) {
        let attributes: DmabufAttributes
        do throws(DmabufParamsError) {
            attributes = try params.create(width: width, height: height, fourcc: fourcc, flags: flags, version: version, offered: dmabuf.offered)
        } catch {
            return refuse(error, immediate: id != nil)
        }
        // Lodestone reads the buffer itself when it can; otherwise only parent planes show it.
        var mapping: DmabufMapping?
        var unreadable = "\(attributes.format) is not a format Lodestone reads"
        if attributes.format.isMappable {
            do throws(SystemError) { mapping = try DmabufMapping(attributes) } catch { unreadable = "\(error)" }
        }
        let parent = dmabuf.parent
        if mapping == nil && parent?.showsUnmappableBuffers != true {
            dmabuf.release(attributes.planes.count, for: client)
            return refuse(.failed("the dmabuf cannot be imported: \(unreadable)"), immediate: id != nil)
        }
        if let mapping {
            // Read here; the parent's copy (nested) is made alongside, for parent planes.
            guard let buffer = DmabufBuffer(dmabuf: dmabuf, attributes: attributes, mapping: mapping, client: client, id: id ?? 0) else {
                return dmabuf.release(attributes.planes.count, for: client)
            }
            buffer.parentBuffer = parent?.importBuffer(attributes) { [weak buffer, weak dmabuf] took in
                buffer?.parentTook = took
                if took { dmabuf?.parentTookBuffer?() }
            }
            if id == nil { send(buffer) { zwp_linux_buffer_params_v1_send_created($0, $1) } }
        } else if let parent, let id {
            // create_immed of a buffer only the parent can show: it exists at once, and is
            // marked failed (`failed`, as the protocol allows) if the parent refuses it.
            guard let buffer = DmabufBuffer(dmabuf: dmabuf, attributes: attributes, mapping: nil, client: client, id: id) else {
                return dmabuf.release(attributes.planes.count, for: client)
            }
            buffer.parentBuffer = parent.importBuffer(attributes) { [weak self, weak buffer] took in
                buffer?.parentTook = took
                if !took, let self { self.send { zwp_linux_buffer_params_v1_send_failed($0) } }
            }
        } else if let parent {
            // create: the answer waits for the parent's.
            waiting = (attributes, nil)
            waiting?.parentBuffer = parent.importBuffer(attributes) { [weak self] took in self?.parentAnswered(took) }
        }
    }

    /// The parent's answer to a `create` of a buffer only it can show: `created` or `failed`.
    private func parentAnswered(_ took: Bool) {
        guard let (attributes, parentBuffer) = waiting else { return }
        waiting = nil
        guard took, let buffer = DmabufBuffer(dmabuf: dmabuf, attributes: attributes, mapping: nil, client: client, id: 0) else {
            dmabuf.release(attributes.planes.count, for: client)
            return send { zwp_linux_buffer_params_v1_send_failed($0) }
        }
        buffer.parentBuffer = parentBuffer
        buffer.parentTook = true
        send(buffer) { zwp_linux_buffer_params_v1_send_created($0, $1) }
    }

    /// A protocol error (fatal), or an import that failed: `failed` after `create`,
    /// `invalid_wl_buffer` after `create_immed`.
    private func refuse(_ error: DmabufParamsError, immediate: Bool) {
        if let code = error.code { return postError(code, error.message) }
        if immediate { return postError(ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER.rawValue, error.message) }
        dmabuf.log.debug("zwp_linux_buffer_params_v1@\(objectID) of \(client.command): failed: \(error.message)")
        send { zwp_linux_buffer_params_v1_send_failed($0) }
    }

    override func destroyed() {
        dmabuf.release(params.planes.count + (waiting?.attributes.planes.count ?? 0), for: client)
        params.closeAll()
        waiting = nil
    }
}

/// A dmabuf `wl_buffer`, Lodestone's own wl_buffer implementation (as wl_shm's are).
/// `WlSurface.upload` shows it through `mapping`; parent planes, through `parentBuffer`
/// (`Frames.planeSurface`), its release waiting for the parent's (`BufferResource.hold`).
final class DmabufBuffer: BufferResource, WlBufferHandler {
    unowned let dmabuf: LinuxDmabuf
    let attributes: DmabufAttributes
    /// Nil for a buffer Lodestone cannot read (shown only by parent planes).
    let mapping: DmabufMapping?
    /// The parent's wl_buffer for it (the nested backend's object), while the parent has it.
    var parentBuffer: AnyObject?
    /// Whether the parent took it; nil while it has not answered, or where there is no parent.
    var parentTook: Bool?

    init?(dmabuf: LinuxDmabuf, attributes: DmabufAttributes, mapping: DmabufMapping?, client: Client, id: UInt32) {
        self.dmabuf = dmabuf
        self.attributes = attributes
        self.mapping = mapping
        super.init(client: client, version: 1, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        if request == .destroy { destroy() }
    }

    override func destroyed() {
        super.destroyed()
        dmabuf.release(attributes.planes.count, for: client)
        parentBuffer = nil
    }
}
