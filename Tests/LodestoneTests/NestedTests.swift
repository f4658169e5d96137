import CWaylandClient
import CWaylandProtocols
import Foundation
import LodestoneTesting
import Rendering
import WaylandClient
import XCTest

/// Lodestone as a window inside another Wayland session: a headless
/// Lodestone with test control as the parent (input, resize, close, pacing),
/// or headless weston (a compositor no one here wrote).
final class NestedTests: XCTestCase {
    // MARK: In weston

    func testNestedWindowAppearsInWestonScreenshotWithClientInside() throws {
        for program in ["weston", "weston-screenshooter", "weston-simple-shm"] { try requireProgram(program) }
        let weston = try Weston()
        defer { weston.stop() }
        // The client-side protocol trace shows which buffers go to weston and when they come back.
        let nested = try Session(size: "400x300", nestedIn: Session.Parent(runtimeDirectory: weston.runtimeDirectory, socket: weston.socket),
                                 environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        try nested.launch(["weston-simple-shm"])
        let inner = try nested.waitForWindow("simple-shm")

        // weston places the window where it likes: find Lodestone's background in its capture.
        var found: (box: (x: Int, y: Int, width: Int, height: Int), shot: Screenshot)?
        _ = try wait(timeout: 20) {
            let shot = try weston.screenshot()
            guard let box = shot.boundingBox(of: backgroundColor), box.width == 400, box.height == 300 else { return false }
            found = (box, shot)
            return shot.distinctColors(x: box.x + Int(inner.x), y: box.y + Int(inner.y), width: Int(inner.width), height: Int(inner.height)) > 50
        }
        guard let (box, shot) = found else { return XCTFail("no 400×300 Lodestone window in weston's capture; weston log:\n\(weston.log)\nnested log:\n\(nested.log.suffix(3000))") }
        XCTAssertGreaterThan(shot.distinctColors(x: box.x + Int(inner.x), y: box.y + Int(inner.y), width: Int(inner.width), height: Int(inner.height)), 50,
                             "weston shows Lodestone's window, but not simple-shm running inside it")
        // Around simple-shm, inside Lodestone's window: Lodestone's background.
        XCTAssertEqual(shot.countDiffering(from: backgroundColor, x: box.x + 4, y: box.y + 4, width: 30, height: 30).differing, 0)
        // weston 10 (Debian 12) offers no xdg-decoration: above the output, Lodestone's own bar.
        let bars = [true, false].map { Screenshot(TitleBarImage.draw(title: "Lodestone", width: 400, scale: 1, activated: $0)) }
        var differing: [Int] = []
        XCTAssertTrue(try wait(timeout: 10) {
            let shot = try weston.screenshot()
            differing = bars.map { shot.countDiffering(from: $0, atX: box.x, y: box.y - Int(TitleBarImage.height)) }
            return differing.contains(0)
        }, "weston's capture shows no Lodestone title bar above the output at \(box) (\(differing) pixels differ)")

        // weston holds the buffer it shows until the next one arrives: Lodestone
        // must alternate between buffers and never reuse one still held.
        let trace = try BufferTrace(nested.log)
        XCTAssertGreaterThan(trace.commits, 3, "simple-shm animates, so Lodestone commits frames")
        XCTAssertGreaterThanOrEqual(trace.buffersAttached, 2, "at least double-buffered")
        XCTAssertEqual(trace.attachedWhileHeld, [], "attached buffers weston had not released")
    }

    // MARK: In Lodestone: input

    func testParentInputReachesClientInsideAtTheRightCoordinates() throws {
        try requireProgram("weston-eventdemo")
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        let outputFile = nested.runtimeDirectory + "/eventdemo-\(nested.socket).txt"
        try nested.launch(["stdbuf", "-oL", "weston-eventdemo", "-b", "--width=200", "--height=150",
                           "--log-motion", "--log-button", "--log-key", "--log-axis"], output: outputFile)
        // Without a border eventdemo sets no title: it is the 200×150 window.
        let demo = try nested.waitForWindow(nil) { $0.width == 200 && $0.height == 150 }
        let window = try parent.waitForWindow("Lodestone")
        XCTAssertEqual(window.width, 400)
        XCTAssertEqual(window.height, 300)
        let events = ClientLog(path: outputFile)

        // Motion: parent coordinates minus the window's place, minus the client's place.
        let state = try parent.control.movePointer(x: Double(window.x + demo.x) + 30, y: Double(window.y + demo.y) + 40)
        XCTAssertEqual(state.title, "Lodestone")
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == Double(demo.x) + 30 }, "the motion did not reach the nested seat")
        let inner = try nested.control.pointer()
        XCTAssertEqual(inner.y, Double(demo.y) + 40, accuracy: 0.01)
        XCTAssertEqual(inner.sx, 30, accuracy: 0.01)
        XCTAssertEqual(inner.sy, 40, accuracy: 0.01)
        try events.waitFor("motion time: ", containing: "x: 30.000000, y: 40.000000")

