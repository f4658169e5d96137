/// The element at one point of a window, asked of the app itself (issue 27): from the window's
/// frame down, `GetAccessibleAtPoint` (screen coordinates, as the walk reads extents) one
/// level at a time, at most `maximumDepth` levels, each node's role asked alongside. The node
/// the walk would make an element of (the first control or text on the way down, else the
/// deepest list item) is then read as the walk reads it (`AccessibleWalk` over that node).
/// Asynchronous like the walk; `cancel` stops it (the pointer moved on). Nil elements: the
/// app could not tell (it answers no point queries), unlike none (nothing is there).
///
/// Cheap next to a walk (a few calls per level, no subtree): it answers what is under the
/// pointer while a window's walk is still going on (its first hover), and what is there now
/// when a cached element turned out to have moved.
final class AccessiblePointQuery {
    static let maximumDepth = 24
    /// The null object a toolkit answers when nothing is at the point.
    static let nullPath = "/org/a11y/atspi/null"

    private let bus: DBusConnection
    private let app: String
    private let locate: (_ frameWidth: Double, _ frameHeight: Double) -> (x: Double, y: Double)
    private var completion: (([AccessibleElement]?, _ frameSize: (Double, Double)) -> Void)?
    private var frame = (x: 0.0, y: 0.0, width: 0.0, height: 0.0)
    /// The nodes from the frame down to the point, with their roles as they come.
    private var chain: [(path: String, role: UInt32?)] = []
    private var descended = false
    private var walk: AccessibleWalk?
    /// How many levels it went down (for the log).
    var levels: Int { chain.count }

    /// Where it was asked, in global coordinates: the pointer moving away cancels it.
    let point: (x: Double, y: Double)

    /// `locate` gives the point in the frame's coordinates once the frame's size is known
    /// (a toolkit's own decorations are outside the frame).
    init(bus: DBusConnection, app: String, frame path: String, at point: (x: Double, y: Double),
         locate: @escaping (_ frameWidth: Double, _ frameHeight: Double) -> (x: Double, y: Double),
         completion: @escaping ([AccessibleElement]?, _ frameSize: (Double, Double)) -> Void) {
        self.bus = bus
        self.app = app
        self.point = point
        self.locate = locate
        self.completion = completion
        bus.call(app, path, "org.a11y.atspi.Component", "GetExtents", [.uint32(0)]) { [weak self] result in  // ATSPI_COORD_TYPE_SCREEN
            guard let self, self.completion != nil else { return }
            guard let m = try? result.get(), let e = m.container("r", "iiii", { () -> (Int32, Int32, Int32, Int32)? in
                guard let x = m.readInt32(), let y = m.readInt32(), let w = m.readInt32(), let h = m.readInt32() else { return nil }
                return (x, y, w, h)
            }), e.2 > 0, e.3 > 0, Double(e.2) <= AccessibleWalk.maximumExtent, Double(e.3) <= AccessibleWalk.maximumExtent else { return self.finish(nil) }
            self.frame = (Double(e.0), Double(e.1), Double(e.2), Double(e.3))
            let p = self.locate(self.frame.width, self.frame.height)
            guard p.x >= 0, p.y >= 0, p.x < self.frame.width, p.y < self.frame.height else { return self.finish(nil) }
            self.descend(from: path, x: Int32(clamping: Int((self.frame.x + p.x).rounded(.down))), y: Int32(clamping: Int((self.frame.y + p.y).rounded(.down))))
        }
    }

    /// Stops it: replies still coming are ignored.
    func cancel() { completion = nil; walk?.cancel(); walk = nil }

    private func finish(_ elements: [AccessibleElement]?) {
        guard let completion else { return }
        self.completion = nil
        completion(elements, (frame.width, frame.height))
    }

    /// `ATSPI_COORD_TYPE_SCREEN`, as the walk reads extents; a frame that answers null there
    /// is asked again in `ATSPI_COORD_TYPE_WINDOW`, relative to the frame. A frame that
    /// answers null in both (Firefox ESR 153; GTK 4.8, over its own buttons) is passed by:
    /// its child whose extents hold the point is asked instead (`childAtPoint`). When none
    /// answers, the app cannot tell: a window's frame covers every point of it.
    private var coordinateType: UInt32 = 0
    private var passedFrame = false
    static let maximumFrameChildren = 32

