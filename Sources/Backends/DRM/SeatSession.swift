import CSeat
import Glibc
import LodestoneSystem
import WaylandServer

/// The session (`struct libseat *`): seatd, logind or libseat's builtin backend gives
/// Lodestone the seat's devices without root, and takes them away on a VT switch. Its fd is
/// on the event loop; `paused`/`resumed` are called as the seat is disabled and enabled
/// (wlroots' `backend/session`).
final class SeatSession: LibinputContext.DeviceOpener {
    private var seat: OpaquePointer?
    private var source: EventSource?
    /// Device ids by fd, for libseat_close_device.
    private var devices: [Int32: Int32] = [:]
    private(set) var isActive = false
    private var isLost = false
    var paused: () -> Void = {}
    var resumed: () -> Void = {}
    /// The seat is gone (seatd stopped, or logind dropped the session): nothing would give the
    /// devices back after a pause, so the session ends (`DRMBackend.sessionLost`).
    var lost: (String) -> Void = { _ in }

    /// Opens the seat and waits (at most a second) for it to be enabled.
    init() throws(SystemError) {
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_ERROR)
        let box = Unmanaged.passUnretained(self).toOpaque()
        guard let seat = libseat_open_seat(seatListener, box) else {
            throw SystemError(TTYPrerequisites.noSeat)
        }
        self.seat = seat
        var waited = 0
        while !isActive && waited < 1000 {
            if libseat_dispatch(seat, 100) < 0 { break }
            waited += 100
        }
        guard isActive else {
            libseat_close_seat(seat)
            self.seat = nil
            throw SystemError("no seat: the seat was never enabled (is another session active on this VT?)")
        }
        // From here on every failure is Lodestone's to tell, in one line (libseat would add
        // its own, e.g. "Could not flush connection" when seatd goes away).
        libseat_set_log_level(LIBSEAT_LOG_LEVEL_SILENT)
    }

    /// Seat events are no longer read (`DRMBackend.stop`).
    func detach() {
        source?.remove()
        source = nil
    }

    deinit {
        source?.remove()
        if let seat, !isLost {
            for (_, id) in devices { libseat_close_device(seat, id) }
            libseat_close_seat(seat)
        }
    }

    var name: String { seat.flatMap { libseat_seat_name($0) }.map { String(cString: $0) } ?? "seat0" }

    func attach(to loop: EventLoop) throws(SystemError) {
        guard let seat else { return }
        source = try loop.addFileDescriptor(libseat_get_fd(seat)) { [unowned self] _ in
            guard let seat = self.seat, libseat_dispatch(seat, 0) < 0 else { return }
            let reason = SystemError.lastError("libseat_dispatch failed").reason ?? "no reason given"
            // The fd stays readable (hung up) and would spin the loop. libseat is not called
            // again: its requests on the dead connection only log errors.
            self.detach()
            self.isLost = true
            self.lost("lost the seat (\(reason)): seatd or logind went away")
        }
    }

    /// Ctrl+Alt+F<n>: asks the seat for another VT; `disabled` follows when it happens.
    func switchSession(to vt: Int) {
        guard let seat, isActive else { return }
        _ = libseat_switch_session(seat, Int32(vt))
    }

    // libseat's listener

    fileprivate func enabled() {
        isActive = true
        resumed()
    }

    fileprivate func disabled() {
        isActive = false
        paused()
        if let seat { _ = libseat_disable_seat(seat) }  // acknowledge: devices are released
    }

    // DeviceOpener (libinput's devices, the DRM card)

    func open(path: String, flags: Int32) -> Int32 {
        guard let seat else { return -ENODEV }
        var fd: Int32 = -1
        let id = libseat_open_device(seat, path, &fd)
        guard id >= 0 else { return -lastErrno }
        devices[fd] = id
        return fd
    }

    func close(fd: Int32) {
        if let seat, let id = devices.removeValue(forKey: fd), !isLost { _ = libseat_close_device(seat, id) }
        _ = Glibc.close(fd)
    }
}

private nonisolated(unsafe) let seatListener: UnsafeMutablePointer<libseat_seat_listener> = {
    let table = UnsafeMutablePointer<libseat_seat_listener>.allocate(capacity: 1)
    table.initialize(to: libseat_seat_listener(
        enable_seat: { _, data in data.map { Unmanaged<SeatSession>.fromOpaque($0).takeUnretainedValue().enabled() } },
        disable_seat: { _, data in data.map { Unmanaged<SeatSession>.fromOpaque($0).takeUnretainedValue().disabled() } }))
    return table
}()
