import AdaptivePointerEngine
import LodestoneSystem
import Logging
import PointerAdaptation
import Rendering
import WaylandServer

/// Scribble (issue 40): handwriting with the pen in any text field, recognised on the device.
///
/// A pen stroke that starts where text is accepted (`ScribbleTarget`) is Scribble's: the app
/// hears nothing of it, the ink is drawn over the field (`ScribbleInk`), and after the pen
/// rests `settings.pause` seconds the strokes go to the recogniser (`ScribbleRecognizer`, a
/// helper process). While it reads them the field shows a preedit ("…"); its text is then
/// committed through the active text input, as an input method's commit is
/// (`AppTextInput.apply`, so text-input v3 and v1 apps alike), and the ink fades.
///
/// A press is held back from the app until it is told apart (`PenPress`): a tap (lifted
/// before moving `slop` points) and a still press (held `holdMilliseconds` without moving
/// that far) reach the app as tablet events, late but whole, so the pen still places the
/// caret and presses buttons. Moving further makes it a stroke. Once there is ink, every
/// touch near it is writing at once (the dot on an i, a cross stroke).
///
/// Two shapes are gestures, not writing (`ScribbleGesture`): a scratch deletes what Scribble
/// typed last, a line through text selects it (AT-SPI). In an app's writing area
/// (adaptive-pointer-v1 version 4) the text goes to the region's `written` event instead.
public final class Scribble {
    /// config.toml's `[scribble]`, applied again when the file is saved.
    public var settings = ScribbleSettings()
    unowned let scene: Scene
    /// The adaptive-pointer regions, for the apps' writing areas.
    private unowned let regions: SceneRegions
    unowned let textInputs: TextInputs
    unowned let accessibility: Accessibility
    private unowned let output: Output
    private unowned let clock: FrameClock
    let log: Logger
    let ink = ScribbleInk()
    let recognizer: ScribbleRecognizer
    private(set) var pauseTimer: EventSource?
    private(set) var fadeTimer: EventSource?

    /// The pen's press being told apart, or the stroke it became.
    struct PenPress {
        let tool: TabletTool
        let start: InkPoint
        let time: UInt32
        /// The points while undecided: the stroke's ink from its very start.
        var points: [InkPoint] = []
        /// A stroke (true) or still undecided.
        var writing: Bool
        /// The field is not focused: the first stroke clicks it first.
        let focusFirst: Bool
    }
    private(set) var press: PenPress?
    /// The surface written on: its text input gets the text.
    weak var field: WlSurface?
    /// The strokes sent to the recogniser (their ink stays until the answer).
    var recognizing = false
    /// What Scribble typed last: scratching over its ink deletes it.
    struct Typed {
        weak var surface: WlSurface?
        var text: String
        var ink: PixelRect
        /// The text before the caret the app reported when it was typed.
        var before: String?
    }
    var lastTyped: Typed?
    /// The app's writing area written in (adaptive_pointer_region_v1, since 4), if any: the
    /// text goes to it instead of a text input.
    weak var writingArea: AdaptivePointerRegion?
    /// The line gestures asked of AT-SPI so far: only the latest one's answer counts.
    var lineAsked = 0

    init(scene: Scene, regions: SceneRegions, textInputs: TextInputs, accessibility: Accessibility, output: Output, clock: FrameClock,
         loop: EventLoop, log: Logger) throws(SystemError) {
        self.scene = scene
        self.regions = regions
        self.textInputs = textInputs
        self.accessibility = accessibility
        self.output = output
        self.clock = clock
        self.log = log
        recognizer = ScribbleRecognizer(command: ScribbleRecognizer.defaultCommand(), loop: loop, log: log)
        scene.ink = ink
        pauseTimer = try loop.addTimer { [unowned self] in self.paused() }
        fadeTimer = try loop.addTimer { [unowned self] in self.fadeStep() }
        recognizer.answered = { [unowned self] in self.answered($0) }
    }

    // MARK: The pen (from `Tablets`)

