import CWaylandProtocols
import CWaylandServer
import WaylandServer

/// The live idle inhibitors, and whether any of their surfaces is on screen. Re-checked
/// when one comes or goes and whenever the scene's layout changes (a surface mapped,
/// unmapped or destroyed).
final class IdleInhibitors {
    private var inhibitors: [ZwpIdleInhibitor] = []
    private(set) var isInhibited = false
    /// Told when `isInhibited` changes.
    private let changed: (Bool) -> Void
    /// Whether a surface is on screen.
    private let isVisible: (WlSurface) -> Bool

    init(isVisible: @escaping (WlSurface) -> Bool, changed: @escaping (Bool) -> Void) {
        self.isVisible = isVisible
        self.changed = changed
    }

    func add(_ inhibitor: ZwpIdleInhibitor) { inhibitors.append(inhibitor); reevaluate() }
    func remove(_ inhibitor: ZwpIdleInhibitor) { inhibitors.removeAll { $0 === inhibitor }; reevaluate() }

    func reevaluate() {
        let now = inhibitors.contains { $0.surface.map(isVisible) ?? false }
        guard now != isInhibited else { return }
        isInhibited = now
        changed(now)
    }
}
