import AdaptivePointerEngine
/// A bounded, asynchronous walk of one AT-SPI window's subtree: for each node its role,
/// state and extents (and, for text, its font), at most `maximumInFlight` calls waiting at a
/// time. Nodes that are not visible or have no extents (GTK's hidden stack pages) are not
/// descended; controls are leaves. `completion` gets the elements once every reply is in.
///
/// An app may lie (issue 24, Tests/clients/hostile_atspi_app.py): every bound holds whatever
/// it answers. At most `maximumNodes` nodes, each visited once (a child that is its own
/// ancestor ends there), `maximumDepth` deep; a reply of a million children is read no further
/// than the nodes left; after `maximumDuration` the walk ends with what it has (a stalled call
/// costs `DBusConnection.callTimeout`, and calls waiting then are ignored). Extents beyond
/// `maximumExtent` and lines of text no font has are dropped, as is an element wholly outside
/// its window.
final class AccessibleWalk {
    static let maximumNodes = 3000, maximumDepth = 40, maximumInFlight = 64
    static let maximumDuration = 4.0
    /// Wayland's own limit on a surface's size is about this; no window's element is larger or farther.
    static let maximumExtent = 65536.0

    private let bus: DBusConnection
    let app: String
    /// What the walk found so far (`AccessibleText` adds each line of a text's).
    var elements: [AccessibleElement] = []
    /// Index in `elements` of the button each node is inside, to learn that it has a label.
    var labelled: Set<Int> = []
    /// The push and toggle buttons among the elements: only they were searched for a label,
    /// so only they can be icon buttons (a page tab's label is never looked for).
    var buttons: Set<Int> = []
    private var queued: [() -> Void] = []
    private var inFlight = 0
    var nodes = 0
    /// Paths visited: a cycle in the tree is walked once.
    var visited: Set<String> = []
    /// Which bounds ended the walk early, for the log; nil when the tree ended first.
    var limitReached: String? { limits.isEmpty ? nil : limits.joined(separator: " and the ") }
    private var limits: [String] = []
    func reached(_ limit: String) { if !limits.contains(limit) { limits.append(limit) } }
    private let deadline = DBusConnection.monotonicSeconds + AccessibleWalk.maximumDuration
    private var completion: (([AccessibleElement], _ frameSize: (Double, Double)) -> Void)?
    /// The frame's own extents: its origin is subtracted from every element's.
    var frame = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)

    /// Extents are read in screen coordinates (`ATSPI_COORD_TYPE_SCREEN`) and made relative to
    /// the frame: Qt gives window coordinates relative to the nearest dock widget, and on
    /// Wayland both toolkits put the window at the screen's origin (GTK 4 answers the same
    /// for both types).
    init(bus: DBusConnection, app: String, window: String, pointer: (x: Double, y: Double)? = nil,
         completion: @escaping ([AccessibleElement], _ frameSize: (Double, Double)) -> Void) {
        self.bus = bus
        self.app = app
        self.completion = completion
        self.pointer = pointer
        visit(window, depth: 0, button: nil)
        finishIfDone()
    }

    /// A walk of one node's subtree, `depth` deep in a window whose frame has the extents
    /// `frame` (screen coordinates): the element a point query found (`AccessiblePointQuery`).
    init(bus: DBusConnection, app: String, node: String, depth: Int, frame: (x: Double, y: Double, width: Double, height: Double),
         completion: @escaping ([AccessibleElement], _ frameSize: (Double, Double)) -> Void) {
        self.bus = bus
        self.app = app
        self.completion = completion
        self.frame = frame
        visit(node, depth: max(1, depth), button: nil)
        finishIfDone()
    }

    /// Stops the walk: replies still coming are ignored.
    func cancel() { completion = nil; queued = [] }

    // MARK: Calls, throttled

    func call(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = [], first: Bool = false,
                      _ reply: @escaping (DBusMessage?) -> Void) {
        let work: () -> Void = { [weak self] in
            guard let self else { return }
            self.inFlight += 1
            let sent = self.bus.call(self.app, path, "org.a11y.atspi." + interface, member, arguments) { [weak self] result in
                guard let self, self.completion != nil else { return }
                self.inFlight -= 1
                if DBusConnection.monotonicSeconds > self.deadline {
                    // Out of time: what has been read so far is the walk.
                    self.reached("time limit (\(Self.maximumDuration) s)")
                    self.queued = []
                    self.inFlight = 0
                    return self.finishIfDone()
                }
                reply(try? result.get())
                self.pump()
                self.finishIfDone()
            }
            if !sent { self.inFlight -= 1; reply(nil) }
        }
        if first { queued.insert(work, at: 0) } else { queued.append(work) }
    }

    /// Where the pointer is, relative to the frame (nil: not on this window). The branch that
    /// holds it is read before its siblings' branches (issue 41): on a window just mapped, the
    /// element under the pointer is in place long before the whole tree.
    var pointer: (x: Double, y: Double)?
    /// How far outside a node's extents the pointer may be and its branch still come first
    /// (the frame's origin may lie a title bar or a shadow from the window geometry's).
    static let pointerSlack = 32.0
    /// Nodes that hold the pointer: their children are read first.
    var pointerBranch: Set<String> = []
    /// Children of such nodes: their own three calls go first.
    var readFirst: Set<String> = []

    private func pump() {
        while inFlight < Self.maximumInFlight, !queued.isEmpty { queued.removeFirst()() }
    }

    /// What has been read so far, every `progressInterval` s while the walk goes on: a window
    /// just mapped adapts before its whole tree is in (issue 27: within 100 ms).
    var progress: (([AccessibleElement], _ frameSize: (Double, Double)) -> Void)?
    static let progressInterval = 0.02
    private var progressAt = DBusConnection.monotonicSeconds

    private func finishIfDone() {
        pump()
        guard inFlight == 0, queued.isEmpty, let completion else {
            if let progress, completion != nil, frame.width > 0, DBusConnection.monotonicSeconds - progressAt > Self.progressInterval {
                progressAt = DBusConnection.monotonicSeconds
                progress(result(), (frame.width, frame.height))
            }
            return
        }
        self.completion = nil
        completion(result(), (frame.width, frame.height))
    }

    /// Extents that made no sense: such elements are dropped, never cached, and the window
    /// is read again soon, when the toolkit may have laid it out.
    var liesSeen = 0

    /// The elements read so far, relative to the frame.
    private func result() -> [AccessibleElement] {
        let frame = self.frame
        return elements.enumerated().compactMap { i, e in
            var e = e
            e.x -= frame.x
            e.y -= frame.y
            // Larger than its window: a lie (as 0-based the frame has no room for it).
            if e.width > frame.width + 2 || e.height > frame.height + 2 { liesSeen += 1; return nil }
            // Wholly outside the window (scrolled away, or a lie): it could only pull the pointer off it.
            guard e.x < frame.width, e.y < frame.height, e.x + e.width > 0, e.y + e.height > 0 else { return nil }
            // A button without a label that is about square shows an icon: it lifts.
            if e.kind == .control, buttons.contains(i), !labelled.contains(i), e.width <= e.height * 1.5 { e.kind = .iconButton }
            return e
        }
    }

    /// Nodes inside a combo box, where only text is looked for.
    var textOnly: Set<String> = []
    /// Nodes inside a page tab, where only buttons are looked for.
    var buttonsOnly: Set<String> = []
    /// Texts read line by line so far (`sampleLines`).
    var sampledTexts = 0
}
