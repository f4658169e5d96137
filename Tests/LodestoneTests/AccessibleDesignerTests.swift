import Foundation
import LodestoneTesting
import XCTest

/// Qt 6 Designer adapts with `QT_LINUX_ACCESSIBILITY_ALWAYS_ON` unset (issue 27): Lodestone
/// switched `org.a11y.Status.IsEnabled` on before it started. Designer opens its "New Form"
/// dialog over its main window at once: two toplevels of one app, each matched to its own
/// AT-SPI frame. The dialog's buttons are highlighted, and so are the main window's tool and
/// menu bar items beside the dialog.
final class AccessibleDesignerTests: XCTestCase {
    static let designer = "/usr/lib/qt6/bin/designer"

    /// The distinct highlighted (or lifted) elements met on a grid over `area`, each by its
    /// platter's middle (a platter met again, moved up to 15 px by parallax, is one element),
    /// skipping points inside `except`.
    private func highlights(_ f: AdaptiveFixture, in area: (x: Int32, y: Int32, width: Int32, height: Int32), step: Double = 12,
                            except: TestControl.WindowState? = nil, until enough: Int) throws -> [(Double, Double)] {
        var found: [(Double, Double)] = []
        var platters: [(x: Double, y: Double, width: Double, height: Double)] = []
        for y in stride(from: Double(area.y) + 4, to: Double(area.y + area.height) - 4, by: step) {
            for x in stride(from: Double(area.x) + 4, to: Double(area.x + area.width) - 4, by: step) {
                if let e = except, x >= Double(e.x), x < Double(e.x + e.width), y >= Double(e.y), y < Double(e.y + e.height) { continue }
                let s = try f.move(to: x, y, settle: 300)
                // The element's platter, whole, in the area (and not in `except`): its own, not a neighbour's.
                guard s.targeted, s.effect == .highlight || s.effect == .lift,
                      s.x >= Double(area.x), s.y >= Double(area.y), s.x + s.width <= Double(area.x + area.width), s.y + s.height <= Double(area.y + area.height) else { continue }
                if let e = except, s.x + s.width > Double(e.x), s.x < Double(e.x + e.width), s.y + s.height > Double(e.y), s.y < Double(e.y + e.height) { continue }
                // One element's platter, wherever parallax puts it, holds the middle of the next sample's.
                if !platters.contains(where: { s.midX > $0.x - 15 && s.midX < $0.x + $0.width + 15 && s.midY > $0.y - 15 && s.midY < $0.y + $0.height + 15 }) {
                    platters.append((s.x, s.y, s.width, s.height))
                    found.append((s.midX, s.midY))
                }
                if found.count >= enough { return found }
            }
        }
        return found
    }

    func testDesignerAndItsNewFormDialogAdaptWithoutAVariable() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.designer) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { return XCTFail("\(Self.designer) is not installed; run make deps") }
            throw XCTSkip("\(Self.designer) is not installed; run make deps")
        }
        try requireAccessibilityBus()
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let f = try AdaptiveFixture(size: "1600x1000", environment: bus.environment)
        try f.session.launch(["-u", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON", Self.designer],
                             environment: ["QT_QPA_PLATFORM": "wayland"].merging(bus.environment) { $1 })
        let dialog = try f.session.waitForWindow(nil, timeout: 60) { $0.title.contains("New Form") }
        let windows = try f.control.windows()
        let main = try XCTUnwrap(windows.first { $0.title.contains("Designer") && !$0.title.contains("New Form") }, "Designer's main window: \(windows)")
        // The geometry comes from the bus, on the real loop: the grid is walked until it is in.
        var inDialog: [(Double, Double)] = []
        _ = try f.session.wait(timeout: 60) {
            inDialog = try highlights(f, in: (dialog.x, dialog.y, dialog.width, dialog.height), until: 2)
            return inDialog.count >= 2
        }
        XCTAssertGreaterThanOrEqual(inDialog.count, 2, "the New Form dialog's buttons: \(inDialog)\n\(f.session.log.suffix(3000))")
        // The main window beside and above the dialog: its menu and tool bars.
        let inMain = try highlights(f, in: (main.x, main.y, main.width, min(main.height, 120)), except: dialog, until: 2)
        XCTAssertGreaterThanOrEqual(inMain.count, 2, "the main window's bars: \(inMain)\n\(f.session.log.suffix(3000))")
        print("Designer: highlights in the dialog at \(inDialog), in the main window's bars at \(inMain)")
        XCTAssertFalse(f.session.log.contains(" error "), f.session.log)
    }
}
