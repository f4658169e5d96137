import Foundation
import LodestoneTesting
import Rendering
import XCTest

/// Lodestone nested in a parent that draws no title bar (a Lodestone parent started with
/// `--no-server-decorations`, as GNOME's mutter offers no zxdg_decoration_manager_v1): the
/// nested window draws its own, and the parent moves, resizes, maximizes, minimizes and
/// closes it on the bar's behalf. (`NestedTests` has the parents that draw the bar.)
final class NestedTitleBarTests: XCTestCase {
    static let bar = Int32(TitleBarImage.height)

    /// A parent without server-side decorations and a 400×300 Lodestone inside it.
    private func start(environment: [String: String] = [:]) throws -> (parent: Session, nested: Session, window: TestControl.WindowState) {
        let parent = try Session(size: "800x600", extraArguments: ["--no-server-decorations"])
        let nested = try Session(nestedIn: parent, size: "400x300", environment: environment)
        // The window geometry holds the bar and the output below it.
        guard let window = try? parent.waitForWindow("Lodestone", where: { $0.height == 300 + Self.bar }) else {
            parent.stop(); nested.stop()
            throw NestedFailure("no 400×330 Lodestone window in the parent: \((try? parent.control.windows()) ?? [])\n\(nested.log.suffix(2000))")
        }
        return (parent, nested, window)
    }

    /// A point of the parent beside `window` and its resize margin.
    private func beside(_ window: TestControl.WindowState, parentWidth: Int32 = 800) -> (x: Double, y: Double) {
        let right = window.x + window.width + 30
        return (Double(right < parentWidth ? right : window.x - 30), Double(window.y + 100))
    }

    func testTheNestedWindowHasLodestonesTitleBarAboveTheOutputAndThePointerMapsBelowIt() throws {
        let (parent, nested, window) = try start()
        defer { nested.stop(); parent.stop() }
        XCTAssertEqual(window.width, 400)
        XCTAssertEqual(try nested.captureSize(), Size(width: 400, height: 300), "the output is the window less the bar")
        XCTAssertTrue(nested.log.contains("Lodestone draws its own"), nested.log.suffix(2000).description)

        // The parent's capture: Lodestone's own bar (the picture it draws for its clients'
        // bars) at the window's top, and the nested output pixel for pixel below it.
        let off = beside(window)
        try parent.control.movePointer(x: off.x, y: off.y)
        var last = ""
        XCTAssertTrue(try parent.wait {
            let activated = try parent.waitForWindow("Lodestone").activated
            let image = TitleBarImage.draw(title: "Lodestone", width: 400, scale: 1, activated: activated)
            let bar = Screenshot(image)
            let outer = try parent.screenshot()
            let inner = try nested.screenshot()
            let barDiffering = outer.countDiffering(from: bar, atX: Int(window.x), y: Int(window.y))
            let outputDiffering = outer.countDiffering(from: inner, atX: Int(window.x), y: Int(window.y + Self.bar))
            last = "bar: \(barDiffering) pixels differ, output: \(outputDiffering)"
            return barDiffering == 0 && outputDiffering == 0
        }, "the parent does not show the bar above the nested output (\(last))")

        // The pointer below the bar lands on the output at the same place, bar height less.
        try parent.control.movePointer(x: Double(window.x) + 100, y: Double(window.y + Self.bar) + 80)
        XCTAssertTrue(try nested.wait { try nested.control.pointer().x == 100 }, "the motion did not reach the nested seat")
        XCTAssertEqual(try nested.control.pointer().y, 80, accuracy: 0.01)
        // On the bar the pointer is the parent's: the nested pointer stays where it left.
        try parent.control.movePointer(x: Double(window.x) + 150, y: Double(window.y) + 10)
        try parent.control.movePointer(dx: 4, dy: 2)
        XCTAssertEqual(try nested.control.pointer().x, 100, accuracy: 0.01, "motion over the bar reached the output")
    }

