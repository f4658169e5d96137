// Over 300 lines: one ParsableCommand, whose options must be its stored properties, and its run(), the whole setup read top to bottom as STYLE.md asks; the argument types and the runtime directory live in files of their own.
// Lodestone: a Wayland compositor with the iPadOS adaptive pointer.
//
// This file is the whole setup, top to bottom: parse the command line, create
// the display and its socket, the compositor state with its globals, the
// backend, optionally a client to run; then run the event loop until told to
// stop.
import ArgumentParser
import Backends
import LodestoneCompositor
import Glibc
import LodestoneConfig
import LodestoneSystem
import Logging
import AdaptivePointerEngine
import Rendering
import WaylandServer

@main
struct Lodestone: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lodestone",
        abstract: "A Wayland compositor with the iPadOS adaptive pointer.",
        discussion: "With a COMMAND, Lodestone starts it inside the session and exits with its status when it ends.",
        version: Lodestone.version)

    /// The release, printed by --version.
    static let version = "0.2.0"

    enum BackendKind: String, ExpressibleByArgument, CaseIterable { case headless, wayland, drm }

    @Option(help: "Where frames go: \(BackendKind.allCases.map(\.rawValue).joined(separator: ", ")) (default: wayland, a window in the session, when WAYLAND_DISPLAY is set; else headless).")
    var backend: BackendKind?

    @Option(help: "Output size in logical pixels, WIDTHxHEIGHT.")
    var size: OutputSize = OutputSize(width: 1280, height: 800)

    @Option(help: "Headless: how many outputs of --size, side by side left to right (HEADLESS-1, HEADLESS-2, ...).")
    var outputs: Int = 1

    @Option(help: "Output scale, above 0 and at most 4: whole (1, 2) or fractional in 120ths (1.25, 1.5); headless and on a TTY (nested, the parent's scale applies).")
    var scale: String = "1"

    /// `--scale`, parsed (`validate` has rejected anything else).
    var outputScale: OutputScale { (try? OutputScale.parse(scale).get()) ?? OutputScale(1) }

    @Option(help: "xkb keyboard layout, e.g. 'de' (default: 'us'; nested, the parent's keymap).")
    var keyboardLayout: String?

    @Option(help: "Frames per second of the frame clock.")
    var refresh: Int32 = 60

    @Option(help: "How long before its refresh a frame starts composing: auto (the measured compose time plus a margin), off (at the refresh) or milliseconds (default: config.toml's max-render-time, else auto).")
    var maxRenderTime: String?

    @Option(help: "Wayland socket name in XDG_RUNTIME_DIR (default: first free wayland-N).")
    var socket: String?

    @Flag(help: "Offer the lodestone_test_v1 protocol (input injection, screen capture). Never use in a real session.")
    var testControl = false

    @Flag(help: "Offer a touchscreen (wl_touch), whose points the lodestone_test_v1 protocol injects (needs --test-control). A TTY offers wl_touch by itself while a touchscreen is plugged in.")
    var touchscreen = false

    @Flag(help: "Do not offer zwlr_screencopy_manager_v1 (screenshots with grim, screen recorders), which is otherwise offered headless and nested; a TTY never offers it.")
    var noScreencopy = false

    @Flag(help: "Do not offer zwlr_data_control_manager_v1 (clipboard managers, wl-copy and wl-paste without a window, wl-paste watching the clipboard): no client reads or sets the clipboard unless it has the keyboard.")
    var noDataControl = false

    @Flag(help: "Do not offer zxdg_decoration_manager_v1: clients draw their own title bars, as under GNOME's mutter (a nested Lodestone inside then draws its own).")
    var noServerDecorations = false

    @Flag(help: "Nested: do not share the clipboard and primary selection with the parent session.")
    var noShareClipboard = false

    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    @Option(help: "Nested: show client surfaces as subsurfaces of Lodestone's window in the parent, composing only what needs it (title bars, effects, surfaces the parent cannot crop or scale as Lodestone does): on or off (default: on).")
    var parentPlanes: Switch = .on

    @Flag(help: "On a TTY: log the time from each pointer motion (the kernel's timestamp) to the page flip that shows it, at exit.")
    var stats = false

    @Flag(help: "Frames happen only when a test advances the clock (needs --test-control).")
    var manualClock = false

    @Option(help: "Write a PNG of the output to this file, then exit.")
    var screenshot: String?

    @Option(help: "With --screenshot: how many composed frames to wait for.")
    var afterFrames: Int = 1

    @Option(help: "Exit after this many seconds (writing the --screenshot first, if any).")
    var timeout: Double?

    @Option(help: "Pointer over surfaces that declare no adaptive regions: 'adaptive' the adaptive pointer (see --legacy-apps), 'client' the app's own cursor images (default: adaptive; config: pointer).")
    var pointer: PointerMode?

    @Option(help: "With --pointer adaptive, apps that declare no regions: 'adaptive' and 'shapes' turn their cursor names (wp_cursor_shape_v1, recognised theme cursors) into adaptive forms and show other images as drawn; 'off' shows the adaptive circle whatever their cursor (default: adaptive; config: legacy-apps).")
    var legacyApps: LegacyApps?

    // The pointer's settings: config.toml has them all (docs/configuration.md); these
    // flags cover the common ones and win over the file, also when it is edited later.

    @Option(help: ArgumentHelp("The configuration file (default: $XDG_CONFIG_HOME/lodestone/config.toml, else ~/.config/lodestone/config.toml). Saving it applies the new settings at once.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The pointer's style: 'circle' (iPadOS 13-18, magnetic) or 'arrow' (iPadOS 26: a pointed arrow that tracks the hand 1:1, magnetism off unless --magnetism) (default: circle; config: appearance.style).", valueName: "style"))
    var pointerStyle: PointerSettings.Style?

    @Option(help: "Pointer size, 1-4 (config: appearance.size).")
    var pointerSize: Double?

    @Option(help: ArgumentHelp("Pointer colour: #RRGGBB, #RRGGBBAA, standard, white or black (config: appearance.color).", valueName: "colour"))
    var pointerColor: PointerColor?

    @Flag(inversion: .prefixedNo, help: "Draw a border around the pointer (config: appearance.border).")
    var border: Bool?

    @Flag(inversion: .prefixedNo, help: "Opaque pointer colour, always with a border (config: appearance.increase-contrast).")
    var increaseContrast: Bool?

    @Flag(inversion: .prefixedNo, help: "Quick fades instead of morphs, no overshoot or parallax (config: behaviour.reduce-motion).")
    var reduceMotion: Bool?

    @Flag(inversion: .prefixedNo, help: "The pointer's pull towards controls, flick capture and text snapping (default: on for the circle, off for the arrow; config: behaviour.magnetism).")
    var magnetism: Bool?

    @Flag(inversion: .prefixedNo, help: "Hide the pointer after inactivity and while typing (default: on; config: behaviour.auto-hide).")
    var autoHide: Bool?

    @Option(help: ArgumentHelp("Seconds of inactivity before the pointer hides, after a mouse and after a trackpad (config: behaviour.mouse-auto-hide-delay, behaviour.trackpad-auto-hide-delay).", valueName: "seconds"))
    var autoHideDelay: Double?

    @Flag(inversion: .prefixedNo, help: "Grow the pointer while the mouse is shaken, to find it (default: on; config: behaviour.shake-to-find, behaviour.shake-magnification).")
    var shakeToFind: Bool?

    @Flag(inversion: .prefixedNo, help: "Run X11 apps through Xwayland, started on the first X11 connection (DISPLAY is set for the command).")
    var xwayland = true

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Argument(parsing: .postTerminator, help: "A command to run inside Lodestone.")
    var command: [String] = []

    func validate() throws {
        if case .failure(let why) = OutputScale.parse(scale) { throw ValidationError("--scale: \(why)") }
        if let maxRenderTime, MaxRenderTime(argument: maxRenderTime) == nil {
            throw ValidationError("--max-render-time must be auto, off or a number of milliseconds above 0, not \(maxRenderTime)")
        }
        guard (1...16).contains(outputs) else { throw ValidationError("--outputs must be between 1 and 16, not \(outputs)") }
        guard (1...1000).contains(refresh) else { throw ValidationError("--refresh must be between 1 and 1000 Hz, not \(refresh)") }
        if let timeout, !(timeout > 0 && timeout < 86400) { throw ValidationError("--timeout must be a positive number of seconds") }
        guard afterFrames >= 1 else { throw ValidationError("--after-frames must be at least 1") }
        if manualClock && !testControl { throw ValidationError("--manual-clock needs --test-control: nothing else can advance the clock") }
        if touchscreen && !testControl { throw ValidationError("--touchscreen needs --test-control: its touch points come from the test protocol (a TTY offers its touchscreens without it)") }
        if let socket, socket.isEmpty || socket.contains("/") { throw ValidationError("--socket must be a plain name like 'wayland-5'") }
        if let pointerSize, !(1...4).contains(pointerSize) { throw ValidationError("--pointer-size must be between 1 and 4, not \(pointerSize)") }
        if let autoHideDelay, !(0.5...3600).contains(autoHideDelay) { throw ValidationError("--auto-hide-delay must be between 0.5 and 3600 seconds") }
    }

    /// The flags that override config.toml.
    var overrides: Overrides {
        var o = Overrides()
        o.maxRenderTime = maxRenderTime.flatMap(MaxRenderTime.init(argument:))
        o.pointerMode = pointer; o.legacyApps = legacyApps
        o.style = pointerStyle; o.size = pointerSize; o.color = pointerColor; o.border = border; o.increaseContrast = increaseContrast
        o.reduceMotion = reduceMotion; o.magnetism = magnetism; o.autoHide = autoHide; o.autoHideDelay = autoHideDelay; o.shakeToFind = shakeToFind
        return o
    }

    func run() throws {
        // Every logger (ours, and the protocol-error log in WaylandServer) at the chosen level.
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let log = Logger(label: "lodestone")

        // The settings: config.toml (if there is one), then the flags over it. A bad file
        // stops us here, with its key and line ("Error: FILE:LINE: KEY: why", status 1),
        // whatever its bytes: the TOML parser runs in a child process (ForkedTOMLParser).
        let configPath = config ?? ConfigurationFile.defaultPath()
        guard let fromFile = try ConfigurationFile.load(configPath) ?? (config == nil ? Configuration() : nil) else {
            throw SystemError("the configuration file \(configPath) does not exist")
        }
        let overrides = self.overrides
        let settings = overrides.apply(to: fromFile)

        // Nested in a Wayland session when there is one: connect to the parent
        // now, before anything (our command) can see our own WAYLAND_DISPLAY.
        let kind = backend ?? (getenv("WAYLAND_DISPLAY") != nil ? .wayland : .headless)
        // Start-up failures are thrown as SystemError: ArgumentParser prints
        // "Error: <what>: <why>" and exits with status 1, never a trap.
        let nested = kind == .wayland ? try WaylandBackend(logger: log) : nil
        nested?.sharesClipboard = !noShareClipboard
        nested?.usesParentPlanes = parentPlanes == .on
        // On a bare TTY: the seat, the GPU and the input devices, checked before anything
        // else so a machine without them is told so at once.
        let drm = kind == .drm ? try DRMBackend(logger: log) : nil
        try ensureRuntimeDirectory(log)

        // The display: libwayland's socket and event loop. Everything runs on this loop.
        let display = try Display()
        // Stop cleanly on SIGINT/SIGTERM, read through a signalfd; set up
        // before the socket exists so no early signal is lost.
        let stop = { log.info("shutting down"); display.terminate() }
        let signals = [try display.eventLoop.addSignal(SIGINT, stop), try display.eventLoop.addSignal(SIGTERM, stop)]
        // A paste target that closes its pipe before Lodestone has written all of it (the
        // window manager bridging the X11 clipboard writes into such pipes) must make the
        // write fail with EPIPE, not end the session. Children start with the default.
        signal(SIGPIPE, SIG_IGN)
        let socketName = try display.addSocket(socket)

        // The compositor's state and its globals.
        var options = Compositor.Options()
        options.width = size.width; options.height = size.height; options.scale = outputScale
        options.refreshHz = refresh
        // Headless heads side by side, each of --size.
        if outputs > 1 && kind == .headless {
            options.outputs = (1...outputs).map { OutputMode(name: "HEADLESS-\($0)", width: size.width, height: size.height, refreshHz: refresh) }
        } else if outputs > 1 {
            log.notice("--outputs applies headless only; the \(kind.rawValue) backend has its own outputs")
        }
        // A TTY output has the monitor's mode (its logical size follows the scale).
        if let drm, let first = drm.modes.first {
            options.width = outputScale.logical(first.width); options.height = outputScale.logical(first.height); options.refreshHz = first.refreshHz; options.outputName = "DRM-1"
            // Every connected monitor, side by side in connector order.
            if drm.modes.count > 1 {
                options.outputs = drm.modes.enumerated().map {
                    OutputMode(name: "DRM-\($0.offset + 1)", width: outputScale.logical($0.element.width), height: outputScale.logical($0.element.height), refreshHz: $0.element.refreshHz)
                }
            }
        }
        options.clock = manualClock ? .manual : .realtime
        options.testControl = testControl
        options.touch = touchscreen
        // Screen copies only where the screen is ours alone to show: not on a TTY, where
        // any client could read the user's whole desktop.
        options.screencopy = kind != .drm && !noScreencopy
        options.serverDecorations = !noServerDecorations
        options.dataControl = !noDataControl
        options.pointerMode = settings.pointerMode
        options.maxRenderTime = settings.maxRenderTime
        options.legacyApps = settings.legacyApps
        options.pointerSettings = settings.pointer
        if nested != nil {
            options.outputName = "WL-1"
            // Nested, the parent's scale applies (its preferred fractional scale for our
            // window, or its whole wl_output scale); a fractional --scale starts rounded up
            // until the parent says.
            if !outputScale.isIntegral {
                log.notice("nested, the output scale follows the parent's: --scale \(outputScale) starts as \(outputScale.ceiling)")
                options.scale = OutputScale(outputScale.ceiling)
            }
        }
        let compositor = try Compositor(display: display, options: options, logger: log)
        if let keyboardLayout, !compositor.seat.keyboard.useKeymap(layout: keyboardLayout) {
            throw SystemError("xkbcommon has no keyboard layout '\(keyboardLayout)'")
        }
        compositor.seat.keyboard.configureKeyRepeat(rate: settings.keyboard.repeatRate, delay: settings.keyboard.repeatDelay)

        // config.toml saved while running: the new settings reach the pointer at once (the
        // flags still win); a bad edit is logged and changes nothing. Watched on the loop.
        var watcher: ConfigWatcher?
        do {
            watcher = try ConfigWatcher(path: configPath, loop: display.eventLoop, changed: { file in
                let s = overrides.apply(to: file)
                compositor.updatePointer(settings: s.pointer, mode: s.pointerMode, legacyApps: s.legacyApps)
                compositor.launcher.terminal = s.session.terminal
                compositor.seat.keyboard.configureKeyRepeat(rate: s.keyboard.repeatRate, delay: s.keyboard.repeatDelay)
                compositor.scribble.settings = s.scribble
                log.info("\(configPath) reloaded")
            }, failed: { error in
                // Any bytes at all give this (the TOML parser runs in a child process): the
                // session goes on with what it had, and the next good save applies.
                log.warning("\(error); the settings stay as they were")
            })
        } catch {
            // Quietly for the default path: most users have no config directory.
            let message: Logger.Message = "\(error): edits to \(configPath) apply at the next start"
            if config == nil { log.debug(message) } else { log.notice(message) }
        }

        // X11 apps: a display number and its sockets now, Xwayland itself only when the
        // first X11 client connects (XwaylandServer).
        var xwayland: XwaylandServer?
        if self.xwayland {
            do {
                xwayland = try XwaylandServer(compositor: compositor)
                log.info("X11 apps connect to DISPLAY=\(xwayland!.displayName); Xwayland starts with the first")
            } catch {
                log.warning("\(error); X11 apps will not run")
            }
        }

        // The backend: where frames go and input comes from.
        let backend: Backend = if let nested { nested } else if let drm { drm } else { HeadlessBackend(logger: log) }
        // Motion → page flip, measured on a TTY only (the kernel stamps its input there).
        if stats { drm?.motionToFlip = MotionToFlip() }
        try backend.start(compositor)
        log.info("listening on WAYLAND_DISPLAY=\(socketName)\(testControl ? " with test control" : "")")

        var status: Int32 = 0
        // Nested: closing the window ends the session normally; losing the
        // parent ends it with an error.
        nested?.windowClosed = { log.info("shutting down"); display.terminate() }
        nested?.parentLost = { _ in status = 1; display.terminate() }
        // On a TTY, losing the seat (seatd gone) or the GPU ends it with an error.
        drm?.sessionLost = { _ in status = 1; display.terminate() }
        if let screenshot {
            // Unowned: the backend keeps this closure, and a cycle would keep the display
            // (and with it our socket and its .lock file) alive past exit.
            backend.frameComposed = { [unowned backend] image, frames in
                guard frames >= afterFrames else { return }
                do {
                    try PNG.write(image, to: screenshot)
                    print("screenshot: \(screenshot)")
                } catch {
                    log.error("\(error)")
                    status = 1
                }
                backend.frameComposed = nil
                display.terminate()
            }
        }

        // A deadline for scripted runs: take the screenshot as it is, then stop.
        var deadline: EventSource?
        if let timeout {
            deadline = try display.eventLoop.addTimer {
                if let screenshot, backend.frameComposed != nil {
                    do {
                        try PNG.write(compositor.capturedImage(), to: screenshot)
                        print("screenshot: \(screenshot)")
                    } catch {
                        log.error("\(error)")
                        status = 1
                    }
                }
                display.terminate()
            }
            deadline?.arm(milliseconds: Int32(timeout * 1000))
        }


        // The command, if any: Lodestone lives as long as it does. One SIGCHLD source for
        // every child (a signal is read by one signalfd only): the command and Xwayland.
        var exitedEarly = false
        var child: ChildProcess?
        let childWatch = try display.eventLoop.addSignal(SIGCHLD) {
            xwayland?.reap()
            compositor.launcher.reap()
            if let code = child?.reap() {
                log.info("'\(command[0])' exited with status \(code)")
                status = code
                child = nil
                display.terminate()
            }
        }
        // The session's own programs (config.toml's [session] startup: a panel, a
        // notifier), now that clients can connect; the terminal for Super+Return.
        compositor.launcher.environment = ["WAYLAND_DISPLAY": socketName].merging(xwayland.map { ["DISPLAY": $0.displayName] } ?? [:]) { $1 }
        compositor.launcher.terminal = settings.session.terminal
        compositor.scribble.settings = settings.scribble
        for program in settings.session.startup { compositor.launcher.run(program) }
        if !command.isEmpty {
            // With an xdg_activation_v1 token, as a launcher passes one: its first window may take the focus.
            var environment = ["WAYLAND_DISPLAY": socketName, "XDG_ACTIVATION_TOKEN": compositor.activationTokens.issueForLaunch()]
            if let xwayland { environment["DISPLAY"] = xwayland.displayName }
            // Chromium publishes its pages for accessibility only when told to (Compositor's `AccessibilitySwitches`).
            child = try ChildProcess(AccessibilitySwitches.command(command), environment: environment)
            // It may have died before the signal source existed.
            // (wl_display_run would ignore a terminate issued before it starts.)
            if let code = child?.reap() { status = code; child = nil; exitedEarly = true }
        }

        // The loop: wait for clients, devices and the next frame's deadline (the frame clock
        // rides the loop's own wait rather than a timer: no syscall to schedule a frame).
        compositor.clock.drivenByLoop = true
        if !exitedEarly { display.run(until: compositor.clock) }

        // Orderly teardown: clients are disconnected (most exit on their own),
        // then the command is stopped, then the display goes.
        xwayland?.shutdown()
        compositor.shutdown()
        // Every source the backend has on our loop goes while the loop exists (nested: the
        // window and the parent's fd; DRM: the seat's, the card's and libinput's).
        backend.stop()
        if let summary = drm?.motionToFlip?.summary {
            // With the scheduler's lead at exit: what `--max-render-time` made of the flips.
            let s = compositor.clock.scheduler
            func ms(_ v: Double) -> String { "\((v * 100).rounded() / 100) ms" }
            log.info("\(summary); frames start \(ms(s.lead)) before their refresh (margin \(ms(s.margin)), refresh \(ms(s.interval)))")
        }
        child?.terminate()
        // Nothing may keep the display alive now: its deinit removes the socket and lock file.
        backend.frameComposed = nil
        nested?.windowClosed = nil
        nested?.parentLost = nil
        drm?.sessionLost = nil
        // The run's own sources go now, while the loop exists, one by one: left to the end of
        // this scope they go in whatever order the optimizer ends their lives, and a source
        // removed after its loop writes into freed memory.
        watcher?.stop()
        deadline?.remove()
        childWatch.remove()
        signals.forEach { $0.remove() }
        // The optimizer may end a value's life at its last use; the display and what holds it
        // must outlive every source above.
        withExtendedLifetime((display, compositor, backend, xwayland, watcher)) {}
        if status != 0 { throw ExitCode(status) }
    }
}