    /// The tip touched at `at` (global) over `surface` (`local`: its coordinates).
    func tipDown(_ tool: TabletTool, at p: InkPoint, surface: WlSurface?, local: (x: Double, y: Double), time: UInt32) -> Route {
        guard settings.enabled, [.pen, .pencil, .brush].contains(tool.kind), press == nil else { return .app }
        if field != nil, ink.alpha == 1, let b = ink.bounds, nearInk(p, b) {
            // More of the same writing: ink from the first touch; a recognition going on is
            // abandoned, and the next pause reads all the ink.
            if recognizing { recognizer.cancel(); recognizing = false }
            pauseTimer?.arm(milliseconds: 0)
            fadeTimer?.arm(milliseconds: 0)
            press = PenPress(tool: tool, start: p, time: time, writing: true, focusFirst: false)
            inkBegin(p)
            return .held
        }
        guard let surface, let target = ScribbleTarget.find(at: Point<Global>(x: p.x, y: p.y), surface: surface, local: local,
                                                            regions: regions, textInputs: textInputs, window: scene.window(of: surface),
                                                            accessibility: accessibility) else { return .app }
        log.debug("scribble: a press at \(Int(p.x)),\(Int(p.y)) on \(target.isFocused ? "the focused field" : "a field without focus (AT-SPI)")")
        if recognizing || !ink.isEmpty { withdraw() }  // a new field: the old writing is abandoned
        field = surface
        writingArea = target.writingArea
        press = PenPress(tool: tool, start: p, time: time, writing: false, focusFirst: !target.isFocused)
        return .held
    }

    /// The pen moved (tip down): a held press may become a stroke or the app's.
    func moved(_ tool: TabletTool, to p: InkPoint, time: UInt32) -> Route {
        guard var current = press, current.tool == tool else { return .app }
        if current.writing { inkAdd(p); return .held }
        let moved = ((p.x - current.start.x) * (p.x - current.start.x) + (p.y - current.start.y) * (p.y - current.start.y)).squareRoot()
        current.points.append(p)
        press = current
        if moved > Self.slop {
            current.writing = true
            press = current
            inkBegin(current.start)
            for q in current.points { ink.add(q) }
            damageInk()
            // A field to be clicked first gets no preedit before the click: it would go to
            // the field focused now (Firefox then dropped the commit that followed).
            if !current.focusFirst { beganWriting() }
            return current.focusFirst ? .clickThenHold(at: current.start) : .held
        }
        if time &- current.time >= Self.holdMilliseconds {
            press = nil
            field = nil
            return .release
        }
        return .held
    }

    /// The tip lifted: a stroke ends (the pause starts), or a tap is the app's.
    func tipUp(_ tool: TabletTool, at p: InkPoint, time: UInt32) -> Route {
        guard let current = press, current.tool == tool else { return .app }
        press = nil
        guard current.writing else {
            if ink.isEmpty { field = nil }
            return .tap
        }
        // Where it lifted, if it moved since (a tip up says pressure 0: the last one's instead).
        if let last = ink.strokes.last?.last, last.x != p.x || last.y != p.y { inkAdd(InkPoint(x: p.x, y: p.y, pressure: last.pressure)) }
        pauseTimer?.arm(milliseconds: Int32(settings.pause * 1000))
        return .held
    }

    /// The tool left proximity or its surface went: a stroke ends there.
    func toolLost(_ tool: TabletTool) {
        guard let current = press, current.tool == tool else { return }
        press = nil
        if current.writing { pauseTimer?.arm(milliseconds: Int32(settings.pause * 1000)) }
    }

    private func nearInk(_ p: InkPoint, _ b: PixelRect) -> Bool {
        let m = Self.continuation
        return p.x >= Double(b.x) - m && p.x <= Double(b.x + b.width) + m && p.y >= Double(b.y) - m && p.y <= Double(b.y + b.height) + m
    }

    // MARK: Ink

    private func inkBegin(_ p: InkPoint) { damageInk(); ink.begin(p); damageInk() }
    private func inkAdd(_ p: InkPoint) { ink.add(p); damageInk() }

    func damageInk() {
        if let b = ink.bounds { output.damage(logical: b) }
        clock.schedule()
    }
}