        try parent.control.movePointer(dx: 5, dy: 7)
        try events.waitFor("motion time: ", containing: "x: 35.000000, y: 47.000000")

        // Buttons, at the pointer's position.
        try parent.control.click()
        try events.waitFor("button time: ", containing: "button: 272, state: pressed, x: 35, y: 47")
        try events.waitFor("button time: ", containing: "button: 272, state: released, x: 35, y: 47")
        try parent.control.click(0x111)
        try events.waitFor("button time: ", containing: "button: 273, state: pressed")

        // Scroll, with its discrete steps and source.
        try parent.control.axis(vertical: true, value: 15, discrete: 1, source: 0)
        try events.waitFor("axis discrete axis: 0 value: 1")
        try events.waitFor("axis time: ", containing: "axis: vertical, value: 15.000000")
        try events.waitFor("axis source: wheel")
        try parent.control.axis(vertical: false, value: -7.5, discrete: 0, source: 1)
        try events.waitFor("axis time: ", containing: "axis: horizontal, value: -7.500000")
        try events.waitFor("axis source: finger")

        // Keys: the parent gives Lodestone's window the keyboard, Lodestone gives it to the client.
        try parent.control.activateWindow("Lodestone")
        try parent.control.tap(30)  // KEY_A
        try events.waitFor("key key: 30, unicode: 97, state: pressed")
        try events.waitFor("key key: 30, unicode: 97, state: released")
        // Shift held in the parent is a modifier inside.
        try parent.control.key(42, pressed: true)  // KEY_LEFTSHIFT
        try parent.control.tap(30)
        try parent.control.key(42, pressed: false)
        try events.waitFor("key key: 30, unicode: 65, state: pressed")
    }

    func testPointerHidesWhileTheParentsPointerIsOffTheWindow() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone")
        // Pointer pixels: anything but the bare background in a box around (x, y) (no clients
        // run), in the parent's capture (the plain pointer is the parent's cursor) and the nested one.
        func pointerPixels(at x: Int, _ y: Int) throws -> Int {
            try parent.screenshot().countDiffering(from: backgroundColor, x: Int(window.x) + x - 15, y: Int(window.y) + y - 15, width: 30, height: 30).differing
                + nested.screenshot().countDiffering(from: backgroundColor, x: x - 15, y: y - 15, width: 30, height: 30).differing
        }
        try parent.control.movePointer(x: Double(window.x) + 120, y: Double(window.y) + 150)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 120 }, "motion did not reach the nested seat")
        XCTAssertTrue(try nested.wait { try pointerPixels(at: 120, 150) > 20 }, "no pointer drawn where the parent's pointer is")

        // Off the window, beside it: the parent sends leave and no motion, so the nested
        // pointer is still at (120, 150), but nothing may be drawn there.
        let besideX = window.x + window.width + 40 < 800 ? window.x + window.width + 40 : window.x - 40
        let outside = try parent.control.movePointer(x: Double(besideX), y: Double(window.y) + 150)
        XCTAssertNotEqual(outside.title, "Lodestone", "the test's point is not off the window")
        // Within the fade, well before the 8 s auto-hide would hide it anyway.
        var left = -1
        XCTAssertTrue(try nested.wait(timeout: 2) { left = try pointerPixels(at: 120, 150); return left == 0 },
                      "the nested pointer is still drawn where the parent's pointer left (\(left) pixels)")

        // Back on, elsewhere: drawn where it came in, and still not where it left.
        try parent.control.movePointer(x: Double(window.x) + 280, y: Double(window.y) + 80)
        XCTAssertTrue(try nested.wait { try pointerPixels(at: 280, 80) > 20 }, "the pointer did not come back on enter")
        XCTAssertEqual(try pointerPixels(at: 120, 150), 0)
    }

    func testRelativeMotionFromTheParentReachesAClientInside() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        // A client of the nested session (this process) listening on zwp_relative_pointer_v1.
        let connection = try Connection(name: nested.runtimeDirectory + "/" + nested.socket)
        let globals = try Globals(connection: connection)
        let client = try Window(globals, title: "relative", width: 200, height: 150)
        guard let manager = globals.registry.bind(cwp_zwp_relative_pointer_manager_v1_interface(), version: 1),
              let pointer = globals.pointer else { return XCTFail("the nested Lodestone offers no relative pointer manager or pointer") }
        let managerProxy = Proxy(manager, on: connection)
        let relative = Proxy(managerProxy.request(pointer) { zwp_relative_pointer_manager_v1_get_relative_pointer($0, $1) }!, on: connection)
        var motions: [String] = []
        relative.onEvent = { opcode, a in
            if opcode == 0 { motions.append("\(a.fixed(2)),\(a.fixed(3))") }  // relative_motion: time hi/lo, dx, dy, …
        }
        let inner = try nested.waitForWindow("relative")
        let window = try parent.waitForWindow("Lodestone")

        try parent.control.movePointer(x: Double(window.x + inner.x) + 50, y: Double(window.y + inner.y) + 50)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return try nested.control.pointer().title == "relative" },
                      "the client never got the pointer")
        motions.removeAll()  // an absolute warp in the parent is no hand motion

        // The parent's seat sends relative_motion and wl_pointer.motion in one frame.
        try parent.control.movePointer(dx: 6, dy: -4)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return motions == ["6.0,-4.0"] },
                      "the client inside got relative motions \(motions), not one of (6, -4)")
        XCTAssertEqual(try nested.control.pointer().sx, 56, accuracy: 0.01, "the absolute motion must still move the pointer")
        withExtendedLifetime(client) {}
    }

    /// Gestures and a pen injected into the parent (lodestone_test_v1 version 3) reach a
    /// client inside: parent seat → parent's zwp_pointer_gestures_v1 / zwp_tablet_manager_v2
    /// → the nested backend's InputEvents → the nested seat → the client.
    func testGesturesAndTabletToolFromTheParentReachAClientInside() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        let connection = try Connection(name: nested.runtimeDirectory + "/" + nested.socket)
        let globals = try Globals(connection: connection)
        let client = try Window(globals, title: "gestures", width: 200, height: 150)
        guard let gestures = globals.registry.bind(cwp_zwp_pointer_gestures_v1_interface(), version: 3),
              let tablets = globals.registry.bind(cwp_zwp_tablet_manager_v2_interface(), version: 1),
              let pointer = globals.pointer, let seat = globals.seat else { return XCTFail("the nested Lodestone offers no gestures, tablets or pointer") }
        var events: [String] = []
        var proxies = [Proxy(gestures, on: connection), Proxy(tablets, on: connection)]
        for (name, create) in [("swipe", zwp_pointer_gestures_v1_get_swipe_gesture), ("pinch", zwp_pointer_gestures_v1_get_pinch_gesture),
                               ("hold", zwp_pointer_gestures_v1_get_hold_gesture)] {
            let g = Proxy(pointer.request { create(gestures, $0) }!, on: connection)
            g.onEvent = { opcode, a in
                switch (name, opcode) {
                case (_, 0): events.append("\(name) begin \(a.uint(3))")
                case ("pinch", 1): events.append("pinch update scale \(a.fixed(3)) rotation \(a.fixed(4))")
                case ("swipe", 1): events.append("swipe update \(a.fixed(1)) \(a.fixed(2))")
                default: events.append("\(name) end \(a.int(2))")
                }
            }
            proxies.append(g)
        }
        let tabletSeat = Proxy(seat.request { zwp_tablet_manager_v2_get_tablet_seat(tablets, $0) }!, on: connection)
        // The handler keeps `proxies`, which keeps the seat: let go when the test ends.
        defer { tabletSeat.onEvent = nil }
        tabletSeat.onEvent = { opcode, a in
            // tablet_added, tool_added and pad_added make objects on this side: all are proxies.
            guard let object = a.object(0) else { return }
            let added = Proxy(object, on: connection)
            proxies.append(added)
            guard opcode == 1 else { return }  // tool_added
            let tool = added
            tool.onEvent = { op, b in
                switch op {
                case 6: events.append("proximity_in")
                case 7: events.append("proximity_out")
                case 8: events.append("down")
                case 9: events.append("up")
                case 10: events.append("motion \(b.fixed(0)) \(b.fixed(1))")
                case 11: events.append("pressure \(b.uint(0))")
                case 13: events.append("tilt \(b.fixed(0)) \(b.fixed(1))")
                case 18: events.append("frame")
                default: break
                }
            }
        }
        proxies.append(tabletSeat)
        let inner = try nested.waitForWindow("gestures")
        let window = try parent.waitForWindow("Lodestone")
        let x = Double(window.x + inner.x) + 30, y = Double(window.y + inner.y) + 40
        try parent.control.movePointer(x: x, y: y)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return try nested.control.pointer().title == "gestures" }, "the client never got the pointer")

        try parent.control.gesture(.pinch, .begin, fingers: 2)
        try parent.control.gesture(.pinch, .update, dx: 1, dy: 1, scale: 1.5, rotation: 10)
        try parent.control.gesture(.pinch, .end)
        try parent.control.gesture(.hold, .begin, fingers: 2)
        try parent.control.gesture(.hold, .end, cancelled: true)
        try parent.control.gesture(.swipe, .begin, fingers: 2)
        try parent.control.gesture(.swipe, .update, dx: 4, dy: -2)
        try parent.control.gesture(.swipe, .end)
        let gestureEvents = ["pinch begin 2", "pinch update scale 1.5 rotation 10.0", "pinch end 0", "hold begin 2", "hold end 1",
                             "swipe begin 2", "swipe update 4.0 -2.0", "swipe end 0"]
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return events == gestureEvents }, "the client inside got \(events)")
        events.removeAll()

        try parent.control.tabletTool(.proximityIn, x: x, y: y, distance: 0.5)
        try parent.control.tabletTool(.tipDown, x: x + 2, y: y, pressure: 0.5, tiltX: 20, tiltY: -10)
        try parent.control.tabletTool(.tipUp, x: x + 2, y: y)
        try parent.control.tabletTool(.proximityOut)
        let expected = ["proximity_in", "motion 30.0 40.0", "pressure 0", "tilt 0.0 0.0", "frame", "motion 32.0 40.0", "pressure 32768", "tilt 20.0 -10.0", "down", "frame",
                        "pressure 0", "tilt 0.0 0.0", "up", "frame", "proximity_out", "frame"]
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return events.count >= expected.count }, "the pen did not reach the client inside: \(events)")
        XCTAssertEqual(events, expected, "in order, each group framed")
        withExtendedLifetime(client) {}
    }

    func testClientsInsideHearLeaveWhenTheParentsPointerLeaves() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        let connection = try Connection(name: nested.runtimeDirectory + "/" + nested.socket)
        let globals = try Globals(connection: connection)
        let client = try Window(globals, title: "hover", width: 200, height: 150)
        var crossings: [String] = []
        globals.onPointer = { opcode, _ in
            if opcode == 0 { crossings.append("enter") }
            if opcode == 1 { crossings.append("leave") }
        }
        let inner = try nested.waitForWindow("hover")
        let window = try parent.waitForWindow("Lodestone")
        try parent.control.movePointer(x: Double(window.x + inner.x) + 50, y: Double(window.y + inner.y) + 50)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); let title = try nested.control.pointer().title; return crossings.last == "enter" && title == "hover" },
                      "the client never got the pointer: \(crossings)")
        crossings.removeAll()

        // Off the Lodestone window: the client inside must end its hover.
        let besideX = window.x + window.width + 40 < 800 ? window.x + window.width + 40 : window.x - 40
        try parent.control.movePointer(x: Double(besideX), y: Double(window.y) + 50)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return crossings == ["leave"] }, "no leave: \(crossings)")

        // Back over the client: enter again.
        try parent.control.movePointer(x: Double(window.x + inner.x) + 60, y: Double(window.y + inner.y) + 60)
        XCTAssertTrue(try nested.wait { try connection.roundtrip(); return crossings == ["leave", "enter"] }, "no second enter: \(crossings)")
        withExtendedLifetime(client) {}
    }

    func testFootInsideSurvivesTheParentsPointerLeavingAndComingBack() throws {
        // The everyday gesture on a desktop: off the Lodestone window and back over the
        // app inside, where foot sets its cursor surface again after each enter.
        try requireProgram("foot")
        let parent = try Session(size: "1000x700")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "800x560")
        defer { nested.stop() }
        let foot = try nested.launch(["foot", "--override=shell=/bin/sh"])
        let inner = try nested.waitForWindow("foot")
        let window = try parent.waitForWindow("Lodestone")
        let over = (Double(window.x + inner.x + inner.width / 2), Double(window.y + inner.y + inner.height / 2))
        let beside = (Double(window.x + window.width + 40 < 1000 ? window.x + window.width + 40 : window.x - 40), Double(window.y + 50))
        // Start beside the window: the parent's pointer may begin over it.
        try parent.control.movePointer(x: beside.0, y: beside.1)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().title.isEmpty }, "foot kept the pointer")
        let first = try nested.control.cursor().sets
        for k in 1...5 {
            let before = try nested.control.cursor().sets
            try parent.control.movePointer(x: over.0, y: over.1)
            XCTAssertTrue(try nested.wait { try nested.control.cursor().sets > before || !foot.isRunning }, "enter \(k): foot set no cursor")
            XCTAssertTrue(foot.isRunning, "re-entry \(k) killed foot:\n\(nested.log)")
            try parent.control.movePointer(x: beside.0, y: beside.1)
            XCTAssertTrue(try nested.wait { try nested.control.pointer().title.isEmpty }, "leave \(k): foot still has the pointer")
        }
        XCTAssertGreaterThanOrEqual(try nested.control.cursor().sets - first, 5)
        XCTAssertTrue(foot.isRunning)
        XCTAssertFalse(nested.log.contains("protocol error"), nested.log)
    }

    func testKeyboardUsesTheParentsKeymap() throws {
        try requireProgram("weston-eventdemo")
        // A German parent: the key labelled Y on a US keyboard types z.
        let parent = try Session(size: "800x600", extraArguments: ["--keyboard-layout", "de"])
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        let outputFile = nested.runtimeDirectory + "/eventdemo-keys-\(nested.socket).txt"
        try nested.launch(["stdbuf", "-oL", "weston-eventdemo", "-b", "--width=200", "--height=150", "--log-key"], output: outputFile)
        _ = try nested.waitForWindow(nil) { $0.width == 200 && $0.height == 150 }
        try parent.control.activateWindow("Lodestone")
        try parent.control.tap(21)  // KEY_Y
        try ClientLog(path: outputFile).waitFor("key key: 21, unicode: 122, state: pressed")
    }

    // MARK: In Lodestone: the window

    func testResizingTheParentWindowReconfiguresTheNestedOutput() throws {
        try requireProgram("foot")
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        try nested.launch(["foot", "--maximized", "--override=shell=/bin/sh"])
        // foot asks for server-side decorations: maximized, it fills the output below Lodestone's title bar.
        XCTAssertNotNil(try? nested.waitForWindow("foot") { $0.width == 400 && $0.height == 300 - 30 && $0.y == 30 }, "foot is not maximized to the output")
        XCTAssertEqual(try nested.captureSize(), Size(width: 400, height: 300))

        try parent.control.resizeWindow("Lodestone", width: 520, height: 330)
        // The nested output takes the new size, and the maximized client follows it.
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 520, height: 330) }, "nested output is \((try? nested.captureSize())?.description ?? "?")")
        XCTAssertNotNil(try? nested.waitForWindow("foot") { $0.width == 520 && $0.height == 330 - 30 }, "the maximized client did not follow: \((try? nested.control.windows()) ?? [])")
        // And the parent shows a window of the new size.
        XCTAssertNotNil(try? parent.waitForWindow("Lodestone") { $0.width == 520 && $0.height == 330 })
    }

    func testParentScaleBecomesTheOutputScaleAndTheParentShowsOnlyTheNestedPointer() throws {
        let parent = try Session(size: "640x480", scale: 2)
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "300x200")
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone")
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 600, height: 400) },
                      "the nested output did not take the parent's scale 2: capture is \((try? nested.captureSize())?.description ?? "?")")

        // Over the window the parent draws no cursor of its own, only the nested pointer as
        // its cursor surface: the parent's pixels are exactly the nested output's (buffer
        // scale 2, so 1:1) but for the pointer's 24×24 points.
        try parent.control.movePointer(x: Double(window.x) + 100, y: Double(window.y) + 80)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 100 }, "motion did not reach the nested seat")
        XCTAssertTrue(try nested.wait { try parent.control.cursor().kind == .surface }, "the parent does not show the nested pointer")
        var last = ""
        let identical = try nested.wait {
            let inner = try nested.screenshot()
            let outer = try parent.screenshot()
            let all = outer.countDiffering(from: inner, atX: Int(window.x) * 2, y: Int(window.y) * 2)
            let pointer = outer.countDiffering(from: backgroundColor, x: Int(window.x + 100) * 2 - 24, y: Int(window.y + 80) * 2 - 24, width: 48, height: 48).differing
            last = "\(all) pixels differ, \(pointer) of them the pointer's"
            return all == pointer && pointer > 50
        }
        XCTAssertTrue(identical, "the parent's capture of the window is not the nested output and its pointer (\(last)): parent cursor shown, or scale wrong")
    }

    // MARK: In Lodestone: pacing and damage

    func testFramesArePacedByTheParentsFrameCallbacks() throws {
        try framesArePacedByTheParentsFrameCallbacks(maxRenderTime: "off")
    }

    /// With `auto` the parent's frame callback only arms the frame's deadline (the refresh
    /// predicted from the parent's presentation feedback, less the lead): still no frame
    /// without a callback, and one frame per callback.
    func testWithMaxRenderTimeAutoFramesStillFollowTheParentsFrameCallbacks() throws {
        try framesArePacedByTheParentsFrameCallbacks(maxRenderTime: "auto")
    }

    private func framesArePacedByTheParentsFrameCallbacks(maxRenderTime: String) throws {
        try requireProgram("weston-simple-shm")
        // The parent draws (and sends frame callbacks) only when the test advances its clock.
        let parent = try Session(size: "800x600", manualClock: true)
        defer { parent.stop() }
        // The client-side protocol trace shows when Lodestone waits for a frame callback.
        let nested = try Session(nestedIn: parent, size: "400x300", extraArguments: ["--max-render-time", maxRenderTime],
                                 environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        try nested.launch(["weston-simple-shm"])
        _ = try nested.waitForWindow("simple-shm")
        // Let simple-shm get going: it draws once per nested frame.
        XCTAssertTrue(try nested.wait {
            try parent.control.advanceClock(milliseconds: 16)
            return try nested.control.frameCount() > 5
        })
        // Lodestone has committed a frame and asked for a callback the parent sends only
        // when its clock moves: from here on Lodestone's frame clock is held. (Settled over
        // two polls: the warm-up's last parent frame may have released a frame that, with
        // `auto`, starts only before the next refresh.)
        var previous: UInt32?
        XCTAssertTrue(try nested.wait {
            let frames = try nested.control.frameCount()
            defer { previous = frames }
            return try BufferTrace(nested.log).awaitingFrameCallback && previous == frames
        }, "Lodestone never waited for a frame callback")
        let held = try nested.control.frameCount()

        // No parent frame callback, no nested frame, however long simple-shm waits.
        // A frame that does not come can only be watched for: this bounded window is
        // the test's one wall-time wait (a nested frame timer would fire ~24 times in it).
        usleep(400_000)
        XCTAssertEqual(try nested.control.frameCount(), held, "Lodestone composed frames the parent had not asked for")

        // One parent frame: one nested frame, committed with a request for the next
        // callback. Then the clock is held again, so the count is final.
        let answered = try BufferTrace(nested.log).frameCallbacksAnswered
        try parent.control.advanceClock(milliseconds: 16)
        XCTAssertTrue(try nested.wait { try nested.control.frameCount() == held + 1 }, "a parent frame callback did not release the next frame")
        XCTAssertTrue(try nested.wait {
            let trace = try BufferTrace(nested.log)
            return trace.frameCallbacksAnswered > answered && trace.awaitingFrameCallback
        }, "Lodestone did not commit the released frame")
        XCTAssertEqual(try nested.control.frameCount(), held + 1)
    }

    func testIdleNestedSessionUsesNoCPUAndPointerFramesSendOnlyTheirDamage() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        // The largest pointer does not fit the parent's cursor (`ParentPointerPlane`): its
        // motion is composed, as a morphed pointer's is.
        let nested = try Session(nestedIn: parent, size: "400x300", extraArguments: ["--pointer-size", "4"], environment: ["WAYLAND_DEBUG": "client"])
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone")
        try parent.control.movePointer(x: Double(window.x) + 200, y: Double(window.y) + 150)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 200 })
        // Settle: the first full frame and the pointer frame are out, the parent has
        // answered the last commit, and neither frames nor commits moved since the
        // previous poll (a frame already due would have run by then).
        var previous: (frames: UInt32, commits: Int)?
        XCTAssertTrue(try nested.wait {
            let trace = try BufferTrace(nested.log)
            let now = (frames: try nested.control.frameCount(), commits: trace.commits)
            defer { previous = now }
            return now.commits >= 2 && !trace.awaitingFrameCallback && previous.map { $0 == now } == true
        }, "the nested Lodestone did not settle")

        // Idle: no frames and (next to) no CPU time, so no timer is ticking.
        let frames = try nested.control.frameCount()
        let cpu = try nested.cpuTicks()
        // Idleness (frames not composed, CPU not used) can only be measured over time:
        // this bounded window is the test's one wall-time wait.
        usleep(1_000_000)
        XCTAssertEqual(try nested.control.frameCount(), frames, "an idle nested Lodestone composed frames")
        XCTAssertLessThanOrEqual(try nested.cpuTicks() - cpu, 2, "an idle nested Lodestone used CPU (ticks of 10 ms)")

        // A pointer-only frame sends the parent only the pointer's rectangles.
        let before = try BufferTrace(nested.log).commits
        try parent.control.movePointer(dx: 3, dy: 2)
        XCTAssertTrue(try nested.wait { try BufferTrace(nested.log).commits > before }, "the motion produced no commit")
        let trace = try BufferTrace(nested.log)
        let area = trace.lastCommitDamage.reduce(0) { $0 + $1.width * $1.height }
        XCTAssertGreaterThan(area, 0)
        XCTAssertLessThan(area, 2 * 84 * 84, "a pointer move sent \(trace.lastCommitDamage) instead of the pointer's rects")
        XCTAssertEqual(trace.attachedWhileHeld, [])
    }

    // MARK: In Lodestone: ending

    func testClosingTheParentWindowShutsLodestoneDownCleanly() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "320x240")
        defer { nested.stop() }
        _ = try parent.waitForWindow("Lodestone")
        try parent.control.closeWindow("Lodestone")
        let status = try nested.waitForExit()
        XCTAssertEqual(status.reason, .exit, "nested Lodestone crashed:\n\(nested.log.suffix(2000))")
        XCTAssertEqual(status.code, 0, nested.log.suffix(2000).description)
        XCTAssertTrue(try parent.wait { try parent.control.windows().isEmpty }, "the window is still mapped in the parent")
    }

    func testKillingTheParentEndsLodestoneWithAClearMessage() throws {
        let parent = try Session(size: "800x600")
        let nested = try Session(nestedIn: parent, size: "320x240")
        defer { nested.stop() }
        _ = try parent.waitForWindow("Lodestone")
        parent.stop()
        let status = try nested.waitForExit()
        XCTAssertEqual(status.reason, .exit, "nested Lodestone crashed:\n\(nested.log.suffix(2000))")
        XCTAssertEqual(status.code, 1)
        XCTAssertTrue(nested.log.contains("lost the parent Wayland session"), nested.log.suffix(2000).description)
    }
}

