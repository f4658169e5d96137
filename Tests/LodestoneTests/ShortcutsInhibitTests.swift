import Foundation
import LodestoneTesting
import XCTest

/// Lodestone's shortcuts and `zwp_keyboard_shortcuts_inhibit_manager_v1` with the pywayland
/// client (Tests/clients/surface_client.py): Super+Tab switches windows and the client never
/// sees the Tab, unless the focused client inhibits shortcuts: then it gets the keys and
/// nothing switches. Nested, Lodestone asks its parent for the same.
final class ShortcutsInhibitTests: XCTestCase {
    static let superKey: UInt32 = 125, tab: UInt32 = 15
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"
    private func read(_ path: String) -> [String] {
        textOfFile(path).split(separator: "\n").map(String.init)
    }

    /// "other" below, then the client's "shortcuts" window with the keyboard; its log.
    private func windows(_ session: Session, inhibit: Bool) throws -> String {
        try session.launch(["python3", client, "single-pixel", "cc3333ff", "100", "100"], output: session.runtimeDirectory + "/other.txt")
        _ = try session.waitForWindow("single-pixel")
        let log = session.runtimeDirectory + "/shortcuts.txt"
        try session.launch(["python3", client, "shortcuts", inhibit ? "on" : "off"], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.read(log).contains("mapped") }, "\(read(log))")
        try session.control.activateWindow("shortcuts")
        XCTAssertEqual(try session.control.keyboard().title, "shortcuts")
        return log
    }

    private func superTab(_ session: Session) throws {
        try session.control.key(Self.superKey, pressed: true)
        try session.control.tap(Self.tab)
        try session.control.key(Self.superKey, pressed: false)
    }

    func testSuperTabSwitchesWindowsAndTheClientNeverSeesTheTab() throws {
        let session = try Session()
        let log = try windows(session, inhibit: false)
        try superTab(session)
        XCTAssertTrue(try session.wait { try session.control.keyboard().title == "single-pixel" }, "Super+Tab brought the other window forward")
        XCTAssertEqual(try session.control.windows().first?.title, "single-pixel")
        _ = try session.control.windows()
        // The client prints what it got when it gets it (a loaded CI run read the log first).
        XCTAssertTrue(try session.wait { self.read(log).contains("key \(Self.superKey) 1") }, "the modifier itself reaches the client: \(read(log))")
        XCTAssertFalse(read(log).contains { $0.hasPrefix("key \(Self.tab) ") }, "Tab is Lodestone's: \(read(log))")
    }

    func testAnActiveInhibitorGetsTheShortcut() throws {
        let session = try Session()
        let log = try windows(session, inhibit: true)
        XCTAssertTrue(try session.wait { self.read(log).last == "active" || self.read(log).contains("active") }, "\(read(log))")
        try superTab(session)
        XCTAssertTrue(try session.wait { self.read(log).contains("key \(Self.tab) 0") }, "the client got Tab: \(read(log))")
        XCTAssertTrue(read(log).contains("key \(Self.tab) 1"))
        XCTAssertEqual(try session.control.keyboard().title, "shortcuts", "nothing switched")
        // The keyboard elsewhere: the inhibitor goes inactive and Super+Tab is Lodestone's again.
        try session.control.activateWindow("single-pixel")
        XCTAssertTrue(try session.wait { self.read(log).contains("inactive") }, "\(read(log))")
        try superTab(session)
        XCTAssertEqual(read(log).filter { $0 == "key \(Self.tab) 1" }.count, 1, "\(read(log))")
    }

    func testNestedLodestoneAsksTheParentToPassShortcuts() throws {
        let parent = try Session(size: "800x600")
        defer { parent.stop() }
        let nested = try Session(nestedIn: parent, size: "400x300")
        defer { nested.stop() }
        XCTAssertTrue(nested.log.contains("its shortcuts passed through"), nested.log)
        // Two windows in the parent: Lodestone's and another.
        try parent.launch(["python3", client, "single-pixel", "cc3333ff", "100", "100"], output: parent.runtimeDirectory + "/parent-other.txt")
        _ = try parent.waitForWindow("single-pixel")
        // Two inside the nested Lodestone.
        try nested.launch(["python3", client, "single-pixel", "3333ccff", "80", "80"], output: parent.runtimeDirectory + "/nested-a.txt")
        _ = try nested.waitForWindow("single-pixel")
        try nested.launch(["python3", client, "viewport", "-1", "-1", "-1", "-1", "64", "48"], output: parent.runtimeDirectory + "/nested-b.txt")
        _ = try nested.waitForWindow("viewport")
        try nested.control.activateWindow("viewport")
        try parent.control.activateWindow("Lodestone")
        try superTab(parent)
        // The parent passed Super+Tab to the nested Lodestone, whose own shortcut switched its windows.
        XCTAssertEqual(try parent.control.keyboard().title, "Lodestone", "the parent kept its window focused")
        XCTAssertTrue(try nested.wait { try nested.control.keyboard().title == "single-pixel" }, "the nested Lodestone switched windows")
    }
}