    private func descend(from path: String, x: Int32, y: Int32) {
        guard chain.count < Self.maximumDepth else { descended = true; return choose() }
        let sent = bus.call(app, path, "org.a11y.atspi.Component", "GetAccessibleAtPoint", [.int32(x), .int32(y), .uint32(coordinateType)]) { [weak self] result in
            guard let self, self.completion != nil, self.walk == nil else { return }
            // The frame itself answers no point queries: the app cannot tell.
            if self.chain.isEmpty, case .failure = result { return self.finish(nil) }
            // Nothing deeper (the null object, an error, another app's node, a cycle): the chain ends here.
            let answer = (try? result.get())?.readObject()
            if self.chain.isEmpty, answer?.path == Self.nullPath {
                guard self.coordinateType == 0 else {
                    guard !self.passedFrame else { return self.finish(nil) }
                    self.passedFrame = true
                    self.coordinateType = 0
                    return self.childAtPoint(of: path, x: x &+ Int32(clamping: Int(self.frame.x)), y: y &+ Int32(clamping: Int(self.frame.y)))
                }
                self.coordinateType = 1
                return self.descend(from: path, x: x &- Int32(clamping: Int(self.frame.x)), y: y &- Int32(clamping: Int(self.frame.y)))
            }
            guard let child = answer, child.bus == self.app || child.bus.isEmpty,
                  child.path != Self.nullPath, child.path != path,
                  !self.chain.contains(where: { $0.path == child.path }) else {
                self.descended = true
                return self.choose()
            }
            let index = self.chain.count
            self.chain.append((child.path, nil))
            self.bus.call(self.app, child.path, "org.a11y.atspi.Accessible", "GetRole") { [weak self] result in
                guard let self, self.completion != nil, self.walk == nil else { return }
                self.chain[index].role = (try? result.get())?.readUInt32() ?? UInt32.max
                self.choose()
            }
            // A control or text is where the walk stops descending: no deeper level is needed.
            self.descend(from: child.path, x: x, y: y)
        }
        if !sent { finish(nil) }
    }

    /// The frame's child whose extents hold the point (screen coordinates), from its
    /// children's extents; the query goes on down from it.
    private func childAtPoint(of path: String, x: Int32, y: Int32) {
        bus.call(app, path, "org.a11y.atspi.Accessible", "GetChildren") { [weak self] result in
            guard let self, self.completion != nil, let m = try? result.get(),
                  let children = m.array("(so)", limit: Self.maximumFrameChildren, { m.readObject() })?.filter({ $0.bus == self.app || $0.bus.isEmpty }),
                  !children.isEmpty else { self?.finish(nil); return }
            var holds = [Bool?](repeating: nil, count: children.count)
            for (i, child) in children.enumerated() {
                self.bus.call(self.app, child.path, "org.a11y.atspi.Component", "GetExtents", [.uint32(0)]) { [weak self] result in
                    guard let self, self.completion != nil, self.chain.isEmpty else { return }
                    let e = (try? result.get()).flatMap { m in m.container("r", "iiii") { () -> (Int32, Int32, Int32, Int32)? in
                        guard let x = m.readInt32(), let y = m.readInt32(), let w = m.readInt32(), let h = m.readInt32() else { return nil }
                        return (x, y, w, h)
                    } }
                    holds[i] = e.map { w in w.2 > 0 && w.3 > 0 && x >= w.0 && y >= w.1 && x < w.0 &+ w.2 && y < w.1 &+ w.3 } ?? false
                    guard !holds.contains(where: { $0 == nil }) else { return }
                    guard let first = holds.firstIndex(of: true) else { return self.finish(nil) }
                    self.chain.append((children[first].path, nil))
                    self.bus.call(self.app, children[first].path, "org.a11y.atspi.Accessible", "GetRole") { [weak self] result in
                        guard let self, self.completion != nil, self.walk == nil else { return }
                        self.chain[0].role = (try? result.get())?.readUInt32() ?? UInt32.max
                        self.choose()
                    }
                    self.descend(from: children[first].path, x: x, y: y)
                }
            }
        }
    }

    /// The node the walk would make the element: the first control or text from the top
    /// (the walk does not descend into them), else the deepest item; decided as soon as the
    /// roles above it are known.
    private func choose() {
        guard walk == nil, completion != nil else { return }
        var item: Int?
        for (i, node) in chain.enumerated() {
            guard let raw = node.role else { return }  // a role still to come decides
            switch AccessibleRole(rawValue: raw) {
            case .listItem, .treeItem, .tableCell: item = i
            case .label, nil: continue
            default: return read(i)
            }
        }
        guard descended else { return }
        guard let item else { return finish([]) }
        read(item)
    }

    private func read(_ index: Int) {
        walk = AccessibleWalk(bus: bus, app: app, node: chain[index].path, depth: index + 1, frame: frame) { [weak self] elements, _ in
            self?.finish(elements)
        }
    }
}