struct NestedFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Size: Equatable, CustomStringConvertible {
    var width: Int32, height: Int32
    var description: String { "\(width)×\(height)" }
}

/// A Lodestone started inside a parent session with its default backend
/// choice (WAYLAND_DISPLAY is set, so: nested), and test control of its own.
/// Nested sessions are `Session`s started inside a parent; these are what the
/// nested tests need beyond it.
extension Session {
    convenience init(nestedIn parent: Session, size: String, extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        try self.init(size: size, extraArguments: extraArguments, nestedIn: Parent(runtimeDirectory: parent.runtimeDirectory, socket: parent.socket),
                      environment: environment)
    }

    /// The output's size in pixels, from a capture.
    func captureSize() throws -> Size {
        let s = try control.capturePNG(to: runtimeDirectory + "/\(socket)-size.png")
        return Size(width: s.width, height: s.height)
    }

    /// User plus system CPU time of Lodestone, in clock ticks.
    func cpuTicks() throws -> Int {
        let stat = textOfFile("/proc/\(compositorPID)/stat")
        // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }
}

/// Headless weston with the pixman renderer (its default headless renderer
/// never sends frame callbacks) and --debug for weston-screenshooter and weston-debug. On an
/// X server instead: its X11 backend, whose seat is X's keyboard and pointer (headless
/// weston 10 has no seat), with the kiosk shell, which gives every window the whole 1024×700
/// output and the keyboard when it maps, or the desktop shell (`.desktop`), which shows
/// windows side by side where it pleases (`views()` says where).
final class Weston {
    enum Shell: String { case kiosk = "kiosk-shell.so", desktop = "desktop-shell.so" }

