import AdaptivePointerClient
import Foundation
import LodestoneTesting
import XCTest

/// Drag and drop through wl_data_device version 3 (`DragGrab`), with the pywayland client
/// Tests/clients/drag_client.py over a real socket: a drag between two clients and within
/// one, with the data checked byte for byte; the action the two sides agree on (copy,
/// move, ask); drops that cancel (onto the desktop, onto a refusing target, Escape); a
/// source or a target that dies mid-drag; a start_drag with a serial that is not the
/// press's; and the icon drawn at the pointer in a capture. `TouchDragTests`: the same
/// started by a finger.
final class DragAndDropTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/drag_client.py"
    private static let iconColour: UInt32 = 0xff00ff

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    /// Maps drag_client window `title` at (x, y); its log's path and process.
    private func window(_ session: Session, _ title: String, _ colour: String, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> (log: String, process: Process) {
        let log = session.runtimeDirectory + "/\(title).txt"
        let process = try session.launch(["python3", client, title, colour] + options, output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        try session.control.moveWindow(title, x: x, y: y)
        return (log, process)
    }

    private func waitFor(_ session: Session, _ line: String, in log: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertTrue(try session.wait { self.lines(log).contains(line) }, "no '\(line)' in:\n\(textOfFile(log))", file: file, line: lineNumber)
    }

    /// Presses in the source window and waits until its drag started.
    private func startDrag(_ session: Session, at x: Double, _ y: Double, source log: String) throws {
        try session.control.movePointer(x: x, y: y)
        try session.control.button(pressed: true)
        try waitFor(session, "started", in: log)
    }

    /// The source's payload line, as the target should report what it received.
    private func received(fromSourceLog log: String) -> String {
        let payload = lines(log).first { $0.hasPrefix("payload ") } ?? "payload ?"
        return "received text/plain " + payload.dropFirst("payload ".count)
    }

    func testADragBetweenTwoClientsCopiesTheBytesAndShowsTheIcon() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--icon"])
        try startDrag(session, at: 200, 175, source: source.log)
        XCTAssertEqual(try session.control.keyboard().title, "source", "the press focused the source")
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "enter 100 75 text/plain,application/x-lodestone-test", in: target.log)
        try waitFor(session, "target text/plain", in: source.log)
        try waitFor(session, "action 1", in: source.log)
        try waitFor(session, "offer_action 1", in: target.log)
        XCTAssertFalse(lines(target.log).contains("pointer enter"), "the drag took the pointer from clients: \(lines(target.log))")

        // The icon (40×30, hotspot 10,10) is drawn at the pointer; beyond its corner, the window.
        let shot = try session.screenshot("drag-icon")
        XCTAssertEqual(shot.countDiffering(from: Self.iconColour, x: 712, y: 182, width: 15, height: 10).differing, 0, "the icon's lower right")
        XCTAssertEqual(shot.countDiffering(from: Self.iconColour, x: 722, y: 166, width: 6, height: 4).differing, 0, "the icon's upper right")
        XCTAssertEqual(shot.countDiffering(from: Self.iconColour, x: 691, y: 188, width: 4, height: 5).differing, 0, "the icon's lower left")
        // The adaptive pointer is drawn over it, at the hotspot: the circle stays visible.
        XCTAssertGreaterThan(shot.countDiffering(from: Self.iconColour, x: 695, y: 170, width: 10, height: 10).differing, 20, "the pointer over the icon")
        XCTAssertEqual(shot.countDiffering(from: 0x3366cc, x: 735, y: 200, width: 20, height: 20).differing, 0, "the target beyond the icon")

        try session.control.movePointer(x: 720, y: 200)
        try waitFor(session, "motion 120 100", in: target.log)
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: target.log)
        try waitFor(session, received(fromSourceLog: source.log), in: target.log)
        try waitFor(session, "dnd_drop_performed", in: source.log)
        try waitFor(session, "dnd_finished", in: source.log)
        XCTAssertFalse(lines(source.log).contains("cancelled"), lines(source.log).joined(separator: "\n"))
        XCTAssertEqual(try session.control.keyboard().title, "source", "the drop moved no keyboard focus")
        // The icon is gone with the drag, and the pointer is the target's again.
        let after = try session.screenshot("after-drop")
        XCTAssertEqual(after.countDiffering(from: 0x3366cc, x: 722, y: 166, width: 6, height: 15).differing, 0)
        try session.control.movePointer(x: 705, y: 180)
        try waitFor(session, "pointer enter", in: target.log)
    }

    func testTheTargetsPreferredMoveIsTheAction() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100, ["--actions", "copy,move", "--preferred", "move"])
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 2", in: source.log)
        try waitFor(session, "offer_action 2", in: target.log)
        try session.control.button(pressed: false)
        try waitFor(session, received(fromSourceLog: source.log), in: target.log)
        try waitFor(session, "dnd_finished", in: source.log)
    }

    func testASourceThatOnlyCopiesIsCopiedWhateverTheTargetPrefers() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100, ["--actions", "copy,move", "--preferred", "move"])
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--source-actions", "copy"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "offer_action 1", in: target.log)
        XCTAssertTrue(lines(target.log).contains("source_actions 1"), lines(target.log).joined(separator: "\n"))
        XCTAssertFalse(lines(source.log).contains("action 2"))
    }

    func testAskIsAnsweredAfterTheDrop() throws {
        let session = try Session(manualClock: true)
        // The target, which answers ask with move once the drop came; only the source's log is read.
        _ = try window(session, "target", "3366cc", at: 600, 100, ["--actions", "copy,move,ask", "--preferred", "ask", "--answer", "move"])
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--source-actions", "copy,move,ask"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 4", in: source.log)
        try session.control.button(pressed: false)
        try waitFor(session, "dnd_drop_performed", in: source.log)
        // The target chose move after the drop: the source hears it before finished.
        try waitFor(session, "dnd_finished", in: source.log)
        let events = lines(source.log)
        let move = try XCTUnwrap(events.lastIndex(of: "action 2"), events.joined(separator: "\n"))
        XCTAssertLessThan(move, try XCTUnwrap(events.firstIndex(of: "dnd_finished")))
        XCTAssertGreaterThan(move, try XCTUnwrap(events.firstIndex(of: "dnd_drop_performed")))
    }

    func testADragWithinOneClient() throws {
        let session = try Session(manualClock: true)
        let only = try window(session, "only", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 130, 130, source: only.log)
        try session.control.movePointer(x: 260, y: 220)
        try waitFor(session, "motion 160 120", in: only.log)
        try session.control.button(pressed: false)
        try waitFor(session, received(fromSourceLog: only.log), in: only.log)
        try waitFor(session, "dnd_finished", in: only.log)
    }

    func testADragWithoutDataStaysInItsClient() throws {
        let session = try Session(manualClock: true)
        let other = try window(session, "other", "3366cc", at: 600, 100)
        let only = try window(session, "only", "cc6633", at: 100, 100, ["--no-data"])
        try startDrag(session, at: 130, 130, source: only.log)
        try waitFor(session, "enter 30 30 -", in: only.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "leave", in: only.log)
        try session.control.movePointer(x: 200, y: 175)
        XCTAssertTrue(try session.wait { self.lines(only.log).filter { $0.hasPrefix("enter ") }.count == 2 }, textOfFile(only.log))
        try session.control.button(pressed: false)
        try waitFor(session, "drop", in: only.log)
        XCTAssertFalse(lines(other.log).contains { $0.hasPrefix("enter") }, "another client heard a drag without data")
    }

    func testADragWithoutDataEndsWithItsClient() throws {
        let session = try Session(manualClock: true)
        let other = try window(session, "other", "3366cc", at: 600, 100)
        let only = try window(session, "only", "cc6633", at: 100, 100, ["--no-data"])
        try startDrag(session, at: 130, 130, source: only.log)
        kill(only.process.processIdentifier, SIGKILL)
        XCTAssertTrue(try session.wait { try session.control.windows().count == 1 }, "the killed client's window went")
        // The drag ended with its client: the pointer is routed again, button still held.
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "pointer enter", in: other.log)
        try session.control.button(pressed: false)
        XCTAssertFalse(lines(other.log).contains { $0.hasPrefix("enter") }, lines(other.log).joined(separator: "\n"))
    }

    func testADropOnTheDesktopCancels() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 1", in: source.log)
        try session.control.movePointer(x: 500, y: 600)
        try waitFor(session, "leave", in: target.log)
        try waitFor(session, "action 0", in: source.log)
        try session.control.button(pressed: false)
        try waitFor(session, "cancelled", in: source.log)
        XCTAssertFalse(lines(source.log).contains("dnd_drop_performed"))
        XCTAssertFalse(lines(target.log).contains("drop"))
    }

    func testARefusingTargetCancelsTheDrop() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100, ["--accept", "none"])
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "target none", in: source.log)
        try session.control.button(pressed: false)
        try waitFor(session, "cancelled", in: source.log)
        try waitFor(session, "leave", in: target.log)
        XCTAssertFalse(lines(target.log).contains("drop"))
    }

    func testEscapeCancelsAndNoKeyReachesAClient() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 1", in: source.log)
        try session.control.tap(30)  // A: typed during the drag, heard by no one
        try session.control.tap(1)  // Escape
        try waitFor(session, "cancelled", in: source.log)
        try waitFor(session, "leave", in: target.log)
        XCTAssertEqual(try session.control.keyboard().title, "source")
        try session.control.button(pressed: false)
        XCTAssertFalse(lines(target.log).contains("drop"))
        XCTAssertFalse(lines(source.log).contains { $0.hasPrefix("key 30") }, lines(source.log).joined(separator: "\n"))
    }

    func testASourceThatDiesMidDragLeavesTheTargetAndTheSeatFine() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--icon"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 1", in: source.log)
        kill(source.process.processIdentifier, SIGKILL)
        try waitFor(session, "leave", in: target.log)
        try session.control.button(pressed: false)
        XCTAssertFalse(lines(target.log).contains("drop"))
        // The seat routes again: the target gets the pointer, and a click.
        try session.control.movePointer(x: 710, y: 180)
        try waitFor(session, "pointer enter", in: target.log)
        XCTAssertTrue(session.compositorIsRunning)
        let shot = try session.screenshot("source-died")
        let icon = shot.countDiffering(from: Self.iconColour, x: 600, y: 100, width: 200, height: 150)
        XCTAssertEqual(icon.differing, icon.total, "the icon went with its client")
    }

    func testATargetThatDiesMidDragIsForgottenAndTheSourceTold() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source"])
        try startDrag(session, at: 200, 175, source: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try waitFor(session, "action 1", in: source.log)
        kill(target.process.processIdentifier, SIGKILL)
        try waitFor(session, "action 0", in: source.log)
        try waitFor(session, "target none", in: source.log)
        try session.control.movePointer(x: 710, y: 180)
        try session.control.button(pressed: false)
        try waitFor(session, "cancelled", in: source.log)
        XCTAssertTrue(session.compositorIsRunning)
    }

    func testAStartDragWithAnotherSerialIsRefused() throws {
        let session = try Session(manualClock: true)
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--bad-serial"])
        try startDrag(session, at: 200, 175, source: source.log)
        try waitFor(session, "cancelled", in: source.log)
        try session.control.movePointer(x: 700, y: 175)
        try session.control.button(pressed: false)
        XCTAssertFalse(lines(target.log).contains { $0.hasPrefix("enter") }, lines(target.log).joined(separator: "\n"))
        XCTAssertTrue(session.log.contains("start_drag refused: serial"), session.log)
    }
}

