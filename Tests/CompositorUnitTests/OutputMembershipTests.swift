@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import Glibc
import WaylandClient
import XCTest

/// Which heads a surface is on (`wl_surface.enter` and `leave`) as its window moves across
/// two heads and a head is unplugged, and a removed head's `wl_output` global: withdrawn at
/// once, bindable a little longer, then destroyed with the head. A real libwayland client
/// on a socketpair, the manual clock.
final class OutputMembershipTests: XCTestCase {
    private static let twoHeads = [OutputMode(name: "HEADLESS-1", width: 800, height: 600),
                                   OutputMode(name: "HEADLESS-2", width: 800, height: 600)]

    /// A client's wl_output of every head, by head name, and the enter/leave its window's
    /// surface receives, as (event, head name).
    private final class Heads {
        var outputs: [String: Proxy] = [:]
        var events: [String] = []
        private var bound: [Proxy] = []

        init(_ client: TestClient) {
            for g in client.globals.registry.globals where g.interface == "wl_output" {
                let pointer = OpaquePointer(client.globals.registry.request { wl_registry_bind($0, g.name, cwp_wl_output_interface(), 4) })!
                let output = Proxy(pointer, on: client.connection)
                bound.append(output)
                output.onEvent = { [unowned self, unowned output] opcode, a in
                    if opcode == 4 { self.outputs[a.string(0)] = output }  // name
                }
            }
        }

        func name(_ object: OpaquePointer?) -> String { outputs.first { $0.value.isObject(object) }?.key ?? "?" }

        func watch(_ surface: Proxy) {
            surface.onEvent = { [unowned self] opcode, a in
                switch opcode {
                case 0: self.events.append("enter \(self.name(a.object(0)))")
                case 1: self.events.append("leave \(self.name(a.object(0)))")
                default: break
                }
            }
        }

        func take() -> [String] { defer { events = [] }; return events }
    }

    /// A window mapped under the pointer hears which head it is on before the pointer enters
    /// it, as under wlroots: clients pick their cursor's scale from the surface's heads on
    /// `wl_pointer.enter`. (A layer surface's map took the other order, and mako 1.7, which
    /// reads its surface's output there, crashed: `LayerShellTests`' mako test.)
    func testASurfaceMappedUnderThePointerHearsItsHeadBeforeThePointerEnters() throws {
        let lodestone = try InProcessCompositor()
        let client = try lodestone.connect()
        let heads = Heads(client)
        try lodestone.roundtrip()
        let size = lodestone.compositor.output.logicalBounds
        try lodestone.movePointer(to: Double(size.width) / 2, Double(size.height) / 2)
        var order: [String] = []
        let pointerHandler = client.globals.onPointer
        client.globals.onPointer = { opcode, a in
            if opcode == 0 { order.append("pointer enter") }
            pointerHandler?(opcode, a)
        }
        // Nearly the whole output: wherever it is placed, it is under the pointer.
        let window = try Window(client.globals, title: "A", width: Int32(size.width) - 40, height: Int32(size.height) - 40)
        window.surface.onEvent = { opcode, a in
            if opcode == 0 { order.append("surface enter \(heads.name(a.object(0)))") }
        }
        try lodestone.roundtrip()
        try lodestone.roundtrip()
        XCTAssertEqual(order, ["surface enter HEADLESS-1", "pointer enter"])
    }

    /// The same for a layer surface, as a notification appears under a still pointer: it
    /// heard `wl_pointer.enter` first, and mako 1.7 crashed (`LayerShellTests`' mako test).
    func testALayerSurfaceMappedUnderThePointerHearsItsHeadBeforeThePointerEnters() throws {
        let lodestone = try InProcessCompositor()
        let client = try lodestone.connect()
        let heads = Heads(client)
        let shell = try XCTUnwrap(client.bind(cwp_zwlr_layer_shell_v1_interface(), version: 4))
        try lodestone.roundtrip()
        try lodestone.movePointer(to: 640, 400)
        var order: [String] = []
        let pointerHandler = client.globals.onPointer
        client.globals.onPointer = { opcode, a in
            if opcode == 0 { order.append("pointer enter") }
            pointerHandler?(opcode, a)
        }
        let surface = Proxy(try XCTUnwrap(client.globals.compositor.request { wl_compositor_create_surface($0) }), on: client.connection)
        surface.onEvent = { (opcode: UInt32, a: EventArguments) in
            if opcode == 0 { order.append("surface enter \(heads.name(a.object(0)))") }
        }
        // 200×100, anchored nowhere: centred on the head, under the pointer.
        let layer = Proxy(try XCTUnwrap(shell.request(surface) { zwlr_layer_shell_v1_get_layer_surface($0, $1, nil, 2, "notifications") }),
                          on: client.connection)
        var configured: UInt32?
        layer.onEvent = { (opcode: UInt32, a: EventArguments) in if opcode == 0 { configured = a.uint(0) } }
        layer.request { zwlr_layer_surface_v1_set_size($0, 200, 100) }
        surface.request { wl_surface_commit($0) }
        try lodestone.roundtrip()
        let serial = try XCTUnwrap(configured, "no configure")
        layer.request { zwlr_layer_surface_v1_ack_configure($0, serial) }
        let buffer = try ClientShmBuffer(on: client.globals.shm, width: 200, height: 100)
        buffer.fill(0xff80_80c0)
        surface.request(buffer.buffer) { wl_surface_attach($0, $1, 0, 0) }
        surface.request { wl_surface_commit($0) }
        try lodestone.roundtrip()
        try lodestone.roundtrip()
        XCTAssertEqual(order, ["surface enter HEADLESS-1", "pointer enter"])
    }

