@testable import LodestoneCompositor
import WaylandServer
import XCTest

/// Who holds whom: the subsystems hang from `Compositor`, the seat's helpers from `Seat`, and
/// a helper that holds an object above it can call back into it while that object is on the
/// stack (a motion comes down through the seat, a frame through the compositor). The walk
/// follows every stored reference (strong, weak and unowned, through optionals, arrays,
/// dictionaries and existentials) to the bottom, with no depth limit, and names each one
/// that leads back up to an object still on the walk's path: a cycle in the object graph.
/// Protocol objects (`Resource`s, which a client's requests reach through a host interface)
/// are leaves: what they hold is not walked.
final class SubsystemReferenceTests: XCTestCase {
    /// A reference from `holder` (its stored property `path`) to `target`, an object above it.
    struct BackReference: Hashable, CustomStringConvertible {
        let holder: String, path: String, target: String
        var description: String { "\(path) -> \(target)" }
    }

    /// The walk from `root`: its back references, and the stored closures met on the way
    /// (what a closure captures cannot be walked, so each is named).
    static func walk(from root: AnyObject) -> (back: Set<BackReference>, closures: Set<String>) {
        var onPath: [ObjectIdentifier: String] = [:]
        var done = Set<ObjectIdentifier>()
        var back = Set<BackReference>()
        var closures = Set<String>()

        func name(_ object: AnyObject) -> String { String(describing: type(of: object)) }

        func visit(_ object: AnyObject) {
            let id = ObjectIdentifier(object), holder = name(object)
            onPath[id] = holder
            var mirror: Mirror? = Mirror(reflecting: object)
            while let m = mirror {
                for child in m.children { walkValue(child.value, holder: holder, path: holder + "." + Self.label(child.label)) }
                mirror = m.superclassMirror
            }
            onPath[id] = nil
            done.insert(id)
        }

        func walkValue(_ value: Any, holder: String, path: String) {
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let wrapped = mirror.children.first { walkValue(wrapped.value, holder: holder, path: path) }
                return
            }
            if "\(type(of: value))".contains("->") { closures.insert(path); return }
            if mirror.displayStyle == .class {
                let object = value as AnyObject
                let id = ObjectIdentifier(object)
                if let above = onPath[id] { back.insert(BackReference(holder: holder, path: path, target: above)); return }
                if done.contains(id) || object is Resource { return }
                visit(object)
                return
            }
            for child in mirror.children { walkValue(child.value, holder: holder, path: path + (child.label.map { "." + Self.label($0) } ?? "[]")) }
        }

        visit(root)
        return (back, closures)
    }

    /// A lazy property's storage is named after the property.
    private static func label(_ label: String?) -> String {
        guard let label else { return "?" }
        return label.hasPrefix("$__lazy_storage_$_") ? String(label.dropFirst("$__lazy_storage_$_".count)) : label
    }

    /// The back references left, each named with why it is still there. None are: the list
    /// only shrinks, so a new back reference fails, and so does one that is gone but still
    /// listed.
    static let knownBackReferences: [String: String] = [:]

    /// The stored closures in the walk, each named with what it captures: a capture cannot
    /// be walked, so a new closure must be added here with what it holds.
    static let knownClosures: [String: String] = [
        "Accessibility.changed": "the seat (unowned): its pointerWorldChanged, when a reply or a timer changed the elements",
        "Accessibility.declaresRegions": "the scene's regions (SceneRegions, which holds the scene): whether a window's tree declares any",
        "ComposedClientCursor.onChange": "the seat (unowned): a commit of the cursor's surface, which comes from its client, pushed to the pointer",
        "EventSource.handler": "Scribble's pause and fade timers: the scribble (unowned), to recognise when the pen rests and to fade the ink",
        "ScribbleRecognizer.answered": "the scribble (unowned): the recogniser's answer, typed or withdrawn",
        "FrameClock.onFrame": "the frames (unowned): repaint",
        "FrameClock.advanced": "the idle notifier (unowned): its deadlines, checked when the manual clock advances",
        "Scene.inputPopup": "the text inputs (unowned): the input method's popup and where it is placed",
        "Listener.handler": "NewWindowFocus (unowned): a client connecting (its lineage read)",
        "IdleInhibitors.changed": "the seat and the idle notifier (unowned): the pointer's input, the notifier's inhibition",
        "IdleInhibitors.isVisible": "the scene: whether the surface is on screen (its origin)",
        "Scene.cursorOrigin": "the seat (unowned): its cursor",
        "Scene.dragIcon": "the seat (unowned): its drag",
        "Scene.onChange": "the compositor (unowned): the seat, idle inhibitors, outputs",
        "SeatPointer.log": "the logger",
        "Selection<DataDeviceProtocol>.acceptsSerial": "the seat (unowned): its serials; acceptsAnySelectionSerial, a value",
        "Selection<DataDeviceProtocol>.observers": "observers of the clipboard (the nested backend's bridge)",
        "Selection<PrimarySelectionProtocol>.acceptsSerial": "the seat (unowned): its serials; acceptsAnySelectionSerial, a value",
        "Selection<PrimarySelectionProtocol>.observers": "observers of the primary selection",
        "Storage.handler.stream._flush": "swift-log's stream handler",
        "Storage.handler.stream._writeBytes": "swift-log's stream handler",
        "WaylandGlobal.bind": "the compositor (unowned): each global's bind handler",
    ]

    /// After one motion and one frame, with every lazy subsystem made (and a touchscreen),
    /// the walk from the compositor finds exactly the known back references and closures.
    func testNoHelperHoldsAnObjectAboveItButTheKnownOnes() throws {
        let lodestone = try InProcessCompositor(touch: true)
        let client = try lodestone.connect()
        _ = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 150)
        // One motion and one frame, as the seat and the compositor run them.
        try lodestone.movePointer(to: 150, 120)
        let compositor = lodestone.compositor
        XCTAssertEqual(compositor.clock.advance(by: compositor.clock.interval), 1)
        // Lazy subsystems exist once used: make them all, so the walk sees them.
        _ = (compositor.activationTokens, compositor.screencopy, lodestone.seat.constraints, lodestone.seat.cursor)

        let (back, closures) = Self.walk(from: compositor)
        let found = Set(back.map(\.description))
        let known = Set(Self.knownBackReferences.keys)
        XCTAssertEqual(found.subtracting(known).sorted(), [], "new back references: a helper holds an object above it")
        XCTAssertEqual(known.subtracting(found).sorted(), [], "gone: take them off knownBackReferences")
        XCTAssertEqual(closures.subtracting(Self.knownClosures.keys).sorted(), [], "new stored closures: name what each captures")
        XCTAssertEqual(Set(Self.knownClosures.keys).subtracting(closures).sorted(), [], "gone: take them off knownClosures")
    }

    /// The walk itself: it finds a back reference however deep, through weak and unowned
    /// references, optionals, arrays and dictionaries, and reports none in a tree.
    func testTheWalkFindsABackReferenceAtAnyDepth() {
        final class Node { var children: [Node] = []; weak var up: Node?; unowned var root: Node?; var byName: [String: Node] = [:]; init() {} }
        let root = Node()
        var last = root
        for _ in 0..<50 { let next = Node(); last.children.append(next); last = next }
        XCTAssertEqual(Self.walk(from: root).back, [], "a tree has none")
        last.byName["deep"] = Node()
        last.byName["deep"]?.up = root
        let found = Self.walk(from: root).back.map(\.description)
        XCTAssertEqual(found, ["Node.up -> Node"], "fifty-one levels down, through a dictionary and a weak reference")
    }
}
