import CWaylandClient
import CWaylandProtocols
import LodestoneCompositor
import LodestoneSystem
import Logging
import Rendering
import WaylandClient
import WaylandServer

/// The nested backend: Lodestone is an `xdg_toplevel` window in a parent
/// Wayland session. The window is the output (its size is the mode, the
/// parent's scale is the scale), frames go to the parent through `wl_shm`
/// buffers paced by its frame callbacks, and input comes from the parent's
/// seat.
///
/// Single thread: the parent connection's fd is one more source on
/// Lodestone's `wl_event_loop`, read with prepare_read/read_events so nothing
/// ever blocks.
public final class WaylandBackend: Backend {
    public let name = "wayland"
    public var frameComposed: ((Image, Int) -> Void)?
    /// The parent closed the window (xdg_toplevel.close): time to stop.
    public var windowClosed: (() -> Void)?
    /// The parent connection ended (parent exited or killed us with a
    /// protocol error); the argument says why.
    public var parentLost: ((String) -> Void)?
    /// Share the clipboard and the primary selection with the parent (`ParentSelection`);
    /// off with --no-share-clipboard. Set before `start`.
    public var sharesClipboard = true
    /// Show client surfaces as subsurfaces of the window in the parent, composing only what
    /// must be (`ParentPlanes`); off with --parent-planes off. Set before `start`.
    public var usesParentPlanes = true

    private let log: Logger
    private let connection: Connection
    private let registry: Registry
    /// The parent's globals we need or use.
    let globals: ParentGlobals
    private var window: ParentWindow?
    /// Refuses what the window cannot be (`NestedOutputConfiguration`).
    private let outputConfiguration = NestedOutputConfiguration()
    private var presenter: Presenter?
    private var planes: ParentPlanes?
    private var input: ParentInput?
    /// The compositor whose `pointerPlane` the parent's cursor is (and whose
    /// `surfacePlanes` the planes are), while started.
    private weak var compositor: Compositor?
    /// Our zwp_keyboard_shortcuts_inhibitor_v1 on the window, if the parent offers the manager.
    private var shortcutsInhibitor: Proxy?
    private var selections: ParentSelections?
    /// The parent's input method for the apps inside, when the parent offers text-input v3.
    private var textInput: ParentTextInput?
    private var watch: EventSource?
    private var size: (width: Int32, height: Int32)
    /// The parent's linux-dmabuf, offered on to clients (`ParentDmabuf`), when it has one.
    private var dmabuf: ParentDmabuf?

    /// Connects to the parent: $WAYLAND_DISPLAY, or `display` when given.
    /// Must run before Lodestone points WAYLAND_DISPLAY at its own socket.
    public init(display: String? = nil, logger: Logger) throws(SystemError) {
        log = logger
        do throws(SystemError) {
            connection = try Connection(name: display)
        } catch {
            throw SystemError("\(error) (is a Wayland session running? Use --backend headless without one)", call: error.call)
        }
        registry = connection.registry()
        globals = try ParentGlobals(registry: registry, connection: connection)
        size = (0, 0)
        // Before the first round trip, which brings its feedback.
        dmabuf = globals.linuxDmabuf.map { ParentDmabuf(manager: $0, logger: logger) }
    }