/// Drags a finger starts (`DragGrab` following a touch point): `start_drag` with a touch
/// down's serial, over real sockets with the manual clock and the test protocol's touch
/// points (`--touchscreen`). The drag follows the finger, drops where it lifts and is
/// cancelled with the touches, while the pointer and the other fingers go on as before.
final class TouchDragTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/drag_client.py"
    private static let iconColour: UInt32 = 0xff00ff

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    private func window(_ session: Session, _ title: String, _ colour: String, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> String {
        let log = session.runtimeDirectory + "/\(title).txt"
        try session.launch(["python3", client, title, colour] + options, output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        try session.control.moveWindow(title, x: x, y: y)
        return log
    }

    private func waitFor(_ session: Session, _ line: String, in log: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        XCTAssertTrue(try session.wait { self.lines(log).contains(line) }, "no '\(line)' in:\n\(textOfFile(log))", file: file, line: lineNumber)
    }

    private func touchSession() throws -> Session { try Session(manualClock: true, extraArguments: ["--touchscreen"]) }

    func testATouchDragBetweenTwoClientsDeliversTheBytesWhileThePointerAndAnotherFingerWork() throws {
        let session = try touchSession()
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let other = try window(session, "other", "66cc33", at: 100, 400, ["--touch"])
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--touch", "--icon"])
        try session.control.touch(.down, id: 1, x: 200, y: 175)
        try waitFor(session, "started", in: source)
        try session.control.touch(.motion, id: 1, x: 700, y: 175)
        try waitFor(session, "enter 100 75 text/plain,application/x-lodestone-test", in: target)
        try waitFor(session, "action 1", in: source)

        // The pointer is not the drag's: it enters the target as a pointer does.
        try session.control.movePointer(x: 640, y: 230)
        try waitFor(session, "pointer enter", in: target)
        // Another finger touches another client, which hears it.
        try session.control.touch(.down, id: 2, x: 150, y: 450)
        XCTAssertTrue(try session.wait { self.lines(other).contains { $0.hasPrefix("touch down ") } }, textOfFile(other))
        try session.control.touch(.motion, id: 2, x: 160, y: 455)
        try waitFor(session, "touch motion 60 55", in: other)
        try session.control.touch(.up, id: 2)
        try waitFor(session, "touch up", in: other)
        XCTAssertFalse(lines(other).contains { $0.hasPrefix("enter") }, "the second finger started no drag: \(lines(other))")

        // The icon (hotspot 10,10) is drawn at the finger.
        let shot = try session.screenshot("touch-drag-icon")
        XCTAssertEqual(shot.countDiffering(from: Self.iconColour, x: 692, y: 167, width: 36, height: 26).differing, 0, "the icon at the finger")

        try session.control.touch(.motion, id: 1, x: 720, y: 200)
        try waitFor(session, "motion 120 100", in: target)
        XCTAssertFalse(lines(source).contains { $0.hasPrefix("touch motion") }, "the drag's finger is the drag's: \(lines(source))")
        try session.control.touch(.up, id: 1)
        try waitFor(session, "drop", in: target)
        let payload = lines(source).first { $0.hasPrefix("payload ") } ?? "payload ?"
        try waitFor(session, "received text/plain " + payload.dropFirst("payload ".count), in: target)
        try waitFor(session, "dnd_drop_performed", in: source)
        try waitFor(session, "dnd_finished", in: source)
        XCTAssertFalse(lines(source).contains("cancelled"), lines(source).joined(separator: "\n"))
        let after = try session.screenshot("after-touch-drop")
        XCTAssertEqual(after.countDiffering(from: 0x3366cc, x: 692, y: 167, width: 36, height: 26).differing, 0, "the icon went with the drag")
    }

    /// Two windows, and finger `id` dragging from the source onto the target, which accepts.
    private func touchDragOverTheTarget(_ session: Session, id: Int32) throws -> (target: String, source: String) {
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--touch"])
        try session.control.touch(.down, id: id, x: 200, y: 175)
        try waitFor(session, "started", in: source)
        try session.control.touch(.motion, id: id, x: 700, y: 175)
        try waitFor(session, "action 1", in: source)
        return (target, source)
    }

    func testATouchDragLiftedOverNothingCancels() throws {
        let session = try touchSession()
        let (target, source) = try touchDragOverTheTarget(session, id: 3)
        try session.control.touch(.motion, id: 3, x: 500, y: 600)
        try waitFor(session, "leave", in: target)
        try waitFor(session, "action 0", in: source)
        try session.control.touch(.up, id: 3)
        try waitFor(session, "cancelled", in: source)
        XCTAssertFalse(lines(source).contains("dnd_drop_performed"))
        XCTAssertFalse(lines(target).contains("drop"))
    }

    func testATouchCancelCancelsTheDrag() throws {
        let session = try touchSession()
        let (target, source) = try touchDragOverTheTarget(session, id: 0)
        try session.control.touch(.cancel)
        try waitFor(session, "cancelled", in: source)
        try waitFor(session, "leave", in: target)
        try session.control.touch(.up, id: 0)
        XCTAssertFalse(lines(target).contains("drop"))
        // The seat goes on: a new finger starts nothing (the client dragged once) but is heard.
        try session.control.touch(.down, id: 0, x: 150, y: 150)
        XCTAssertTrue(try session.wait { self.lines(source).filter { $0.hasPrefix("touch down ") }.count == 2 }, textOfFile(source))
    }

    func testAStartDragWithAStaleTouchSerialIsRefused() throws {
        let session = try touchSession()
        let target = try window(session, "target", "3366cc", at: 600, 100)
        let source = try window(session, "source", "cc6633", at: 100, 100, ["--source", "--touch-late"])
        // Another finger stays down on the source: the lifted one's serial is still refused.
        try session.control.touch(.down, id: 1, x: 150, y: 150)
        try session.control.touch(.down, id: 0, x: 200, y: 175)
        try session.control.touch(.up, id: 0)
        try waitFor(session, "cancelled", in: source)
        try session.control.touch(.up, id: 1)
        try session.control.touch(.down, id: 0, x: 200, y: 175)
        try session.control.touch(.motion, id: 0, x: 700, y: 175)
        try session.control.touch(.up, id: 0)
        XCTAssertFalse(lines(target).contains { $0.hasPrefix("enter") }, lines(target).joined(separator: "\n"))
        XCTAssertTrue(session.log.contains("start_drag refused: no button is held, and serial"), session.log)
    }
}

/// The adaptive pointer during a drag: it says what a drop would do, as iPadOS does (a plus
/// for a copy, arrows for a move, a plus and an arrow for ask, circle.slash where the target
/// refuses, the circle over nothing), and morphs back to the circle after the drop.
final class DragPointerTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/drag_client.py"
    /// `lodestone_test_v1` accessory shapes.
    private let arrow: UInt32 = 0, plus: UInt32 = 1, circleSlash: UInt32 = 3

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    private func window(_ session: Session, _ title: String, at x: Int32, _ y: Int32, _ options: [String] = []) throws -> String {
        let log = session.runtimeDirectory + "/\(title).txt"
        try session.launch(["python3", client, title, "808080"] + options, output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        try session.control.moveWindow(title, x: x, y: y)
        return log
    }

    /// The visible accessories after moving to (x, y) and letting the pointer settle: once the
    /// source has heard `line` `times` more times (the answer of the target under the pointer,
    /// which the compositor sends the source as it takes it in).
    private func accessories(_ session: Session, _ probe: PointerShapeProbe, at x: Double, _ y: Double, log: String, heard line: String,
                             times: Int = 1) throws -> [UInt32] {
        let before = lines(log).filter { $0 == line }.count
        try session.control.movePointer(x: x, y: y)
        XCTAssertTrue(try session.wait { self.lines(log).filter { $0 == line }.count >= before + times }, "no \(times) new '\(line)': \(textOfFile(log))")
        try session.control.advanceClock(milliseconds: 600)
        return try probe.shape().accessories.filter { $0.alpha > 0.5 }.map(\.shape).sorted()
    }

    func testThePointerSaysWhatADropWouldDoAndMorphsBack() throws {
        let session = try Session(manualClock: true)
        let probe = try PointerShapeProbe(session: session)
        _ = try window(session, "copies", at: 600, 100)
        _ = try window(session, "moves", at: 600, 300, ["--preferred", "move"])
        _ = try window(session, "asks", at: 600, 500, ["--actions", "copy,move,ask", "--preferred", "ask"])
        _ = try window(session, "refuses", at: 300, 500, ["--accept", "none"])
        let source = try window(session, "source", at: 100, 100, ["--source", "--source-actions", "copy,move,ask"])
        try session.control.movePointer(x: 150, y: 150)
        try session.control.button(pressed: true)
        XCTAssertTrue(try session.wait { self.lines(source).contains("started") }, textOfFile(source))
        // The drag starts over the source's own window, which takes a copy too: its "action 1"
        // comes after "started" (the answer to the enter the roundtrip brought) and must not
        // be taken for the copying target's below.
        XCTAssertTrue(try session.wait { self.lines(source).contains("action 1") }, textOfFile(source))

        XCTAssertEqual(try accessories(session, probe, at: 700, 150, log: source, heard: "action 1"), [plus], "copy")
        XCTAssertEqual(try accessories(session, probe, at: 700, 350, log: source, heard: "action 2"), [arrow, arrow, arrow, arrow], "move")
        XCTAssertEqual(try accessories(session, probe, at: 700, 550, log: source, heard: "action 4"), [arrow, plus], "ask")
        // Two: leaving "asks", which had accepted, already tells the source "target none" (and
        // "action 0"); the refusal's own "target none" comes once "refuses" has answered its
        // enter with accept(null). Waiting for the first alone read the pointer before that
        // answer, as the plain circle ("[]" for "[3]", 1 run in 6 under two busy loops).
        XCTAssertEqual(try accessories(session, probe, at: 400, 550, log: source, heard: "target none", times: 2), [circleSlash], "refused")
        XCTAssertEqual(try accessories(session, probe, at: 500, 750, log: source, heard: "action 0"), [], "over the desktop: the circle")

        // Back over the copying target, then the drop: the plus fades as the circle comes back.
        XCTAssertEqual(try accessories(session, probe, at: 700, 160, log: source, heard: "target text/plain"), [plus])
        // A nudge first: an idle pointer fades away by itself, which must not be mistaken for the morph.
        try session.control.movePointer(dx: 0.5, dy: 0)
        try session.control.button(pressed: false)
        XCTAssertTrue(try session.wait { self.lines(source).contains("dnd_finished") }, textOfFile(source))
        try session.control.advanceClock(milliseconds: 50)
        let fading = try probe.shape()
        XCTAssertGreaterThan(fading.alpha, 0.9, "the pointer itself is shown")
        XCTAssertEqual(fading.accessories.map(\.shape), [plus], "the plus is still there 50 ms after the drop")
        XCTAssertLessThan(fading.accessories.first?.alpha ?? 1, 0.9, "and fading")
        XCTAssertGreaterThan(fading.accessories.first?.alpha ?? 0, 0.05)
        try session.control.advanceClock(milliseconds: 1000)
        XCTAssertEqual(try probe.shape().accessories.filter { $0.alpha > 0.01 }.count, 0, "the circle, plain, once settled")
    }

    /// An app that declares its drop targets as adaptive_pointer_v1 regions (the demo's
    /// folder with a plus, a locked one with circle.slash) keeps those accessories while a
    /// real drag from another app passes over them: declared regions win over the drag's
    /// own cursor, as they do over any cursor name.
    func testDeclaredTargetRegionsKeepTheirAccessoriesDuringADrag() throws {
        let f = try AdaptiveFixture()
        let panel = try RegionClient(session: f.session, title: "panel", width: 400, height: 300)
        try f.control.moveWindow("panel", x: 600, y: 100)
        var folder = RegionDescription(frame: (20, 20, 150, 100), effect: .hover, identifier: 1)
        folder.accessories = [.init(.plus, angle: 45, offset: 4)]
        var locked = RegionDescription(frame: (220, 20, 150, 100), effect: .hover, identifier: 2)
        locked.accessories = [.init(.circleSlash, angle: 45, offset: 4)]
        try panel.declare(folder, commit: false)
        try panel.declare(locked)
        let source = try window(f.session, "source", at: 100, 100, ["--source"])
        try f.control.movePointer(x: 150, y: 150)
        try f.control.button(pressed: true)
        XCTAssertTrue(try f.session.wait { self.lines(source).contains("started") }, textOfFile(source))
        var s = try f.move(to: 695, 170)
        XCTAssertTrue(s.targeted, "the folder region is targeted mid-drag")
        XCTAssertEqual(s.accessories.filter { $0.alpha > 0.5 }.map(\.shape), [plus], "the folder's plus")
        s = try f.move(to: 895, 170)
        XCTAssertEqual(s.identifier, 2)
        XCTAssertEqual(s.accessories.filter { $0.alpha > 0.5 }.map(\.shape), [circleSlash], "the locked folder's circle.slash")
        try f.control.button(pressed: false)
        XCTAssertTrue(try f.session.wait { self.lines(source).contains("cancelled") }, "the panel takes no drop: \(textOfFile(source))")
    }
}

/// Real apps on the real clock: a GTK 3 entry (zenity's) takes a drop from the pywayland
/// client, and a drag of its selected text drops into the pywayland client and onto the
/// demo's folder.
final class GtkDragTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/drag_client.py"
    private static let gtkWayland = ["GDK_BACKEND": "wayland", "GSK_RENDERER": "cairo", "NO_AT_BRIDGE": "1"]

    private func lines(_ path: String) -> [String] { textOfFile(path).split(separator: "\n").map(String.init) }

    /// zenity's entry dialog at (48, 48): its entry field spans x 60…228, y 125…155 (the
    /// text starts at x 70).
    private func zenity(_ session: Session, text: String) throws -> String {
        try requireProgram("zenity")
        let out = session.runtimeDirectory + "/zenity.txt"
        try session.launch(["zenity", "--entry", "--title", "entry", "--text", "Drop here", "--entry-text", text],
                           environment: Self.gtkWayland, output: out)
        _ = try session.waitForWindow("entry")
        try session.control.moveWindow("entry", x: 48, y: 48)
        return out
    }

    /// Moves the pointer in small steps, as a hand does, so the app sees the motion.
    private func glide(_ session: Session, from a: (Double, Double), to b: (Double, Double), steps: Int = 12) throws {
        for i in 1...steps {
            let t = Double(i) / Double(steps)
            try session.control.movePointer(x: a.0 + (b.0 - a.0) * t, y: a.1 + (b.1 - a.1) * t)
            Thread.sleep(forTimeInterval: 0.03)
        }
    }

    func testAPywaylandDragDropsIntoAGtkEntry() throws {
        let session = try Session()
        let out = try zenity(session, text: "")
        let log = session.runtimeDirectory + "/source.txt"
        try session.launch(["python3", client, "source", "cc6633", "--source", "--text", "dropped by pywayland"], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        try session.control.moveWindow("source", x: 600, y: 100)
        try session.control.movePointer(x: 700, y: 175)
        try session.control.button(pressed: true)
        XCTAssertTrue(try session.wait { self.lines(log).contains("started") }, textOfFile(log))
        try glide(session, from: (700, 175), to: (140, 140))
        XCTAssertTrue(try session.wait { self.lines(log).last { $0.hasPrefix("action ") } == "action 1" }, "GTK's entry agreed to copy: \(textOfFile(log))")
        try session.control.button(pressed: false)
        XCTAssertTrue(try session.wait { self.lines(log).contains("dnd_finished") }, textOfFile(log))
        // The entry holds the text: zenity prints it when Enter is pressed.
        try session.control.activateWindow("entry")
        try session.control.tap(28)  // Enter
        XCTAssertTrue(try session.wait { textOfFile(out).contains("dropped by pywayland") }, "zenity printed: \(textOfFile(out))")
    }

    func testAGtkEntrysSelectedTextDropsIntoAPywaylandClient() throws {
        let session = try Session()
        let log = session.runtimeDirectory + "/target.txt"
        try session.launch(["python3", client, "target", "3366cc", "--accept", "text/plain;charset=utf-8"], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.lines(log).contains("mapped") }, textOfFile(log))
        try session.control.moveWindow("target", x: 600, y: 100)
        _ = try zenity(session, text: "drag me out")
        try session.control.activateWindow("entry")
        // Ctrl+A selects the entry's text; a press on the selection and a drag starts GTK's drag.
        try session.control.key(29, pressed: true)
        try session.control.tap(30)
        try session.control.key(29, pressed: false)
        Thread.sleep(forTimeInterval: 0.2)
        try session.control.movePointer(x: 100, y: 140)
        try session.control.button(pressed: true)
        Thread.sleep(forTimeInterval: 0.1)
        try glide(session, from: (100, 140), to: (700, 175), steps: 30)
        XCTAssertTrue(try session.wait { self.lines(log).contains { $0.hasPrefix("enter ") } }, "GTK started no drag: \(textOfFile(log))\n\(session.log.suffix(2000))")
        try session.control.button(pressed: false)
        XCTAssertTrue(try session.wait { self.lines(log).contains("text drag me out") }, textOfFile(log))
    }

    /// The demo's folder takes a real app's drag: the GTK entry's selected text, dropped on
    /// it, is read by the demo (its trace, `LODESTONE_DEMO_TRACE`).
    func testAGtkEntrysTextDropsOntoTheDemosFolder() throws {
        let session = try Session()
        let demo = session.runtimeDirectory + "/demo.txt"
        let executable = URL(fileURLWithPath: Session.executable).deletingLastPathComponent().appendingPathComponent("lodestone-demo").path
        try session.launch([executable], environment: ["LODESTONE_DEMO_TRACE": "1"], output: demo)
        _ = try session.waitForWindow("Lodestone demo")
        try session.control.moveWindow("Lodestone demo", x: 0, y: 0)
        // zenity above it, its entry at x 60…228, y 125…155; the folder at (622, 380) 196×104.
        _ = try zenity(session, text: "drag me out")
        try session.control.activateWindow("entry")
        try session.control.key(29, pressed: true)
        try session.control.tap(30)
        try session.control.key(29, pressed: false)
        Thread.sleep(forTimeInterval: 0.2)
        try session.control.movePointer(x: 100, y: 140)
        try session.control.button(pressed: true)
        Thread.sleep(forTimeInterval: 0.1)
        try glide(session, from: (100, 140), to: (720, 430), steps: 30)
        XCTAssertTrue(try session.wait { textOfFile(demo).contains("drag enter ") }, "GTK's drag reached no demo: \(textOfFile(demo).suffix(2000))")
        // A little more motion over the folder, and a moment for the demo's accept to reach GTK.
        try glide(session, from: (720, 430), to: (700, 420), steps: 4)
        Thread.sleep(forTimeInterval: 0.3)
        try session.control.button(pressed: false)
        XCTAssertTrue(try session.wait { textOfFile(demo).contains("drop received text/plain;charset=utf-8 drag me out") },
                      "the demo's folder took no drop:\n\(textOfFile(demo).split(separator: "\n").filter { $0.hasPrefix("drag") || $0.hasPrefix("drop") })")
    }
}