    func testASurfaceEntersOnlyTheHeadsItOverlapsAsItMovesAcross() throws {
        let lodestone = try InProcessCompositor(outputs: Self.twoHeads)
        let client = try lodestone.connect()
        let heads = Heads(client)
        try lodestone.roundtrip()
        XCTAssertEqual(Set(heads.outputs.keys), ["HEADLESS-1", "HEADLESS-2"])
        let window = try Window(client.globals, title: "A", width: 200, height: 100)
        heads.watch(window.surface)
        try lodestone.roundtrip()
        XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: 100, y: 100))
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), ["enter HEADLESS-1"], "mapped on the first head only")

        XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: 700, y: 100))
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), ["enter HEADLESS-2"], "across the edge: on both")
        XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: 1000, y: 100))
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), ["leave HEADLESS-1"], "wholly on the second")
        XCTAssertTrue(lodestone.compositor.positionWindow(of: client.server, surfaceID: window.surface.id, x: 1100, y: 200))
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), [], "moving within a head changes nothing")

        // Its head unplugged: the window comes onto the first head, and the surface with it.
        XCTAssertTrue(lodestone.compositor.removeOutput(named: "HEADLESS-2"))
        try lodestone.roundtrip()
        XCTAssertEqual(Set(heads.take()), ["leave HEADLESS-2", "enter HEADLESS-1"])
        // A head plugged in to the right: the window is not on it.
        try lodestone.compositor.addOutput(OutputMode(name: "HEADLESS-3", width: 640, height: 480))
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), [])
    }

    func testAWlOutputBoundAfterTheWindowMappedIsEnteredWhenTheWindowIsOnIt() throws {
        let lodestone = try InProcessCompositor(outputs: Self.twoHeads)
        let client = try lodestone.connect()
        let window = try lodestone.mapWindow(on: client, title: "A", x: 900, y: 100, width: 200, height: 100)
        let heads = Heads(client)
        heads.watch(window.surface)
        try lodestone.roundtrip()
        XCTAssertEqual(heads.take(), ["enter HEADLESS-2"])
    }

    func testARemovedHeadsGlobalIsWithdrawnAtOnceThenDestroyedAndALateBindIsSafe() throws {
        let lodestone = try InProcessCompositor(outputs: Self.twoHeads, withdrawnGlobalLinger: 50)
        let client = try lodestone.connect()
        let registry = client.globals.registry
        let outputs = registry.globals.filter { $0.interface == "wl_output" }
        XCTAssertEqual(outputs.count, 2)
        weak let removed = lodestone.compositor.layout.head(named: "HEADLESS-2")
        XCTAssertNotNil(removed)

        // The head goes while the client, not having heard, binds its global: it gets a
        // wl_output describing the head, and no error.
        XCTAssertTrue(lodestone.compositor.removeOutput(named: "HEADLESS-2"))
        let late = try XCTUnwrap(OpaquePointer(registry.request { wl_registry_bind($0, outputs[1].name, cwp_wl_output_interface(), 4) }))
        var names: [String] = []
        let proxy = Proxy(late, on: client.connection)
        proxy.onEvent = { opcode, a in if opcode == 4 { names.append(a.string(0)) } }
        try lodestone.roundtrip()
        XCTAssertEqual(client.connection.lastError, 0, "the late bind is no protocol error")
        XCTAssertEqual(names, ["HEADLESS-2"])
        XCTAssertEqual(registry.globals.filter { $0.interface == "wl_output" }.map(\.name), [outputs[0].name], "global_remove came at once")
        XCTAssertEqual(lodestone.compositor.withdrawnGlobals.count, 1, "still bindable for a while")

        // After the linger the global is destroyed and the head freed with it.
        usleep(80_000)
        lodestone.serve()
        XCTAssertEqual(lodestone.compositor.withdrawnGlobals.count, 0)
        XCTAssertNil(removed, "the head is gone: one head left")
        XCTAssertEqual(lodestone.compositor.layout.heads.count, 1)
        // The late wl_output lives on, inert: releasing it is fine.
        proxy.destroy { wl_output_release($0) }
        try lodestone.roundtrip()
        XCTAssertEqual(client.connection.lastError, 0)
    }
}
