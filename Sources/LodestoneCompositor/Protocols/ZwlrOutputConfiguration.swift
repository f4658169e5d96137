import CWaylandProtocols
import CWaylandServer
import Rendering
import WaylandServer

/// `zwlr_output_configuration_v1`: a client's new arrangement of every head, made for the
/// serial of the `done` it last read. `test` asks whether it could be shown, `apply` shows
/// it; either answers once (`succeeded`, `failed`, or `cancelled` when the heads changed
/// since that serial) and the configuration is used up. It is all or nothing
/// (`Compositor.configureOutputs`).
final class ZwlrOutputConfiguration: Resource, ZwlrOutputConfigurationV1Handler {
    private unowned let host: OutputManagementHost
    private let serial: UInt32
    /// Each head named so far (its `zwlr_output_head_v1`) and, when enabled, its settings.
    private var entries: [(head: ZwlrOutputHead, settings: ZwlrOutputConfigurationHead?)] = []
    private var used = false

    init?(host: OutputManagementHost, serial: UInt32, client: Client, version: UInt32, id: UInt32) {
        self.host = host
        self.serial = serial
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        switch request {
        case .enableHead:
            let settings = ZwlrOutputConfigurationHead(configuration: self, client: client, version: version, id: a.newID(0))
            name(a.object(1, as: ZwlrOutputHead.self), settings: settings)
        case .disableHead: name(a.object(0, as: ZwlrOutputHead.self), settings: nil)
        case .apply: finish(applying: true)
        case .test: finish(applying: false)
        case .destroy: destroy()
        }
    }

    /// Whether it was applied or tested already (its heads' settings are ignored then).
    var isUsed: Bool { used }

    /// `enable_head`, `disable_head`: a head may be named once.
    private func name(_ head: ZwlrOutputHead?, settings: ZwlrOutputConfigurationHead?) {
        guard !used else { return postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue, "zwlr_output_configuration_v1 was already applied or tested") }
        // libwayland has checked the argument is a zwlr_output_head_v1, and it is ours.
        guard let head else { return }
        if entries.contains(where: { $0.head === head || ($0.head.head != nil && $0.head.head === head.head) }) {
            return postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD.rawValue,
                             "head \(head.head?.name ?? "(gone)") is named twice in this zwlr_output_configuration_v1")
        }
        settings?.ownerHead = head.head
        entries.append((head, settings))
    }

    /// `apply`, `test`: cancelled for an old serial; every head must be named; then
    /// Lodestone and the backend decide.
    private func finish(applying: Bool) {
        guard !used else { return postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED.rawValue, "zwlr_output_configuration_v1 was already applied or tested") }
        used = true
        let management = host.outputManagement
        // A head gone since (inert) means the serial is old too.
        guard serial == management.serial, entries.allSatisfy({ $0.head.head != nil }) else {
            return send { zwlr_output_configuration_v1_send_cancelled($0) }
        }
        if let missing = management.heads.first(where: { head in !entries.contains { $0.head.head === head } }) {
            return postError(ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD.rawValue,
                             "head \(missing.name) is neither enabled nor disabled in this zwlr_output_configuration_v1")
        }
        var configuration: [HeadConfiguration] = []
        var refusal: String?
        for entry in entries {
            guard let head = entry.head.head else { continue }
            var c = HeadConfiguration(head)
            c.isEnabled = entry.settings != nil
            if let settings = entry.settings {
                if let why = settings.apply(to: &c) { refusal = refusal ?? "\(head.name): \(why)" }
            }
            configuration.append(c)
        }
        if let why = refusal ?? host.configureOutputs(configuration, applying: applying) {
            host.log.info("output configuration \(applying ? "not applied" : "would fail"): \(why)")
            return send { zwlr_output_configuration_v1_send_failed($0) }
        }
        send { zwlr_output_configuration_v1_send_succeeded($0) }
    }
}

/// `zwlr_output_configuration_head_v1`: what one enabled head should be; each property
/// set at most once, the others left as they are.
final class ZwlrOutputConfigurationHead: Resource, ZwlrOutputConfigurationHeadV1Handler {
    private weak var configuration: ZwlrOutputConfiguration?
    private var mode: ModeChoice?
    private var position: (x: Int32, y: Int32)?
    private var transform: OutputTransform?
    private var scale: Double?

    private enum ModeChoice {
        case listed(HeadMode), custom(width: Int32, height: Int32, refreshMilliHz: Int32)
        /// A mode object finished since (the serial is old: the configuration fails).
        case gone
    }

    init?(configuration: ZwlrOutputConfiguration, client: Client, version: UInt32, id: UInt32) {
        self.configuration = configuration
        super.init(client: client, version: version, id: id)
    }

    func handle(_ request: Request, _ a: Arguments) {
        // Once its configuration was used or destroyed, nothing it says counts.
        guard let configuration, !configuration.isUsed else { return }
        switch request {
        case .setMode:
            guard mode == nil else { return alreadySet("mode") }
            guard let m = a.object(0, as: ZwlrOutputMode.self) else { return }
            guard let owner = m.head else { mode = .gone; return }
            guard owner === ownerHead else {
                return postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE.rawValue, "the zwlr_output_mode_v1 is not a mode of this head")
            }
            mode = .listed(m.mode)
        case .setCustomMode:
            guard mode == nil else { return alreadySet("mode") }
            let (w, h, r) = (a.int(0), a.int(1), a.int(2))
            guard w > 0, h > 0, r >= 0 else {
                return postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE.rawValue, "custom mode \(w)×\(h) at \(r) mHz: width and height must be positive, refresh not negative")
            }
            mode = .custom(width: w, height: h, refreshMilliHz: r)
        case .setPosition:
            guard position == nil else { return alreadySet("position") }
            position = (a.int(0), a.int(1))
        case .setTransform:
            guard transform == nil else { return alreadySet("transform") }
            guard let t = OutputTransform(rawValue: a.int(0)) else {
                return postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM.rawValue, "transform \(a.int(0)) is not a wl_output.transform (0 to 7)")
            }
            transform = t
        case .setScale:
            guard scale == nil else { return alreadySet("scale") }
            let s = a.fixed(0)
            guard s > 0 else { return postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE.rawValue, "scale \(s) is not above 0") }
            scale = s
        }
    }

    /// The head this settings object was made for (through its configuration's entries).
    var ownerHead: OutputHead?

    private func alreadySet(_ property: String) {
        postError(ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET.rawValue, "the \(property) of this head is already set in this configuration")
    }

    /// Writes what was set into `c`; returns why it cannot be shown, or nil.
    func apply(to c: inout HeadConfiguration) -> String? {
        switch mode {
        case .listed(let m): c.mode = m
        case .custom(let w, let h, let r):
            let m = HeadMode(width: w, height: h, refreshMilliHz: r > 0 ? r : c.head.mode.refreshMilliHz)
            c.mode = m
            c.isCustomMode = !c.head.modes.contains { $0.matches(m) }
        case .gone: return "the mode chosen was withdrawn"
        case nil: break
        }
        if let position { c.x = position.x; c.y = position.y }
        if let transform { c.transform = transform }
        if let scale {
            // Lodestone's scales are 120ths (wp_fractional_scale_v1's unit), 1/4 to 4.
            let v120 = (scale * 120).rounded()
            guard v120 >= 30, v120 <= Double(OutputScale.maximum.v120) else { return "scale \(scale) is outside 0.25 to \(OutputScale.maximum)" }
            c.scale = OutputScale(v120: Int32(v120))
        }
        return nil
    }
}
