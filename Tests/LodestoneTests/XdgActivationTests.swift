import Foundation
import LodestoneTesting
import XCTest

/// `xdg_activation_v1` with the pywayland client (Tests/clients/surface_client.py):
/// a token asked for by the focused client activates a window; one asked for from the
/// background does nothing; a committed token takes no more requests.
final class XdgActivationTests: XCTestCase {
    private func read(_ path: String) -> String { textOfFile(path) }
    private let client = repositoryRoot + "/Tests/clients/surface_client.py"

    func testTokenFromTheFocusedClientActivatesAnotherWindow() throws {
        let session = try Session()
        let log = session.runtimeDirectory + "/activation.txt"
        try session.launch(["python3", client, "activate-other"], output: log)
        XCTAssertTrue(try session.wait { self.read(log).contains("activated") }, read(log))
        XCTAssertTrue(try session.wait { try session.control.windows().first?.title == "activation-a" }, "a is on top")
        let windows = try session.control.windows()
        XCTAssertEqual(windows.first { $0.title == "activation-a" }?.activated, true, "\(windows)")
        XCTAssertEqual(windows.first { $0.title == "activation-b" }?.activated, false, "\(windows)")
        XCTAssertEqual(try session.control.keyboard().title, "activation-a")
    }

    func testTokenFromTheBackgroundDoesNotStealFocus() throws {
        let session = try Session()
        let log = session.runtimeDirectory + "/background.txt"
        try session.launch(["python3", client, "activate-from-background"], output: log)
        _ = try session.waitForWindow("background")
        // A second window takes the keyboard; the first then asks to be activated.
        try session.launch(["python3", client, "single-pixel", "cc3333ff", "100", "100"], output: session.runtimeDirectory + "/front.txt")
        // Another client's new window does not take the keyboard by itself; the user gives it.
        _ = try session.waitForWindow("single-pixel")
        try session.control.activateWindow("single-pixel")
        XCTAssertTrue(try session.wait { self.read(log).contains("tried") }, read(log))
        _ = try session.control.windows()  // a round trip after the activation request
        XCTAssertEqual(try session.control.keyboard().title, "single-pixel")
        XCTAssertEqual(try session.control.windows().first { $0.title == "background" }?.activated, false)
    }

    func testCommittedTokenIsAlreadyUsed() throws {
        let session = try Session()
        let (status, output) = try run(["python3", client, "token-reuse"], environment: session.clientEnvironment)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("RESULT: protocol-error"), output)
        XCTAssertTrue(output.contains("xdg_activation_token_v1#") && output.contains("error 0: this xdg_activation_token_v1 was already committed"), output)
    }
}
