@testable import LodestoneCompositor
import XCTest

/// A command Lodestone starts gets the switch its toolkit needs to publish for accessibility:
/// Chromium its `--force-renderer-accessibility` (org.a11y.Status does not reach it), right
/// after the program; every other program is started as given.
final class AccessibilitySwitchesTests: XCTestCase {
    func testChromiumGetsItsSwitchRightAfterTheProgram() {
        XCTAssertEqual(AccessibilitySwitches.command(["chromium", "file:///page.html"]),
                       ["chromium", "--force-renderer-accessibility", "file:///page.html"])
        XCTAssertEqual(AccessibilitySwitches.command(["/usr/bin/google-chrome", "--incognito"]),
                       ["/usr/bin/google-chrome", "--force-renderer-accessibility", "--incognito"])
    }

    func testASwitchAlreadyGivenIsNotRepeated() {
        let command = ["chromium", "--force-renderer-accessibility=complete"]
        XCTAssertEqual(AccessibilitySwitches.command(command), command)
    }

    func testOtherProgramsAreStartedAsGiven() {
        for command in [["firefox-esr", "-no-remote"], ["sh", "-c", "chromium"], ["foot"], ["chromium-wrapper.sh"], []] {
            XCTAssertEqual(AccessibilitySwitches.command(command), command)
        }
    }
}
