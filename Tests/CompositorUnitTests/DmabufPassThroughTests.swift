@testable import LodestoneCompositor
import CWaylandClient
import CWaylandProtocols
import Glibc
import WaylandClient
import XCTest

/// linux-dmabuf's side of parent planes (issue 37), with a parent of the test's own whose
/// planes show any buffer (`showsUnmappableBuffers`, which the nested backend's `ParentDmabuf`
/// turns on once its planes attach client buffers): its tranches are offered first, and a
/// buffer Lodestone cannot read exists only if the parent takes it. memfds stand in for the
/// dmabufs: nothing here maps them, the parent alone is asked.
final class DmabufPassThroughTests: XCTestCase {
    /// A parent that answers when the test says.
    private final class Parent: DmabufParent {
        var feedback: DmabufFeedback?
        let showsUnmappableBuffers = true
        var asked: [(buffer: DmabufAttributes, answer: (Bool) -> Void)] = []
        final class Import {}

        func importBuffer(_ buffer: DmabufAttributes, answered: @escaping (Bool) -> Void) -> AnyObject? {
            asked.append((buffer, answered))
            return Import()
        }
    }

    private static let nv12: UInt32 = 0x3231_564e
    private static let yTiled: UInt64 = 0x0100_0000_0000_0002

    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var parent: Parent!
    private var manager: Proxy!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        parent = Parent()
        parent.feedback = DmabufFeedback(mainDevice: 0xe280, tranches: [
            .init(targetDevice: 0xe281, flags: 1, formats: [DmabufFormat(DmabufFormat.xrgb8888, Self.yTiled)]),
            .init(targetDevice: 0xe280, formats: [DmabufFormat(Self.nv12, DmabufFormat.linear), DmabufFormat(DmabufFormat.xrgb8888, DmabufFormat.linear)]),
        ])
        lodestone.compositor.dmabuf.parent = parent
        client = try lodestone.connect()
        manager = try XCTUnwrap(client.bind(cwp_zwp_linux_dmabuf_v1_interface(), version: 4))
    }

    override func tearDown() {
        manager = nil
        client = nil
        lodestone = nil
        parent = nil
    }

    func testTheParentsTranchesComeFirstThenWhatLodestoneReadsThatTheyLack() {
        let offered = lodestone.compositor.dmabuf.feedback
        XCTAssertEqual(offered.mainDevice, 0xe280)
        XCTAssertEqual(offered.tranches.count, 3)
        XCTAssertEqual(Array(offered.tranches.prefix(2)), parent.feedback!.tranches)
        // XRGB8888 linear is the parent's already, for its main device: only ARGB8888 is added.
        XCTAssertEqual(offered.tranches[2], .init(targetDevice: 0xe280, formats: [DmabufFormat(DmabufFormat.argb8888, DmabufFormat.linear)]))
        let table = lodestone.compositor.dmabuf.table
        XCTAssertEqual(table?.size, 4 * 16)
        XCTAssertEqual(table?.indices, [[0], [1, 2], [3]])
    }

    /// Parameters for a 64×64 NV12 buffer (two planes in one memfd); `create` or `create_immed`
    /// is the caller's.
    private func nv12Params() throws -> (params: Proxy, events: () -> [LinuxBufferParamsEvent]) {
        let params = try Proxy(creating: { manager.request { zwp_linux_dmabuf_v1_create_params($0) } }, on: client.connection, what: "create_params")
        var events: [LinuxBufferParamsEvent] = []
        params.handleEvents(LinuxBufferParamsEvent.self) { events.append($0) }
        let fd = cwc_memfd_create("nv12", 0)
        defer { close(fd) }
        ftruncate(fd, 64 * 64 * 2)
        params.request { zwp_linux_buffer_params_v1_add($0, fd, 0, 0, 64, 0, 0) }
        params.request { zwp_linux_buffer_params_v1_add($0, fd, 1, 64 * 64, 64, 0, 0) }
        return (params, { events })
    }

    func testCreateOfABufferOnlyTheParentShowsWaitsForTheParentsAnswer() throws {
        let (taken, takenEvents) = try nv12Params()
        taken.request { zwp_linux_buffer_params_v1_create($0, 64, 64, Self.nv12, 0) }
        try lodestone.roundtrip()
        XCTAssertTrue(takenEvents().isEmpty, "answered before the parent did: \(takenEvents())")
        XCTAssertEqual(parent.asked.count, 1)
        XCTAssertEqual(parent.asked.first?.buffer.planes.map(\.offset), [0, 4096])
        parent.asked[0].answer(true)
        try lodestone.roundtrip()
        guard case .created(let buffer)? = takenEvents().first else { return XCTFail("no created: \(takenEvents())") }

        // Shown on a surface: its size, and no pixels for Lodestone to compose.
        let surface = try XCTUnwrap(client.globals.compositor.request { wl_compositor_create_surface($0) })
        // Raw proxies: destroyed here, or libwayland never frees them (LeakSanitizer, `make asan`).
        defer { wl_surface_destroy(surface); wl_buffer_destroy(buffer) }
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_commit(surface)
        try lodestone.roundtrip()
        let shown = try XCTUnwrap(client.server.object(id: wl_proxy_get_id(surface), as: WlSurface.self))
        XCTAssertEqual(shown.bufferWidth, 64)
        XCTAssertNil(shown.texture)
        XCTAssertEqual(shown.bufferHeight, 64)

        let (refused, refusedEvents) = try nv12Params()
        refused.request { zwp_linux_buffer_params_v1_create($0, 64, 64, Self.nv12, 0) }
        try lodestone.roundtrip()
        parent.asked[1].answer(false)
        try lodestone.roundtrip()
        guard case .failed? = refusedEvents().first else { return XCTFail("no failed: \(refusedEvents())") }
        XCTAssertEqual(client.connection.lastError, 0)
    }

    /// create_immed cannot wait: the buffer exists at once, and the parent's refusal comes as
    /// `failed`, as the protocol allows.
    func testCreateImmedOfABufferTheParentRefusesIsMarkedFailed() throws {
        let (params, events) = try nv12Params()
        let buffer = params.request { zwp_linux_buffer_params_v1_create_immed($0, 64, 64, Self.nv12, 0) }
        XCTAssertNotNil(buffer)
        defer { if let buffer { wl_buffer_destroy(buffer) } }
        try lodestone.roundtrip()
        XCTAssertTrue(events().isEmpty)
        parent.asked[0].answer(false)
        try lodestone.roundtrip()
        guard case .failed? = events().first else { return XCTFail("no failed: \(events())") }
        XCTAssertEqual(client.connection.lastError, 0)
    }
}
