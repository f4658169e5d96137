import CWaylandServer
import Glibc
import LodestoneSystem

/// The memory behind a client's `wl_shm_pool`: Lodestone's mapping of the file the client
/// passed, and, when a backend may show the client's buffers through a parent compositor
/// (`ShmFiles.keepsFiles`), the file itself.
///
/// libwayland's own wl_shm closes the file once it is mapped, so nothing can hand the pool on
/// (issue 37: a nested Lodestone shows client surfaces as its parent's subsurfaces, the
/// parent reading the client's own pool). This is that wl_shm, with its care kept:
/// - reads go through `beginAccess`/`endAccess`: a client that truncates its file makes the
///   read find zeros and gets `wl_shm.error.invalid_fd`, instead of SIGBUS taking Lodestone
///   down (`cws_shm_begin_access`, as `wl_shm_buffer_begin_access`);
/// - `wl_shm_pool.resize` may move the mapping: readers ask for `data` before every use
///   (`ShmTexture.address`), and nothing holds the pool against a resize (issue 23's
///   deferral is gone with libwayland's implementation);
/// - the mapping lives as long as the pool object or any buffer made from it.
public final class ShmPool {
    /// Where the pool is mapped now; moves when a resize moves it.
    private(set) var data: UnsafeMutableRawPointer
    /// The mapping's size in bytes (the pool's size as the client last set it).
    public private(set) var size: Int
    /// The client's file while kept (-1: closed at once, as libwayland does).
    private var file: Int32
    /// Kept files are counted per client and overall (`ShmFiles`).
    private let files: ShmFiles
    private let owner: Client

    /// Maps `size` bytes of `fd`, which the pool now owns; nil with the reason when mmap fails
    /// (the fd is closed then too).
    init(file fd: Int32, size: Int, owner: Client, files: ShmFiles) throws(SystemError) {
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            let error = SystemError.lastError("failed mmap fd \(fd)", call: "mmap")
            close(fd)
            throw error
        }
        data = map
        self.size = size
        self.owner = owner
        self.files = files
        file = -1
        updateNeverFaults(fd)
        if files.mayKeep(for: owner) {
            file = fd
            files.kept(by: owner)
        } else {
            close(fd)
            file = -1
        }
    }

    deinit {
        munmap(data, size)
        if file >= 0 {
            close(file)
            files.closed(by: owner)
        }
    }

    /// Grows the mapping to `newSize` (`wl_shm_pool.resize`, which never shrinks); false
    /// when it cannot be mapped.
    func resize(to newSize: Int) -> Bool {
        guard newSize != size else { return true }
        guard let moved = cws_shm_mremap(data, size, newSize) else { return false }
        data = moved
        size = newSize
        // A file closed at creation cannot be asked again: its reads stay guarded.
        if file >= 0 { updateNeverFaults(file) } else { neverFaults = false }
        return true
    }

    /// The pool's file, for another process to map (a parent compositor showing the client's
    /// buffers): only when reading `bytes` of it can never fault there, the file sealed
    /// against shrinking and at least that long. A parent that faulted on a client's file
    /// would end its connection with Lodestone, not with the client. nil otherwise.
    public func shareableFile(covering bytes: Int) -> Int32? {
        guard file >= 0 else { return nil }
        // Asked for every visible surface at every frame: what was found once holds for good
        // (a seal is never taken back, and a file sealed so never gets shorter).
        if bytes <= shareableBytes { return file }
        guard cws_shm_cannot_shrink(file) != 0 else { return nil }
        var status = stat()
        guard fstat(file, &status) == 0 else { return nil }
        shareableBytes = Int(status.st_size)
        return bytes <= shareableBytes ? file : nil
    }

    /// How much of the file is known to be sealed against shrinking and there (0: not known).
    private var shareableBytes = 0

    /// Reads of the pool from here to `endAccess` are guarded: a fault (a truncated file)
    /// reads zeros. A pool whose file cannot shrink needs no guard, nor does it get one.
    func beginAccess() {
        if !neverFaults { cws_shm_begin_access(data, size) }
    }

    /// True when a read since `beginAccess` faulted: the pool reads zeros from now on.
    func endAccess() -> Bool {
        neverFaults ? false : cws_shm_end_access(data) != 0
    }

    /// The file is sealed against shrinking and covers the whole mapping: no read can fault
    /// (libwayland 1.22's `sigbus_is_impossible`). Worked out again at each resize.
    private var neverFaults = false

    private func updateNeverFaults(_ fd: Int32) {
        var status = stat()
        neverFaults = cws_shm_cannot_shrink(fd) != 0 && fstat(fd, &status) == 0 && Int(status.st_size) >= size
    }
}

/// How many client files the pools keep (`ShmPool.file`): each is a descriptor in
/// Lodestone's table, so a client creating pools without end must not exhaust it. Past
/// either limit a pool closes its file, as libwayland's do, and its buffers are composed.
public final class ShmFiles {
    /// Set by a backend that shares pools with a parent compositor, before clients connect.
    public var keepsFiles = false
    static let perClient = 128
    static let overall = 512
    private var counts: [Client: Int] = [:]
    private var total = 0

    init() {}

    func mayKeep(for client: Client) -> Bool {
        keepsFiles && total < Self.overall && counts[client, default: 0] < Self.perClient
    }

    func kept(by client: Client) {
        counts[client, default: 0] += 1
        total += 1
    }

    func closed(by client: Client) {
        total -= 1
        guard let n = counts[client] else { return }
        counts[client] = n > 1 ? n - 1 : nil
    }
}
