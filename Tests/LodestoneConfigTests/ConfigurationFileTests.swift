import LodestoneCompositor
import LodestoneConfig
import AdaptivePointerEngine
import Foundation
import XCTest

/// config.toml: each key read into the settings, and bad files refused with the key and line.
final class ConfigurationFileTests: XCTestCase {
    private func parse(_ text: String) throws -> Configuration { try ConfigurationFile.parse(text, file: "config.toml") }

    /// The error a bad file gives, or a failure when it is accepted.
    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigurationError? {
        do {
            _ = try ConfigurationFile.parse(text, file: "config.toml")
            XCTFail("accepted:\n\(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testAnEmptyFileGivesTheDefaults() throws {
        XCTAssertEqual(try parse(""), Configuration())
        XCTAssertEqual(try parse("# only a comment\n\n[appearance]\n"), Configuration())
    }

    func testTopLevelKeys() throws {
        let c = try parse("pointer = \"client\"\nlegacy-apps = \"off\"\n")
        XCTAssertEqual(c.pointerMode, .client)
        XCTAssertEqual(c.legacyApps, .off)
    }

    func testSessionKeys() throws {
        XCTAssertEqual(try parse("").session, SessionSettings())
        let c = try parse("[session]\nstartup = [\"waybar\", \"exec mako\"]\nterminal = \"foot --server\"\n")
        XCTAssertEqual(c.session.startup, ["waybar", "exec mako"])
        XCTAssertEqual(c.session.terminal, "foot --server")
        XCTAssertEqual(try parse("[session]\nstartup = []\n").session.startup, [])
        XCTAssertEqual(refusal("[session]\nstartup = [\"a\", true]\n")?.key, "session.startup.1")
        XCTAssertEqual(refusal("[session]\nstartup = \"waybar\"\n")?.key, "session.startup")
        XCTAssertEqual(refusal("[session]\nterminal = \"\"\n")?.key, "session.terminal")
    }

    func testScribbleKeys() throws {
        XCTAssertEqual(try parse("").scribble, ScribbleSettings())
        XCTAssertEqual(try parse("").scribble.languages, ["en"])
        let c = try parse("[scribble]\nlanguages = [\"ja\", \"en\"]\npause = 1.5\nenabled = false\n")
        XCTAssertEqual(c.scribble.languages, ["ja", "en"])
        XCTAssertEqual(c.scribble.pause, 1.5)
        XCTAssertFalse(c.scribble.enabled)
        let unknown = refusal("[scribble]\nlanguages = [\"en\", \"fr\"]\n")
        XCTAssertEqual(unknown?.key, "scribble.languages.1")
        XCTAssertTrue(unknown?.reason.contains("\"en\", \"ja\", \"zh\"") ?? false, unknown?.reason ?? "")
        XCTAssertEqual(refusal("[scribble]\nlanguages = []\n")?.key, "scribble.languages")
        XCTAssertEqual(refusal("[scribble]\nlanguages = \"en\"\n")?.key, "scribble.languages")
        XCTAssertEqual(refusal("[scribble]\npause = 0.05\n")?.key, "scribble.pause")
        XCTAssertEqual(refusal("[scribble]\nhandwriting = true\n")?.key, "scribble.handwriting")
    }

    func testKeyboardKeys() throws {
        XCTAssertEqual(try parse("").keyboard, KeyboardSettings(), "nil: the parent's or 25 after 600")
        let c = try parse("[keyboard]\nrepeat-rate = 0\nrepeat-delay = 250\n")
        XCTAssertEqual(c.keyboard.repeatRate, 0)
        XCTAssertEqual(c.keyboard.repeatDelay, 250)
        XCTAssertEqual(refusal("[keyboard]\nrepeat-rate = -1\n")?.key, "keyboard.repeat-rate")
        XCTAssertEqual(refusal("[keyboard]\nrepeat-rate = 25.5\n")?.key, "keyboard.repeat-rate")
        XCTAssertEqual(refusal("[keyboard]\nrepeat-rate = 1001\n")?.key, "keyboard.repeat-rate")
        XCTAssertEqual(refusal("[keyboard]\nrepeat-delay = 0\n")?.key, "keyboard.repeat-delay")
        XCTAssertEqual(refusal("[keyboard]\nrepeat-delay = \"fast\"\n")?.key, "keyboard.repeat-delay")
        XCTAssertEqual(refusal("[keyboard]\nrepeat = 1\n")?.key, "keyboard.repeat")
    }

    func testMaxRenderTime() throws {
        XCTAssertEqual(try parse("").maxRenderTime, .auto, "auto by default")
        XCTAssertEqual(try parse("max-render-time = \"off\"\n").maxRenderTime, .off)
        XCTAssertEqual(try parse("max-render-time = \"auto\"\n").maxRenderTime, .auto)
        XCTAssertEqual(try parse("max-render-time = 4\n").maxRenderTime, .milliseconds(4))
        XCTAssertEqual(try parse("max-render-time = 2.5\n").maxRenderTime, .milliseconds(2.5))
        XCTAssertNotNil(refusal("max-render-time = 0\n"))
        XCTAssertNotNil(refusal("max-render-time = \"soon\"\n"))
        var flag = Overrides()
        flag.maxRenderTime = .off
        XCTAssertEqual(flag.apply(to: try parse("max-render-time = \"auto\"\n")).maxRenderTime, .off, "the flag wins")
    }

    func testAppearanceKeys() throws {
        let c = try parse("""
            [appearance]
            size = 2.5
            color = "#ff000080"
            border = true
            border-width = 3
            border-color = "#00ff00"
            increase-contrast = true
            """)
        XCTAssertEqual(c.pointer.sizeMultiplier, 2.5)
        XCTAssertEqual(c.pointer.color, PointerColor(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
        XCTAssertTrue(c.pointer.showsBorder)
        XCTAssertEqual(c.pointer.border.width, 3)
        XCTAssertEqual(c.pointer.border.color, PointerColor(red: 0, green: 1, blue: 0))
        XCTAssertTrue(c.pointer.increaseContrast)
    }

    /// appearance.style: the arrow turns magnetism off unless behaviour.magnetism (or the
    /// flag) says otherwise; a bad value names the choices.
    func testStyleAndTheMagnetismItImplies() throws {
        XCTAssertEqual(try parse("").pointer.style, .circle)
        XCTAssertTrue(try parse("").pointer.magnetismEnabled)
        let arrow = try parse("[appearance]\nstyle = \"arrow\"\n")
        XCTAssertEqual(arrow.pointer.style, .arrow)
        XCTAssertFalse(arrow.pointer.magnetismEnabled, "off by default in the arrow style")
        XCTAssertTrue(try parse("[appearance]\nstyle = \"arrow\"\n[behaviour]\nmagnetism = true\n").pointer.magnetismEnabled)
        XCTAssertTrue(try parse("[behaviour]\nmagnetism = true\n[appearance]\nstyle = \"arrow\"\n").pointer.magnetismEnabled,
                      "whatever the order of the keys")
        var flags = Overrides()
        flags.style = .arrow
        XCTAssertFalse(flags.apply(to: try parse("")).pointer.magnetismEnabled)
        flags.magnetism = true
        XCTAssertTrue(flags.apply(to: try parse("")).pointer.magnetismEnabled)
        flags = Overrides()
        flags.style = .circle
        XCTAssertEqual(flags.apply(to: arrow).pointer.style, .circle, "the flag wins over the file")
        let bad = refusal("[appearance]\nstyle = \"cross\"\n")
        XCTAssertEqual(bad?.key, "appearance.style")
        XCTAssertEqual(bad?.line, 2)
        XCTAssertEqual(bad?.reason, "must be \"circle\" or \"arrow\", not the string \"cross\"")
    }

    func testIntegerSizeAndNamedColours() throws {
        XCTAssertEqual(try parse("[appearance]\nsize = 3").pointer.sizeMultiplier, 3)
        XCTAssertEqual(try parse("[appearance]\ncolor = \"black\"").pointer.color, .black)
        XCTAssertEqual(try parse("[appearance]\ncolor = \"standard\"").pointer.color, .standard)
        XCTAssertEqual(try parse("appearance.color = \"white\"").pointer.color, .white)
    }

    func testBehaviourKeys() throws {
        let c = try parse("""
            [behaviour]
            reduce-motion = true
            magnetism = false
            auto-hide = false
            mouse-auto-hide-delay = 12
            trackpad-auto-hide-delay = 1.5
            shake-to-find = false
            shake-magnification = 5
            """)
        XCTAssertFalse(c.pointer.shakeToFind)
        XCTAssertEqual(c.pointer.shakeMagnification, 5)
        XCTAssertTrue(c.pointer.reduceMotion)
        XCTAssertFalse(c.pointer.magnetismEnabled)
        XCTAssertFalse(c.pointer.autoHide)
        XCTAssertEqual(c.pointer.tuning.mouseAutoHideDelay, 12)
        XCTAssertEqual(c.pointer.tuning.trackpadAutoHideDelay, 1.5)
    }

    func testTuningNumbersAndSprings() throws {
        let c = try parse("""
            [tuning]
            pointer-diameter = 24
            region-exit-delay = 0.1
            flick-cone-angle = 40
            text-selecting-hysteresis = 0.3
            shape-spring = { response = 0.5, damping-ratio = 0.7 }
            press-spring = { response = 0.2 }
            """)
        var expected = PointerTuning()
        expected.pointerDiameter = 24
        expected.regionExitDelay = 0.1
        expected.flickConeAngle = 40
        expected.textSelectingHysteresis = 0.3
        expected.shapeSpring = Spring(response: 0.5, dampingRatio: 0.7)
        expected.pressSpring.response = 0.2
        XCTAssertEqual(c.pointer.tuning, expected)
    }

    /// Every tuning key sets its own field: each one, set to a value inside its range that
    /// differs from the default, changes the settings.
    func testEveryTuningKeyTakesEffect() throws {
        let names = ["pointer-diameter", "pressed-scale", "beam-width", "beam-minimum-length", "beam-maximum-length",
                     "platter-growth", "parallax", "slip-factor", "maximum-slip", "lift-growth", "lift-pressed-scale",
                     "hover-growth", "specular-minimum-opacity", "specular-maximum-opacity", "shadow-opacity",
                     "shadow-radius", "shadow-offset-y", "tint-opacity", "flick-speed-threshold", "velocity-smoothing",
                     "flick-search-radius", "flick-deceleration-rate", "flick-cone-angle", "region-exit-delay",
                     "bar-gap-tolerance", "accessory-size", "accessory-gap", "annotation-character-width",
                     "annotation-height", "annotation-gap", "band-activation-distance", "large-element-side",
                     "text-hysteresis", "text-selecting-hysteresis"]
        var seen = Set<PointerTuning>()
        for name in names {
            // The first of these inside the key's range that is not its default.
            let candidates = [0.41, 0.95, 0.97, 5.5, 41.0].compactMap { try? parse("[tuning]\n\(name) = \($0)").pointer.tuning }.filter { $0 != PointerTuning() }
            let tuning = try XCTUnwrap(candidates.first, "\(name): no candidate value accepted")
            XCTAssertNotEqual(tuning, PointerTuning(), name)
            seen.insert(tuning)
        }
        XCTAssertEqual(seen.count, names.count, "two keys set the same field")
        for spring in ["shape", "custom-morph", "accessory", "text", "mouse-recenter", "trackpad-recenter", "press", "visibility", "quick-fade"] {
            let tuning = try parse("[tuning]\n\(spring)-spring = { response = 0.77 }").pointer.tuning
            XCTAssertNotEqual(tuning, PointerTuning(), spring)
            seen.insert(tuning)
        }
        XCTAssertEqual(seen.count, names.count + 9, "two springs set the same field")
    }

    // MARK: Bad files

    func testSyntaxErrorNamesTheLine() throws {
        let error = try XCTUnwrap(refusal("[appearance]\nsize = 2\ncolor = \"#fff\n"))
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.column, 14)
        XCTAssertTrue(error.description.hasPrefix("config.toml:3:14: syntax error"), error.description)
    }

    func testUnknownKeyNamesKeyAndLine() throws {
        let error = try XCTUnwrap(refusal("[appearance]\nsize = 2\n\n[behaviour]\nmagnetsim = false\n"))
        XCTAssertEqual(error.line, 5)
        XCTAssertEqual(error.key, "behaviour.magnetsim")
        XCTAssertTrue(error.description.contains("config.toml:5: behaviour.magnetsim: unknown key"), error.description)
        XCTAssertTrue(error.description.contains("magnetism"), "lists the keys there are: \(error.description)")

        let top = try XCTUnwrap(refusal("pointer = \"adaptive\"\nsize = 2\n"))
        XCTAssertEqual(top.key, "size")
        XCTAssertEqual(top.line, 2)
        let table = try XCTUnwrap(refusal("[apperance]\nsize = 2\n"))
        XCTAssertEqual(table.key, "apperance")
        XCTAssertEqual(table.line, 1)
    }

    func testWrongTypeNamesKeyAndLine() throws {
        let error = try XCTUnwrap(refusal("[behaviour]\nreduce-motion = \"yes\"\n"))
        XCTAssertEqual(error.description, "config.toml:2: behaviour.reduce-motion: must be true or false, not the string \"yes\"")
        let size = try XCTUnwrap(refusal("[appearance]\nsize = true\n"))
        XCTAssertEqual(size.key, "appearance.size")
        XCTAssertTrue(size.reason.contains("must be a number from 1 to 4"), size.reason)
        let colour = try XCTUnwrap(refusal("[appearance]\ncolor = \"#12345\"\n"))
        XCTAssertEqual(colour.line, 2)
        XCTAssertTrue(colour.reason.contains("#RRGGBB"), colour.reason)
        let mode = try XCTUnwrap(refusal("legacy-apps = \"sometimes\""))
        XCTAssertTrue(mode.reason.contains("\"adaptive\" or \"shapes\" or \"off\""), mode.reason)
        let notTable = try XCTUnwrap(refusal("appearance = 3"))
        XCTAssertEqual(notTable.key, "appearance")
    }

    func testOutOfRangeNamesKeyAndLine() throws {
        let error = try XCTUnwrap(refusal("# big\n[appearance]\nsize = 7\n"))
        XCTAssertEqual(error.description, "config.toml:3: appearance.size: 7 is out of range (1 to 4)")
        let delay = try XCTUnwrap(refusal("[behaviour]\nmouse-auto-hide-delay = 0\n"))
        XCTAssertEqual(delay.line, 2)
        let shake = try XCTUnwrap(refusal("[behaviour]\nshake-magnification = 9\n"))
        XCTAssertEqual(shake.description, "config.toml:2: behaviour.shake-magnification: 9 is out of range (1 to 8)")
        let spring = try XCTUnwrap(refusal("[tuning]\nbeam-width = 3\ntext-spring = { response = 0.3, damping-ratio = 9 }\n"))
        XCTAssertEqual(spring.key, "tuning.text-spring.damping-ratio")
        XCTAssertEqual(spring.line, 3)
    }

    /// Several faults: the first in the file is the one reported.
    func testTheFirstFaultIsReported() throws {
        let error = try XCTUnwrap(refusal("[behaviour]\nmagnetism = 1\n[appearance]\nsize = 9\n"))
        XCTAssertEqual(error.line, 2)
    }

    // MARK: Paths and flags

    func testDefaultPathFollowsXDGConfigHome() {
        XCTAssertEqual(ConfigurationFile.defaultPath { ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"][$0] }, "/x/cfg/lodestone/config.toml")
        XCTAssertEqual(ConfigurationFile.defaultPath { ["HOME": "/home/u"][$0] }, "/home/u/.config/lodestone/config.toml")
        // A relative XDG_CONFIG_HOME is invalid (XDG Base Directory spec): ignored.
        XCTAssertEqual(ConfigurationFile.defaultPath { ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"][$0] }, "/home/u/.config/lodestone/config.toml")
    }

    func testMissingFileIsNoConfiguration() throws {
        XCTAssertNil(try ConfigurationFile.load("/nonexistent/lodestone/config.toml"))
    }

    func testFlagsOverrideTheFile() throws {
        var o = Overrides()
        o.size = 2
        o.magnetism = false
        o.autoHideDelay = 5
        let c = o.apply(to: try parse("[appearance]\nsize = 3\nborder = true\n[behaviour]\nmagnetism = true\n"))
        XCTAssertEqual(c.pointer.sizeMultiplier, 2)
        XCTAssertTrue(c.pointer.showsBorder, "what the flags leave is the file's")
        XCTAssertFalse(c.pointer.magnetismEnabled)
        XCTAssertEqual(c.pointer.tuning.mouseAutoHideDelay, 5)
        XCTAssertEqual(c.pointer.tuning.trackpadAutoHideDelay, 5)
    }
}

/// docs/configuration.md documents every key, and its example file is a good one.
final class ConfigurationDocumentationTests: XCTestCase {
    private var page: String {
        get throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            return try String(contentsOf: root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        }
    }

    func testEveryKeyIsInTheConfigurationPage() throws {
        let text = try page
        for name in ConfigurationFile.keyNames {
            let short = name.split(separator: ".").last.map(String.init) ?? name
            XCTAssertTrue(text.contains("`\(name)`") || text.contains("`\(short)`"), "docs/configuration.md does not document \(name)")
        }
    }

    func testTheConfigurationPageExampleParses() throws {
        let text = try page
        let start = try XCTUnwrap(text.range(of: "```toml\n"))
        let end = try XCTUnwrap(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let c = try ConfigurationFile.parse(String(text[start.upperBound..<end.lowerBound]), file: "docs/configuration.md")
        XCTAssertEqual(c.pointer.sizeMultiplier, 1.5)
        XCTAssertTrue(c.pointer.reduceMotion)
    }
}