    public func start(_ compositor: Compositor) throws(SystemError) {
        let output = compositor.output
        size = (output.width, output.height)
        self.compositor = compositor
        // Frames follow the parent's frame callbacks, at a refresh we are not told.
        compositor.pacing = .parent
        // The window is the head: what output-management clients may change of it.
        compositor.outputManagement.configurator = outputConfiguration

        // The window, with the output's size until the parent says otherwise.
        let window: ParentWindow
        do throws(SystemError) {
            window = try ParentWindow(globals: globals, width: output.width, height: output.height, scale: output.scale, logger: log)
        } catch {
            throw SystemError("cannot open Lodestone's window in the parent session", call: error.call, reason: "\(error)")
        }
        window.resized = { [unowned compositor] width, height, scale in
            compositor.reconfigureOutput(width: width, height: height, scale: scale)
        }
        window.closed = { [unowned self] in
            self.log.info("the parent closed Lodestone's window")
            self.windowClosed?()
        }
        self.window = window

        // Frames: each composed frame's damage goes to the parent.
        let presenter = Presenter(window: window, globals: globals, clock: compositor.clock, output: output, logger: log)
        self.presenter = presenter
        compositor.framePresented = { [unowned self, unowned compositor] image, damage in
            presenter.present(damage: damage)
            // With surfaces on planes the composed frame lacks them: a screenshot reads the whole.
            if let frameComposed = self.frameComposed { frameComposed(compositor.capturedImage(), compositor.frameCount) }
        }
        window.configured = { [unowned presenter] in presenter.windowConfigured() }

        // Client surfaces on the parent's subsurfaces, where nothing needs composing them:
        // the pool files of Lodestone's wl_shm are kept for the parent to map.
        if usesParentPlanes, let subcompositor = globals.subcompositor {
            let planes = ParentPlanes(window: window, globals: globals, subcompositor: subcompositor,
                                      windowCanCommit: { [unowned presenter] in presenter.canCommit }, logger: log)
            presenter.planes = planes
            compositor.surfacePlanes = planes
            compositor.display.shmFiles.keepsFiles = true
            self.planes = planes
        } else if usesParentPlanes {
            log.notice("the parent offers no wl_subcompositor: every client surface is composed")
        }

        // Input from the parent's seat.
        if let seat = globals.seat {
            input = ParentInput(seat: seat, globals: globals, window: window, target: compositor.seat, clock: compositor.clock, logger: log)
            // The plain pointer is the parent's cursor (`ParentPointerPlane`).
            let plane = ParentPointerPlane(shm: globals.shm, compositor: globals.compositor, output: output, logger: log)
            input?.cursorPlane = plane
            presenter.cursorPlane = plane
            compositor.pointerPlane = plane
            // While our window has the parent's keyboard, the parent's shortcuts pass to us
            // (and so to the clients inside), when the parent lets windows ask.
            if let manager = globals.shortcutsInhibitManager {
                shortcutsInhibitor = try? Proxy(creating: { manager.request(window.surface, seat) { zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts($0, $1, $2) } },
                                                on: connection, what: "zwp_keyboard_shortcuts_inhibit_manager_v1.inhibit_shortcuts")
            }
            if sharesClipboard {
                let selections = ParentSelections(globals: globals, registry: registry, seat: seat, window: window.surface, compositor: compositor, logger: log)
                input?.keyboardSerial = { [unowned selections] in selections.keyboardSerial($0) }
                input?.pointerLeftWindowHeld = { [unowned selections] in selections.drags?.carryOut(serial: $0) ?? false }
                self.selections = selections
            }
            textInput = ParentTextInput(registry: registry, globals: globals, seat: seat, window: window, bridge: compositor.bridgedTextInput, logger: log)
        } else {
            log.notice("the parent offers no wl_seat: no input reaches Lodestone")
        }

        // Clients allocate dmabufs on the parent's main device, and each is imported there too.
        if let dmabuf {
            compositor.dmabuf.parent = dmabuf
            dmabuf.changed = { [unowned compositor] in compositor.dmabuf.parentChanged() }
        }

        // Map: the initial commit, then the first configure (size, scale).
        do throws(SystemError) {
            try connection.roundtrip()
            try connection.roundtrip()
        } catch {
            throw SystemError("the parent Wayland session failed while mapping the window", call: error.call, reason: "\(error)")
        }

        watch = try compositor.display.eventLoop.addFileDescriptor(connection.fileDescriptor) { [unowned self] _ in
            do {
                try self.connection.readAndDispatch()
            } catch {
                self.disconnected("\(error)")
            }
        }
        // Requests queued while starting (acks, the first frame).
        try? connection.flushChecked()
        let extras = [window.titleBar != nil ? "its own title bar" : globals.decorationManager != nil ? "server-side decorations" : nil,
                      shortcutsInhibitor != nil ? "its shortcuts passed through" : nil,
                      globals.relativePointerManager != nil ? "relative pointer" : nil,
                      globals.pointerGestures != nil ? "gestures" : nil, globals.tabletManager != nil ? "tablets" : nil,
                      globals.fractionalScale != nil ? "fractional scale" : nil].compactMap { $0 }
        log.info("nested in the parent session as a \(output.width)×\(output.height) @\(output.scale)x window\(extras.isEmpty ? "" : " with " + extras.joined(separator: ", "))")
    }

    private func disconnected(_ reason: String) {
        // The fd would stay readable (hung up) and spin the loop.
        watch?.remove()
        watch = nil
        log.error("lost the parent Wayland session: \(reason)")
        parentLost?(reason)
    }

    /// Closes the window and stops reading the parent, while Lodestone's event loop still
    /// exists: the connection's watch and the frame clock the input and presenter hold are
    /// sources on that loop, and removing them after the display is gone wrote to freed
    /// memory (a crash at exit, about one in six nested runs).
    public func stop() {
        // Children before parents: the input and the presenter's buffers
        // reference the window's surface.
        shortcutsInhibitor?.destroy { zwp_keyboard_shortcuts_inhibitor_v1_destroy($0) }
        shortcutsInhibitor = nil
        dmabuf = nil
        selections = nil
        textInput = nil
        input = nil
        compositor?.surfacePlanes = nil
        if let planes { log.info("parent planes: \(planes.planesMade) made, \(planes.planeCommits) commits of theirs") }
        planes = nil
        presenter = nil
        compositor?.pointerPlane = nil
        window = nil
        watch?.remove()
        watch = nil
        connection.flush()
    }

    deinit { stop() }
}
