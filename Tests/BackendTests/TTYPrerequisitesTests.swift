@testable import Backends
import XCTest

/// The `--backend drm` start-up check with plain values: which sentence each machine gets.
final class TTYPrerequisitesTests: XCTestCase {
    private func machine(cards: [String] = ["/dev/dri/card0"], seatd: Bool = false, logind: Bool = false,
                         root: Bool = false, vt: Bool = false, input: Bool = true) -> TTYPrerequisites {
        TTYPrerequisites(cards: cards, seatdSocket: seatd, logindSession: logind, isRoot: root,
                         onVirtualTerminal: vt, inputDevices: input)
    }

    func testRootWithoutAVirtualTerminalHasNoSeat() {
        // This machine and CI: root in a container, no VT, no seatd, no logind, no GPU.
        let here = machine(cards: [], root: true, vt: false, input: false)
        XCTAssertFalse(here.hasSeat)
        XCTAssertEqual(here.missing.count, 3)
        XCTAssertTrue(here.missing[0].hasPrefix("no DRM device"), here.missing[0])
        XCTAssertEqual(here.missing[1], TTYPrerequisites.noSeat)
        XCTAssertTrue(here.missing[1].contains("no logind session or seatd") && here.missing[1].contains("start seatd"))
        XCTAssertTrue(here.missing[2].hasPrefix("no input devices"))
    }

    func testEachLibseatBackendIsASeat() {
        XCTAssertTrue(machine(seatd: true).hasSeat, "seatd's socket")
        XCTAssertTrue(machine(logind: true).hasSeat, "a logind session")
        XCTAssertTrue(machine(root: true, vt: true).hasSeat, "libseat's builtin backend: root on a VT")
        XCTAssertFalse(machine(root: false, vt: true).hasSeat, "a user on a VT needs seatd or logind")
        XCTAssertEqual(machine(seatd: true).missing, [], "a complete machine starts")
    }

    func testVirtualConsolesAreTellingFromSerialPortsAndPseudoTerminals() {
        func dev(_ major: UInt64, _ minor: UInt64) -> dev_t { dev_t((major << 8) | (minor & 0xff) | ((minor & ~0xff) << 12)) }
        XCTAssertTrue(TTYPrerequisites.isVirtualConsole(dev(4, 1)), "/dev/tty1")
        XCTAssertTrue(TTYPrerequisites.isVirtualConsole(dev(4, 63)))
        XCTAssertFalse(TTYPrerequisites.isVirtualConsole(dev(4, 0)), "/dev/tty0 is the current console, not one")
        XCTAssertFalse(TTYPrerequisites.isVirtualConsole(dev(4, 64)), "/dev/ttyS0")
        XCTAssertFalse(TTYPrerequisites.isVirtualConsole(dev(136, 2)), "/dev/pts/2")
    }
}
