import Foundation
import LodestoneTesting
import XCTest

/// `zxdg_exporter_v2` / `zxdg_importer_v2` with two pywayland clients
/// (Tests/clients/surface_client.py): one exports its window, the other imports the handle
/// and makes its window a child of it, which opens centred over the parent and stays above
/// it; when the export goes, the import hears `destroyed`.
final class XdgForeignTests: XCTestCase {
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"
    private func read(_ path: String) -> [String] {
        textOfFile(path).split(separator: "\n").map(String.init)
    }

    func testAnImportedParentKeepsTheChildAboveItUntilTheExportGoes() throws {
        let session = try Session()
        let exportLog = session.runtimeDirectory + "/export.txt", importLog = session.runtimeDirectory + "/import.txt"
        let exporter = try session.launch(["python3", client, "export"], output: exportLog)
        XCTAssertTrue(try session.wait(timeout: 20) { self.read(exportLog).contains { $0.hasPrefix("handle ") } }, "\(read(exportLog))")
        let handle = String(try XCTUnwrap(read(exportLog).first { $0.hasPrefix("handle ") }).dropFirst(7))
        XCTAssertEqual(handle.count, 32, "128 random bits in hex")
        // Another window between them, so "above its parent" means something.
        try session.launch(["python3", client, "single-pixel", "cc3333ff", "300", "300"], output: session.runtimeDirectory + "/other.txt")
        _ = try session.waitForWindow("single-pixel")

        try session.launch(["python3", client, "import", handle], output: importLog)
        let child = try session.waitForWindow("imported")
        let parent = try XCTUnwrap(try session.control.windows().first { $0.title == "exported" })
        XCTAssertEqual(child.x, parent.x + (200 - 80) / 2, "centred over the parent")
        XCTAssertEqual(child.y, parent.y + (100 - 60) / 2)
        // The parent comes forward: its child comes with it, above it.
        try session.control.activateWindow("exported")
        XCTAssertEqual(try session.control.windows().map(\.title).prefix(2), ["imported", "exported"])
        try session.control.activateWindow("single-pixel")
        XCTAssertEqual(try session.control.windows().first?.title, "single-pixel")
        try session.control.activateWindow("exported")
        XCTAssertEqual(try session.control.windows().map(\.title).prefix(2), ["imported", "exported"])

        exporter.terminate()
        exporter.waitUntilExit()
        XCTAssertTrue(try session.wait { self.read(importLog).contains("destroyed") }, "\(read(importLog))")
        XCTAssertFalse(session.log.contains("protocol error"), session.log)
    }

    func testAnUnknownHandleIsDestroyedAtOnce() throws {
        let session = try Session()
        let log = session.runtimeDirectory + "/import.txt"
        try session.launch(["python3", client, "import", "not-a-handle"], output: log)
        XCTAssertTrue(try session.wait(timeout: 20) { self.read(log).contains("destroyed") }, "\(read(log))")
        _ = try session.waitForWindow("imported")
    }
}