    let runtimeDirectory: String
    let socket: String
    private let process: Process
    private let logPath: String

    /// `extraArguments` go to weston's command line (`--modules=...`), `environment` to its
    /// environment; `pixman: false` leaves weston its GL renderer (WestonModuleTests).
    init(on x: XServer? = nil, shell: Shell = .kiosk, pixman: Bool = true, extraArguments: [String] = [], environment: [String: String] = [:]) throws {
        let id = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        runtimeDirectory = NSTemporaryDirectory() + "lodestone-weston-\(id)"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        socket = "weston-\(id)"
        logPath = runtimeDirectory + "/weston.log"
        try createEmptyFile(atPath: logPath)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let backend = x == nil ? ["--backend=headless-backend.so", "--width=800", "--height=600"]
            : ["--backend=x11-backend.so", "--shell=\(shell.rawValue)", "--width=1024", "--height=700"]
        process.arguments = ["weston"] + (pixman ? ["--use-pixman"] : []) + ["--debug", "--socket=\(socket)", "--idle-time=0"] + backend + extraArguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        env.removeValue(forKey: "DISPLAY")
        if let x { env["DISPLAY"] = x.display }
        env.merge(environment) { $1 }
        process.environment = env
        let log = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: runtimeDirectory + "/" + socket) {
            guard process.isRunning, Date() < deadline else { throw NestedFailure("weston did not start:\n\(self.log)") }
            usleep(20_000)
        }
    }