    func testAtTheParentsScale2TheBarIsDrawnAtScale2() throws {
        let parent = try Session(size: "640x480", scale: 2, extraArguments: ["--no-server-decorations"])
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "300x200")
        defer { nested.stop() }
        let window = try parent.waitForWindow("Lodestone", where: { $0.height == 200 + Self.bar })
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 600, height: 400) }, "the output did not take scale 2")
        let off = beside(window, parentWidth: 640)
        try parent.control.movePointer(x: off.x, y: off.y)
        var last = ""
        XCTAssertTrue(try parent.wait {
            let activated = try parent.waitForWindow("Lodestone").activated
            let bar = Screenshot(TitleBarImage.draw(title: "Lodestone", width: 300, scale: 2, activated: activated))
            let differing = try parent.screenshot().countDiffering(from: bar, atX: Int(window.x) * 2, y: Int(window.y) * 2)
            last = "\(differing) pixels differ"
            return differing == 0
        }, "the parent does not show the bar drawn at scale 2 (\(last))")
    }

    func testDraggingTheBarMovesTheWindowAndTheMarginResizesIt() throws {
        // The trace shows the cursors Lodestone asks the parent for (wp_cursor_shape_v1).
        let (parent, nested, window) = try start(environment: ["WAYLAND_DEBUG": "client"])
        func lastShape() -> String { nested.log.split(separator: "\n").last { $0.contains(" -> wp_cursor_shape_device_v1@") }.map(String.init) ?? "" }
        defer { nested.stop(); parent.stop() }

        // Drag by the title: the parent moves the window (xdg_toplevel.move) until the release.
        try parent.control.movePointer(x: Double(window.x) + 60, y: Double(window.y) + 15)
        XCTAssertTrue(try nested.wait { lastShape().hasSuffix(", 1)") }, "over the bar the parent shows no arrow (shape default): \(lastShape())")
        try parent.control.button(pressed: true)
        var moved = window
        // The move starts when the nested Lodestone's request arrives: move until it does.
        XCTAssertTrue(try parent.wait {
            try parent.control.movePointer(dx: 2, dy: 1)
            moved = try parent.waitForWindow("Lodestone")
            return moved.x != window.x
        }, "dragging the bar did not move the window")
        try parent.control.movePointer(dx: 40, dy: 20)
        let dragged = try parent.waitForWindow("Lodestone")
        XCTAssertEqual(dragged.x - moved.x, 40)
        XCTAssertEqual(dragged.y - moved.y, 20)
        try parent.control.button(pressed: false)
        try parent.control.movePointer(dx: 30, dy: 30)
        XCTAssertEqual(try parent.waitForWindow("Lodestone").x, dragged.x, "the window still moves after the release")
        XCTAssertEqual(try nested.captureSize(), Size(width: 400, height: 300), "a move is no resize")

        // The bottom-right corner's margin, just outside the window: a resize from that corner.
        try parent.control.movePointer(x: Double(dragged.x + dragged.width) + 3, y: Double(dragged.y + dragged.height) + 3)
        XCTAssertTrue(try nested.wait { lastShape().hasSuffix(", 23)") }, "the corner shows no se-resize cursor: \(lastShape())")
        try parent.control.button(pressed: true)
        var resizing = dragged
        XCTAssertTrue(try parent.wait {
            try parent.control.movePointer(dx: 2, dy: 1)
            resizing = try parent.waitForWindow("Lodestone")
            return resizing.width != dragged.width
        }, "pressing the corner's margin started no resize")
        try parent.control.movePointer(dx: 50, dy: 30)
        try parent.control.button(pressed: false)
        var resized = resizing
        XCTAssertTrue(try parent.wait {
            resized = try parent.waitForWindow("Lodestone")
            return resized.width >= resizing.width + 50 && resized.height >= resizing.height + 30
        }, "the window did not follow the corner: \(resized)")
        XCTAssertEqual(resized.x, dragged.x, "a bottom-right resize keeps the top-left")
        XCTAssertEqual(resized.y, dragged.y)
        // The output is the new window less the bar.
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: resized.width, height: resized.height - Self.bar) },
                      "the nested output is \((try? nested.captureSize())?.description ?? "?") in a \(resized.width)×\(resized.height) window")
    }

    func testDoubleClickAndTheBarsButtonsMaximizeMinimizeAndClose() throws {
        let (parent, nested, window) = try start()
        defer { nested.stop(); parent.stop() }
        func press(_ button: TitleBarImage.Button, of w: TestControl.WindowState) throws {
            let f = TitleBarImage.frame(of: button, barWidth: w.width)
            try parent.control.movePointer(x: Double(w.x + f.x + f.width / 2), y: Double(w.y + f.y + f.height / 2))
            try parent.control.click()
        }

        // A double click on the bar maximizes: the window fills the parent's output, the
        // nested output fills the window below the bar.
        try parent.control.movePointer(x: Double(window.x) + 60, y: Double(window.y) + 15)
        try parent.control.click()
        try parent.control.movePointer(dx: 1, dy: 0)
        try parent.control.click()
        var maximized: TestControl.WindowState?
        XCTAssertTrue(try parent.wait {
            maximized = try parent.waitForWindow("Lodestone")
            return maximized.map { $0.width == 800 && $0.height == 600 } ?? false
        }, "a double click did not maximize: \(String(describing: maximized))")
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 800, height: 600 - Self.bar) },
                      "maximized, the nested output is \((try? nested.captureSize())?.description ?? "?")")

        // The maximize button restores the window's size.
        try press(.maximize, of: try parent.waitForWindow("Lodestone"))
        XCTAssertNotNil(try? parent.waitForWindow("Lodestone", where: { $0.width == 400 && $0.height == 300 + Self.bar }), "the maximize button did not restore")
        XCTAssertTrue(try nested.wait { try nested.captureSize() == Size(width: 400, height: 300) })

        // Minimize: the parent hides the window (xdg_toplevel.set_minimized) until it is activated.
        try press(.minimize, of: try parent.waitForWindow("Lodestone"))
        XCTAssertTrue(try parent.wait { try parent.control.windows().allSatisfy { $0.title != "Lodestone" } }, "the minimize button did not minimize")
        try parent.control.activateWindow("Lodestone")
        let back = try parent.waitForWindow("Lodestone")

        // Close: Lodestone ends as when the parent closes its window.
        try press(.close, of: back)
        let status = try nested.waitForExit()
        XCTAssertEqual(status.reason, .exit, "nested Lodestone crashed:\n\(nested.log.suffix(2000))")
        XCTAssertEqual(status.code, 0, nested.log.suffix(2000).description)
        XCTAssertTrue(try parent.wait { try parent.control.windows().isEmpty }, "the window is still mapped in the parent")
    }
}

extension Screenshot {
    /// The pixels of an image (alpha dropped), to compare with a capture.
    init(_ image: Image) {
        var pixels: [UInt32] = []
        pixels.reserveCapacity(Int(image.width * image.height))
        for y in 0..<image.height { for x in 0..<image.width { pixels.append(image.pixel(x: x, y: y) & 0x00ff_ffff) } }
        self.init(width: Int(image.width), height: Int(image.height), pixels: pixels)
    }
}
