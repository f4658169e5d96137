/// The heads as output-management clients (kanshi, wlr-randr) see them: the serial of the
/// current arrangement and every bound `zwlr_output_manager_v1`, told of each change. The
/// compositor's layout is the state; `Compositor.configureOutputs` changes it.
public final class OutputManagement {
    /// `zwlr_output_manager_v1.done`'s serial: a configuration made for an older one is
    /// cancelled, as the heads changed since the client looked.
    private(set) var serial: UInt32 = 1
    private var managers: [ZwlrOutputManager] = []
    /// The backend's say in what can be shown (nil: headless, every arrangement within
    /// `HeadConfigurationLimits`); the backend sets it when it starts, and holds it.
    public weak var configurator: OutputConfigurator?
    private unowned let layout: OutputLayout

    init(layout: OutputLayout) { self.layout = layout }

    /// Every head, on or off, for a manager to describe.
    var heads: [OutputHead] { layout.known }

    func managerBound(_ manager: ZwlrOutputManager) { managers.append(manager) }
    func managerDestroyed(_ manager: ZwlrOutputManager) { managers.removeAll { $0 === manager } }

    /// A head came, went or changed (`Compositor.layoutChanged`): a new serial, and each
    /// manager sends what changed, then `done`.
    func headsChanged() {
        serial &+= 1
        if serial == 0 { serial = 1 }
        for manager in managers { manager.update(heads: heads, serial: serial) }
    }
}
