import CWaylandClient
import Foundation
import LodestoneTesting
import WaylandClient
import XCTest

/// The compositor's own behaviour, driven by clients written here: frames and
/// the manual clock, capture, scale and transform, subsurfaces, window management.
final class CompositorTests: XCTestCase {
    private let red: UInt32 = 0xffd0_2020, green: UInt32 = 0xff20_b040, blue: UInt32 = 0xff20_40d0

    func testManualClockRunsFramesOnlyWhenAdvancedAndNeverWhenIdle() throws {
        let session = try Session(manualClock: true)
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "clock", width: 100, height: 80)
        try globals.connection.roundtrip()
        XCTAssertEqual(window.frameCallbacks, 0, "no frame can happen before the clock moves")
        let start = try session.control.advanceClock(milliseconds: 16)
        try globals.connection.roundtrip()
        XCTAssertEqual(window.frameCallbacks, 1, "one frame, one callback")
        // Nothing changes: a second of manual time composes nothing.
        let idle = try session.control.advanceClock(milliseconds: 1000)
        XCTAssertEqual(idle.frames, start.frames, "an idle compositor composes no frames")
        XCTAssertEqual(idle.time, start.time + 1000)
        window.redraw()
        try globals.connection.roundtrip()
        let after = try session.control.advanceClock(milliseconds: 16)
        try globals.connection.roundtrip()
        XCTAssertEqual(after.frames, idle.frames + 1)
        XCTAssertEqual(window.frameCallbacks, 2)
    }

    func testCaptureIntoAClientBufferShowsTheWindow() throws {
        let session = try Session(size: "640x480")
        let globals = try Globals(connection: try session.connect())
        _ = try Window(globals, title: "solid", width: 120, height: 90) { $0.fill(self.red) }
        let w = try session.waitForWindow("solid")
        let buffer = try XCTUnwrap(ClientShmBuffer(shm: globals.shm, width: 640, height: 480))
        // The capture request goes through the test control's own connection.
        let controlGlobals = try Globals(connection: session.control.connection)
        let target = try XCTUnwrap(ClientShmBuffer(shm: controlGlobals.shm, width: 640, height: 480))
        _ = buffer
        let size = try session.control.capture(into: target)
        XCTAssertEqual(size.width, 640)
        XCTAssertEqual(target.pixel(x: w.x + 10, y: w.y + 10) & 0xffffff, red & 0xffffff)
        XCTAssertEqual(target.pixel(x: 630, y: 470) & 0xffffff, backgroundColor)
        // A buffer too small is refused with a reason, not a disconnect.
        let small = try XCTUnwrap(ClientShmBuffer(shm: controlGlobals.shm, width: 10, height: 10))
        XCTAssertThrowsError(try session.control.capture(into: small))
        XCTAssertNoThrow(try session.control.windows())
    }

    func testOutputAndBufferScale() throws {
        let session = try Session(size: "400x300", scale: 2)
        let globals = try Globals(connection: try session.connect())
        // A scale-2 buffer: left half red, right half blue, in buffer pixels.
        let window = try Window(globals, title: "hidpi", width: 100, height: 50) { b in
            for y in 0..<Int(b.height) { for x in 0..<Int(b.width) { b[y * Int(b.width) + x] = x < Int(b.width) / 2 ? self.red : self.blue } }
        }
        window.scale = 2
        window.redraw()
        try globals.connection.roundtrip()
        let w = try session.waitForWindow("hidpi")
        XCTAssertEqual(w.width, 100, "logical size is the buffer size over its scale")
        let shot = try session.screenshot()
        XCTAssertEqual(shot.width, 800, "output pixels are logical size × output scale")
        XCTAssertEqual(shot[Int(w.x) * 2 + 10, Int(w.y) * 2 + 10], red & 0xffffff)
        XCTAssertEqual(shot[Int(w.x) * 2 + 190, Int(w.y) * 2 + 90], blue & 0xffffff)
        XCTAssertEqual(shot[Int(w.x + w.width) * 2 + 4, Int(w.y) * 2 + 10], backgroundColor)
    }

    func testBufferTransformRotatesContent() throws {
        let session = try Session(size: "400x300")
        let globals = try Globals(connection: try session.connect())
        // Transform 90: the client hands a buffer already turned 90° counter-clockwise,
        // so a 60×100 buffer shows as a 100×60 surface. Buffer's top row red, rest blue.
        let window = try Window(globals, title: "turned", width: 100, height: 60) { b in
            for y in 0..<Int(b.height) { for x in 0..<Int(b.width) { b[y * Int(b.width) + x] = y < 10 ? self.red : self.blue } }
        }
        window.transform = 1
        window.redraw()
        try globals.connection.roundtrip()
        let w = try session.waitForWindow("turned") { $0.width == 100 }
        XCTAssertEqual(w.height, 60)
        let shot = try session.screenshot()
        // Undoing a 90° counter-clockwise turn turns clockwise: the buffer's
        // top rows end up along the surface's right side (weston agrees).
        XCTAssertEqual(shot[Int(w.x + w.width) - 3, Int(w.y) + 30], red & 0xffffff)
        XCTAssertEqual(shot[Int(w.x) + 50, Int(w.y) + 30], blue & 0xffffff)
    }

    func testSubsurfaceIsDrawnAtItsOffsetAboveOrBelowItsParent() throws {
        let session = try Session(size: "400x300")
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "parent", width: 100, height: 100) { $0.fill(self.red) }
        let c = globals.connection
        let child = Proxy(globals.compositor.request { wl_compositor_create_surface($0) }!, on: c)
        let sub = Proxy(globals.subcompositor!.request(child, window.surface) { wl_subcompositor_get_subsurface($0, $1, $2) }!, on: c)
        let buffer = try XCTUnwrap(ClientShmBuffer(shm: globals.shm, width: 40, height: 40))
        buffer.fill(green)
        sub.request { wl_subsurface_set_position($0, 80, 20) }  // sticks out of the parent's right side
        child.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        child.request { wl_surface_damage_buffer($0, 0, 0, 40, 40) }
        child.request { wl_surface_commit($0) }
        window.redraw()  // parent commit applies the synchronized child state
        try c.roundtrip()
        let w = try session.waitForWindow("parent")
        var shot = try session.screenshot("above")
        XCTAssertEqual(shot[Int(w.x) + 90, Int(w.y) + 30], green & 0xffffff, "a subsurface starts above its parent")
        XCTAssertEqual(shot[Int(w.x) + 110, Int(w.y) + 30], green & 0xffffff, "and may extend past it")
        XCTAssertEqual(shot[Int(w.x) + 10, Int(w.y) + 10], red & 0xffffff)

        sub.request(window.surface) { wl_subsurface_place_below($0, $1) }
        window.redraw()
        try c.roundtrip()
        XCTAssertTrue(try session.wait {
            shot = try session.screenshot("below")
            return shot[Int(w.x) + 90, Int(w.y) + 30] == self.red & 0xffffff
        }, "placed below, the parent covers it")
        XCTAssertEqual(shot[Int(w.x) + 110, Int(w.y) + 30], green & 0xffffff, "outside the parent it still shows")
        _ = (child, sub, buffer)
    }

    /// A subsurface made after a sibling's place_below, before the parent commits, is drawn:
    /// the pending restacking took it in (it was left out, and never drawn).
    func testSubsurfaceMadeAfterASiblingsRestackingIsDrawn() throws {
        let session = try Session(size: "400x300")
        defer { session.stop() }
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "parent", width: 100, height: 100) { $0.fill(self.red) }
        let c = globals.connection
        var kept: [AnyObject] = []
        for (x, below) in [(Int32(-30), true), (Int32(60), false)] {
            let child = Proxy(globals.compositor.request { wl_compositor_create_surface($0) }!, on: c)
            let sub = Proxy(globals.subcompositor!.request(child, window.surface) { wl_subcompositor_get_subsurface($0, $1, $2) }!, on: c)
            let buffer = try XCTUnwrap(ClientShmBuffer(shm: globals.shm, width: 40, height: 40))
            buffer.fill(below ? self.blue : self.green)
            sub.request { wl_subsurface_set_position($0, x, 20) }
            if below { sub.request(window.surface) { wl_subsurface_place_below($0, $1) } }
            child.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
            child.request { wl_surface_damage_buffer($0, 0, 0, 40, 40) }
            child.request { wl_surface_commit($0) }
            kept += [child, sub, buffer]
        }
        window.redraw()
        try c.roundtrip()
        let w = try session.waitForWindow("parent")
        let shot = try session.screenshot()
        XCTAssertEqual(shot[Int(w.x) - 20, Int(w.y) + 30], self.blue & 0xffffff, "the first child, below its parent, shows beside it")
        XCTAssertEqual(shot[Int(w.x) + 80, Int(w.y) + 30], self.green & 0xffffff, "the second child, made after the first's place_below, is drawn on top")
        withExtendedLifetime(kept) {}
    }

    func testInteractiveMoveFollowsThePointer() throws {
        let session = try Session(size: "800x600")
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "mover", width: 200, height: 150)
        globals.onPointer = { opcode, a in if opcode == 3, a.uint(3) == 1 { window.move() } }
        defer { globals.onPointer = nil }  // the window holds globals: a cycle until then
        let w = try session.waitForWindow("mover")
        let control = session.control
        try control.movePointer(x: Double(w.x + 20), y: Double(w.y + 20))
        try control.button(pressed: true)
        try globals.connection.roundtrip()  // the client hears the press and asks to move...
        try globals.connection.roundtrip()  // ...and the compositor has handled the request
        try control.movePointer(x: Double(w.x + 120), y: Double(w.y + 70))
        try control.button(pressed: false)
        try control.movePointer(x: Double(w.x + 300), y: Double(w.y + 300))  // after release nothing moves
        let moved = try XCTUnwrap(try control.windows().first)
        XCTAssertEqual(moved.x, w.x + 100)
        XCTAssertEqual(moved.y, w.y + 50)
    }

    func testInteractiveResizeFromTheBottomRight() throws {
        let session = try Session(size: "800x600")
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "sizer", width: 200, height: 150)
        globals.onPointer = { opcode, a in if opcode == 3, a.uint(3) == 1 { window.resize(edges: 10) } }  // bottom_right
        defer { globals.onPointer = nil }  // the window holds globals: a cycle until then
        let w = try session.waitForWindow("sizer")
        let control = session.control
        try control.movePointer(x: Double(w.x + w.width - 5), y: Double(w.y + w.height - 5))
        try control.button(pressed: true)
        try globals.connection.roundtrip()  // the client hears the press and asks to resize...
        try globals.connection.roundtrip()  // ...and the compositor has handled the request
        try control.movePointer(dx: 60, dy: 40)
        try globals.connection.roundtrip()  // configure arrives; the window redraws at the new size
        XCTAssertTrue(window.lastStates.contains(3), "resizing state while dragging")
        try control.button(pressed: false)
        try globals.connection.roundtrip()
        XCTAssertTrue(try session.wait {
            try globals.connection.roundtrip()
            return try control.windows().first.map { $0.width == 260 && $0.height == 190 } ?? false
        }, "\((try? control.windows()) ?? [])")
        let after = try XCTUnwrap(try control.windows().first)
        XCTAssertEqual(after.x, w.x, "the top-left corner stays put")
        XCTAssertFalse(window.lastStates.contains(3), "resizing ends with the button")
    }

    func testMaximizeFillsTheOutputAndUnmaximizeRestores() throws {
        let session = try Session(size: "640x480")
        let globals = try Globals(connection: try session.connect())
        let window = try Window(globals, title: "big", width: 200, height: 100)
        let before = try session.waitForWindow("big")
        window.setMaximized(true)
        try globals.connection.roundtrip()
        let max = try session.waitForWindow("big") { $0.width == 640 }
        XCTAssertEqual(max.height, 480)
        XCTAssertEqual(max.x, 0)
        XCTAssertTrue(window.lastStates.contains(1), "maximized state")
        window.setMaximized(false)
        try globals.connection.roundtrip()
        let restored = try session.waitForWindow("big") { $0.width == 200 }
        XCTAssertEqual(restored.x, before.x)
        XCTAssertEqual(restored.height, 100)
    }

    func testNewWindowsCascadeAndStayOnScreen() throws {
        let session = try Session(size: "640x480")
        let globals = try Globals(connection: try session.connect())
        let a = try Window(globals, title: "one", width: 300, height: 200)
        let b = try Window(globals, title: "two", width: 300, height: 200)
        let c = try Window(globals, title: "three", width: 600, height: 460)
        _ = (a, b, c)
        let one = try session.waitForWindow("one"), two = try session.waitForWindow("two"), three = try session.waitForWindow("three")
        XCTAssertGreaterThan(two.x, one.x)
        XCTAssertGreaterThan(two.y, one.y)
        for w in [one, two, three] {
            XCTAssertGreaterThanOrEqual(w.x, 0)
            XCTAssertLessThanOrEqual(w.x + w.width, 640, "\(w.title) is partly off screen")
            XCTAssertLessThanOrEqual(w.y + w.height, 480, "\(w.title) is partly off screen")
        }
    }

    func testTestControlIsNotOfferedByDefault() throws {
        let dir = NSTemporaryDirectory() + "lodestone-nocontrol-\(getpid())"
        // Private, as Lodestone requires of XDG_RUNTIME_DIR.
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Session.executable)
        p.arguments = ["--backend", "headless", "--socket", "plain"]
        p.environment = ["XDG_RUNTIME_DIR": dir]
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        // Retries until the socket exists and listens.
        let connection = try Session.connect(dir + "/plain", until: Date().addingTimeInterval(2), while: p)
        let registry = connection.registry()
        XCTAssertTrue(registry.has("wl_compositor"))
        XCTAssertTrue(registry.has("xdg_wm_base"))
        XCTAssertFalse(registry.has("lodestone_test_v1"), "test control must never be offered by default")
    }
}