    var log: String { textOfFile(logPath) }
    var isRunning: Bool { process.isRunning }

    /// The environment of a client of this weston.
    var clientEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtimeDirectory
        env["WAYLAND_DISPLAY"] = socket
        for k in ["DISPLAY", "WAYLAND_DEBUG"] { env.removeValue(forKey: k) }
        return env
    }

    /// A view of weston's scene graph: whose it is (its description, e.g. "top-level
    /// window 'source'") and where, in output coordinates.
    struct View {
        var description: String, x: Int, y: Int, width: Int, height: Int
        func contains(_ p: (x: Int, y: Int)) -> Bool { p.x >= x && p.x < x + width && p.y >= y && p.y < y + height }
    }

    /// The views weston shows, topmost first, from `weston-debug scene-graph`.
    func views() throws -> [View] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["weston-debug", "scene-graph"]
        p.environment = clientEnvironment
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        // "View 2 (role xdg_toplevel, …, top-level window 'source', 0x…):" then
        // "position: (479, 400) -> (679, 550)".
        let position = try Regex(#"position: \((-?\d+), (-?\d+)\) -> \((-?\d+), (-?\d+)\)"#)
        var views: [View] = [], description = ""
        for line in text.split(separator: "\n") {
            if !line.hasPrefix("\t") { description = "" }  // an output's or a layer's heading
            if line.contains("View ") { description = String(line) }
            if !description.isEmpty, let m = line.firstMatch(of: position) {
                let n = (1...4).map { Int(m.output[$0].substring ?? "") ?? 0 }
                views.append(View(description: description, x: n[0], y: n[1], width: n[2] - n[0], height: n[3] - n[1]))
            }
        }
        return views
    }

    /// weston-screenshooter writes wayland-screenshot-*.png into its working directory.
    func screenshot() throws -> Screenshot {
        let dir = runtimeDirectory + "/shot-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["weston-screenshooter"]
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        p.environment = clientEnvironment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard let file = try FileManager.default.contentsOfDirectory(atPath: dir).first(where: { $0.hasSuffix(".png") }) else {
            throw NestedFailure("weston-screenshooter wrote no PNG (status \(p.terminationStatus))")
        }
        return try Screenshot(png: dir + "/" + file)
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// A client's stdout, read as it grows.
struct ClientLog {
    let path: String

    /// Waits (for the client process) until a line starts with `prefix` and contains `text`.
    func waitFor(_ prefix: String, containing text: String = "", timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var contents = ""
        repeat {
            contents = textOfFile(path)
            if contents.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) && (text.isEmpty || $0.contains(text)) }) { return }
            usleep(50_000)
        } while Date() < deadline
        XCTFail("no line '\(prefix)…\(text)' from the client; it printed:\n\(contents.suffix(1500))", file: file, line: line)
    }
}

