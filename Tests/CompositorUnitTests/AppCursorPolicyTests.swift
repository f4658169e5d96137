import AdaptivePointerEngine
import Logging
import PointerAdaptation
import Rendering
import XCTest

/// The app-cursor decision both hosts run (Lodestone's seat, the C library's adapter), on its
/// own: each rule with the inputs pushed as a host pushes them. CursorShapeTests checks it
/// through Lodestone's clients and c-api/tests/pointer-test.c through the adapter.
final class AppCursorPolicyTests: XCTestCase {
    /// Over an app that declares no regions, in `mode` and `legacyApps`, with `cursor`.
    func over(_ cursor: AppCursor, mode: PointerMode = .adaptive, legacyApps: LegacyApps = .adaptive) -> AppCursorPolicy {
        var p = AppCursorPolicy(mode: mode, legacyApps: legacyApps)
        p.overApp = true
        p.cursor = cursor
        return p
    }

    /// A theme with every image but `missing`'s.
    func source(_ p: AppCursorPolicy, missing: Set<CursorName> = []) -> PointerSource {
        p.source(themeHasImage: { !missing.contains($0) })
    }

    func testNamesWithAnAdaptiveFormTakeItAndTheOthersShowTheThemesImage() {
        XCTAssertEqual(source(over(.named(.text))), .adaptive)
        XCTAssertEqual(over(.named(.text)).form, CursorName.text.adaptiveForm)
        XCTAssertEqual(over(.image(.ewResize)).form, CursorName.ewResize.adaptiveForm, "a recognised theme image reads as its name")
        XCTAssertEqual(source(over(.named(.help))), .standardCursor(.help))
        XCTAssertEqual(over(.named(.help)).form, .circle)
        XCTAssertEqual(source(over(.named(.help)), missing: [.help]), .adaptive, "no theme has it: the circle")
    }

    func testAnImageThatIsNoThemeCursorShowsAsTheAppDrewItAndAHiddenCursorHidesTheCircle() {
        XCTAssertEqual(source(over(.image(nil))), .clientImage)
        XCTAssertEqual(over(.image(nil)).form, .circle)
        XCTAssertEqual(source(over(.hidden)), .adaptive)
        XCTAssertEqual(over(.hidden).form, .hidden)
        XCTAssertEqual(source(over(.unset)), .adaptive)
        XCTAssertEqual(over(.unset).form, .circle)
    }

    func testDeclaredRegionsWinAndNoAppMeansTheCircle() {
        var declared = over(.image(nil))
        declared.appDeclaresRegions = true
        XCTAssertEqual(source(declared), .adaptive)
        var nowhere = over(.named(.text))
        nowhere.overApp = false
        XCTAssertEqual(nowhere.form, .circle)
        XCTAssertEqual(source(nowhere), .adaptive)
    }

    func testLegacyAppsOffReadsNothingAndShapesStillReadsNames() {
        let off = over(.named(.text), legacyApps: .off)
        XCTAssertFalse(off.readsCursorNames)
        XCTAssertEqual(off.form, .circle)
        XCTAssertEqual(source(over(.image(nil), legacyApps: .off)), .adaptive, "off: the circle even over an app's own image")
        XCTAssertEqual(over(.named(.text), legacyApps: .shapes).form, CursorName.text.adaptiveForm)
    }

    func testClientModeShowsImagesAndTheThemesImageForAShape() {
        XCTAssertFalse(over(.image(.text), mode: .client).readsCursorNames)
        XCTAssertEqual(source(over(.image(.text), mode: .client)), .clientImage)
        XCTAssertEqual(source(over(.named(.text), mode: .client)), .standardCursor(.text))
        XCTAssertEqual(source(over(.named(.text), mode: .client), missing: [.text]), .adaptive)
        XCTAssertEqual(over(.named(.text), mode: .client).form, .circle)
    }

    func testADragSaysWhatADropWouldDoWhateverTheAppsCursor() {
        var drag = over(.image(nil))
        drag.dragCursor = .copy
        XCTAssertEqual(source(drag), .adaptive)
        XCTAssertEqual(drag.form, CursorName.copy.adaptiveForm)
        drag.appDeclaresRegions = true
        XCTAssertEqual(drag.form, CursorName.copy.adaptiveForm, "over declared regions too")
        drag.mode = .client
        XCTAssertEqual(source(drag), .standardCursor(.copy))
    }
}

/// The theme images an app's cursor is recognised by (`CursorThemes.name(of:)`), read from the
/// themes installed here. GTK 4 without cursor settings draws the "default" theme at 32
/// (Breeze's 48×48 images): the C library's adapter reads that size beside XCURSOR_SIZE's.
final class CursorThemesTests: XCTestCase {
    private let log = Logger(label: "cursor-themes-test")

    /// The default theme's arrow as GTK 4 draws it with no settings.
    private func gtkDefaultArrow() throws -> Image {
        // "default" is the x-cursor-theme alternative (Breeze once make test's KDE packages are
        // in); Adwaita, which GTK depends on, where no alternative is set.
        let arrow = ["default", "Adwaita"].lazy.compactMap {
            CursorThemes.standardCursor(file: "left_ptr", theme: $0, size: CursorThemes.toolkitDefaultSize, scale: 1)
        }.first
        return try XCTUnwrap(arrow, "no cursor theme with an arrow here").image
    }

    func testAnArrowAtGTKsSizeWithoutSettingsIsRecognisedWhenThatSizeIsRead() throws {
        let arrow = try gtkDefaultArrow()
        let environment = ["XCURSOR_SIZE": "24"]
        let plain = CursorThemes(log: log, environment: environment)
        let read = CursorThemes(log: log, environment: environment, alsoSizes: [CursorThemes.toolkitDefaultSize])
        let at24 = try XCTUnwrap(CursorThemes.standardCursor(file: "left_ptr", theme: "Adwaita", size: 24, scale: 1)).image
        XCTAssertNotNil(plain.name(of: at24, scale: 1), "Adwaita's arrow at 24 is a theme cursor")
        if arrow.width != at24.width || arrow.height != at24.height {
            // Breeze here: 48×48 at 32, a size XCURSOR_SIZE's 24 does not read.
            XCTAssertNil(plain.name(of: arrow, scale: 1), "only XCURSOR_SIZE's images are read by default")
        }
        XCTAssertEqual(read.name(of: arrow, scale: 1)?.adaptiveForm, CursorName.default.adaptiveForm,
                       "the arrow at 32 is taken for the default cursor when 32 is read too")
        XCTAssertNotNil(read.name(of: at24, scale: 1), "XCURSOR_SIZE's images are still read")
    }
}
