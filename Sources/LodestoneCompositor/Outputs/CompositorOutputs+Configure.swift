import LodestoneSystem
import Logging
import Rendering

/// A client's arrangement of the heads (`zwlr_output_configuration_v1`): tested, or
/// applied all at once, so clients never see half of it.
extension Compositor {
    /// Tests (`applying` false) or applies an arrangement of every head. Returns why it
    /// cannot be, or nil when it can be (and, applying, was): Lodestone's own limits first
    /// (`HeadConfigurationLimits`), then the backend's (`OutputManagement.configurator`),
    /// which then shows the new modes; only then does the layout change: modes, scales,
    /// transforms and places, heads switched on and off, windows following their heads
    /// (`relocate`), and every client told once (`layoutChanged`).
    func configureOutputs(_ configuration: [HeadConfiguration], applying: Bool) -> String? {
        if let refusal = HeadConfigurationLimits.refusal(of: configuration) ?? outputManagement.configurator?.refusal(of: configuration) {
            return refusal
        }
        guard applying else { return nil }
        do throws(SystemError) { try outputManagement.configurator?.apply(configuration) } catch { return "\(error)" }
        let windows = windowPlaces()
        for c in configuration {
            let head = c.head
            if c.isCustomMode, !head.modes.contains(where: { $0.matches(c.mode) }) { head.modes.append(c.mode) }
            head.mode = head.modes.first { $0.matches(c.mode) } ?? c.mode
            head.scale = c.scale
            head.transform = c.transform
            let size = c.logicalSize
            head.bounds = PixelRect(x: c.x, y: c.y, width: size.width, height: size.height)
            if head.isEnabled, !c.isEnabled, let global = head.global {
                retire(global)
                head.global = nil
            }
            if !head.isEnabled, c.isEnabled {
                do throws(SystemError) { try offer(head) } catch { log.error("\(head.name) is on without a wl_output: \(error)") }
            }
            head.isEnabled = c.isEnabled
        }
        layout.placedByClient = true
        layout.refreshEnabled()
        output.reconfigure(width: layout.size.width, height: layout.size.height, scale: output.scale)
        relocate(windows)
        layoutChanged()
        outputManagement.configurator?.arranged()
        let arranged = layout.known.map { h in
            h.isEnabled ? "\(h.name) \(h.mode.width)×\(h.mode.height) at \(h.bounds.x),\(h.bounds.y) scale \(h.scale) transform \(h.transform.rawValue)" : "\(h.name) off"
        }
        log.info("outputs arranged: \(arranged.joined(separator: ", "))")
        return nil
    }
}

extension Compositor {
    /// A backend's description of a head (a DRM connector's modes, size and name), before
    /// clients see it or with the change it brings.
    public func describe(_ head: OutputHead, modes: [HeadMode], current: HeadMode?, identity: HeadIdentity) {
        guard !modes.isEmpty else { return }
        head.modes = modes
        if let current { head.mode = current }
        head.identity = identity
    }
}

/// What `zwlr_output_manager_v1` and its configurations ask of the core.
protocol OutputManagementHost: AnyObject {
    var outputManagement: OutputManagement { get }
    func configureOutputs(_ configuration: [HeadConfiguration], applying: Bool) -> String?
    var log: Logger { get }
}

extension Compositor: OutputManagementHost {}
