import CInput
import Glibc
import LodestoneSystem
import WaylandServer

/// udev's "change" events of the DRM device (`udev_monitor` on the drm subsystem): a monitor
/// plugged in or pulled out. The kernel sends them (HOTPLUG=1) whoever is the DRM master, but
/// it does not re-probe the connectors itself: the fbdev console does so only while no master
/// holds the device, so while Lodestone runs, `/sys/class/drm/*/status` stays as it was until
/// someone asks. `DRMBackend.rescan` asks (drmModeGetConnector probes the connector).
final class DRMHotplug {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    private var source: EventSource?
    /// The card whose events count (`/dev/dri/cardN`).
    private let devnode: String

    init(devnode: String) throws(SystemError) {
        guard let udev = udev_new() else { throw SystemError("udev_new failed: no udev for monitor hotplug") }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            throw SystemError("cannot listen to udev for monitor hotplug (udev_monitor_new_from_netlink failed)")
        }
        self.udev = udev
        self.monitor = monitor
        self.devnode = devnode
        udev_monitor_filter_add_match_subsystem_devtype(monitor, "drm", nil)
        udev_monitor_enable_receiving(monitor)
    }

    deinit {
        source?.remove()
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// `changed` runs for each change event of the card.
    func attach(to loop: EventLoop, changed: @escaping () -> Void) throws(SystemError) {
        source = try loop.addFileDescriptor(udev_monitor_get_fd(monitor)) { [unowned self] _ in
            var any = false
            while let device = udev_monitor_receive_device(self.monitor) {
                defer { udev_device_unref(device) }
                let action = udev_device_get_action(device).map { String(cString: $0) }
                let node = udev_device_get_devnode(device).map { String(cString: $0) }
                if action == "change", node == self.devnode { any = true }
            }
            if any { changed() }
        }
    }

    func detach() {
        source?.remove()
        source = nil
    }
}
