import Foundation
import LodestoneTesting
import XCTest

/// Tests/clients/x11_client.py: a python-xlib X client that asks for one thing at a time.
let x11ClientScript = repositoryRoot + "/Tests/clients/x11_client.py"

/// What the Xwayland test classes share: a headless Lodestone with its X11 display, and the
/// python3 that runs the X clients in Tests/clients.
extension XCTestCase {
    /// Starts Lodestone headless and returns it with the X11 display it offers (Xwayland
    /// itself starts on the first X connection). With Xwayland installed, offering none is a
    /// failure, not a skip.
    func startXwaylandSession(size: String = "1280x800", extraArguments: [String] = [], environment: [String: String] = [:]) throws -> (Session, String) {
        try requireProgram("Xwayland")
        let session = try Session(size: size, extraArguments: extraArguments, environment: environment)
        guard let display = session.x11Display else {
            session.stop()
            throw XwaylandTestError(description: "Lodestone offers no X11 display:\n\(session.log)")
        }
        return (session, display)
    }

    /// A python3 that has python-xlib (Debian's python3-xlib; the PATH's python3 may be
    /// another one).
    func xlibPython() throws -> String {
        for candidate in ["python3", "/usr/bin/python3"] where (try? run([candidate, "-c", "import Xlib"]))?.status == 0 {
            return candidate
        }
        if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("python3-xlib is not installed; run make deps") }
        throw XCTSkip("python3-xlib is not installed; run make deps")
    }
}

struct XwaylandTestError: Error, CustomStringConvertible {
    let description: String
}