/// What the nested Lodestone sent its parent for its window (the surfaces that ask for
/// frame callbacks, not the cursor surface), read from its WAYLAND_DEBUG=client trace.
struct BufferTrace {
    /// Commits that attached a buffer.
    var commits = 0
    var buffersAttached = 0
    /// Buffers attached again before the parent released them.
    var attachedWhileHeld: [String] = []
    /// damage_buffer rects of the last commit.
    var lastCommitDamage: [(x: Int, y: Int, width: Int, height: Int)] = []
    /// `wl_surface.frame` callbacks the parent has answered with `done`.
    var frameCallbacksAnswered = 0
    /// A frame callback is asked for and not yet answered: Lodestone's frame clock is held.
    var awaitingFrameCallback: Bool { !pendingFrameCallbacks.isEmpty }
    private var pendingFrameCallbacks = Set<String>()
    /// Commits of the other surfaces (the parent's cursor), by surface.
    var surfaceCommits: [String: Int] = [:]
    var cursorCommits: Int { surfaceCommits.values.reduce(0, +) }

    init(_ log: String) throws {
        var held = Set<String>()
        var attached = Set<String>()
        var damage: [(x: Int, y: Int, width: Int, height: Int)] = []
        var attachedThisCommit = false
        let bufferID = try Regex(#"wl_buffer@(\d+)"#)
        let callbackID = try Regex(#"wl_callback@(\d+)"#)
        let surfaceID = try Regex(#" -> wl_surface@(\d+)"#)
        let lines = log.split(separator: "\n")
        func surface(_ line: Substring) -> String? { line.firstMatch(of: surfaceID).map { String($0.output[1].substring ?? "") } }
        // The window's surfaces are paced by frame callbacks; the cursor's is not.
        let windows = Set(lines.filter { $0.contains(".frame(new id wl_callback@") }.compactMap(surface))
        for line in lines {
            if let s = surface(line), !windows.contains(s) {
                surfaceCommits[s, default: 0] += line.contains(".commit()") ? 1 : 0
                continue
            }
            if line.contains(" -> wl_surface@") && line.contains(".attach(wl_buffer@") {
                guard let match = line.split(separator: ".attach(").last?.firstMatch(of: bufferID) else { continue }
                let id = String(match.output[1].substring ?? "")
                if held.contains(id) { attachedWhileHeld.append(id) }
                held.insert(id)
                attached.insert(id)
                attachedThisCommit = true
            } else if line.contains(" -> wl_surface@") && line.contains(".damage_buffer(") {
                let numbers = line.split(separator: "(").last!.dropLast().split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                if numbers.count == 4 { damage.append((numbers[0], numbers[1], numbers[2], numbers[3])) }
            } else if line.contains(" -> wl_surface@") && line.contains(".commit()") {
                if attachedThisCommit {
                    commits += 1
                    lastCommitDamage = damage
                }
                damage = []
                attachedThisCommit = false
            } else if line.contains("wl_buffer@") && line.contains(".release()") && !line.contains(" -> ") {
                if let match = line.firstMatch(of: bufferID) { held.remove(String(match.output[1].substring ?? "")) }
            } else if line.contains(" -> wl_surface@") && line.contains(".frame(new id wl_callback@") {
                if let match = line.firstMatch(of: callbackID) { pendingFrameCallbacks.insert(String(match.output[1].substring ?? "")) }
            } else if line.contains("wl_callback@") && line.contains(".done(") && !line.contains(" -> ") {
                // wl_display.sync callbacks end with done too: count only frame callbacks.
                if let match = line.firstMatch(of: callbackID), pendingFrameCallbacks.remove(String(match.output[1].substring ?? "")) != nil {
                    frameCallbacksAnswered += 1
                }
            } else if line.contains(" -> wl_buffer@") && line.contains(".destroy()") {
                if let match = line.firstMatch(of: bufferID) { held.remove(String(match.output[1].substring ?? "")) }
            }
        }
        buffersAttached = attached.count
    }
}

extension Screenshot {
    /// The smallest rect holding every pixel of `color`, if any.
    func boundingBox(of color: UInt32) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where self[x, y] == color & 0x00ff_ffff {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX >= 0 ? (minX, minY, maxX - minX + 1, maxY - minY + 1) : nil
    }

    /// Pixels of `other` that differ from this capture with `other` placed at (x, y).
    func countDiffering(from other: Screenshot, atX x: Int, y: Int) -> Int {
        var differing = 0
        for py in 0..<other.height {
            for px in 0..<other.width {
                let ox = x + px, oy = y + py
                if ox < 0 || oy < 0 || ox >= width || oy >= height || self[ox, oy] != other[px, py] { differing += 1 }
            }
        }
        return differing
    }
}
