import LodestoneModes
import PointerAdaptation
import AdaptivePointerEngine

/// One key of `config.toml`: its name, what it sets, and how its value is checked.
/// docs/configuration.md's table lists the same keys with their defaults.
struct ConfigurationKey {
    let name: String
    let apply: (TOMLNode, inout Configuration) throws -> Void

    /// Why a value is refused; `subkey` continues the key's path inside an inline table.
    struct Problem: Error {
        var subkey: [String] = []
        var reason: String
    }

    /// `pointer` and `legacy-apps`, as the flags of the same names.
    static var topLevel: [ConfigurationKey] {
        [
            choice("pointer", \.pointerMode),
            choice("legacy-apps", \.legacyApps),
            ConfigurationKey(name: "max-render-time") { value, c in
                let given = value.string ?? value.number.map { "\($0)" }
                guard let given, let m = MaxRenderTime(argument: given) else {
                    throw Problem(reason: "must be \"auto\", \"off\" or a number of milliseconds above 0, not \(value.description)")
                }
                c.maxRenderTime = m
            },
        ]
    }

    /// `[appearance]`, `[behaviour]`, `[tuning]`, `[session]`, `[keyboard]` and `[scribble]`.
    static var tables: [String: [ConfigurationKey]] {
        [
            "appearance": [
                choice("style", \.pointer.style),
                number("size", \.pointer.sizeMultiplier, 1...4),
                color("color", \.pointer.color),
                bool("border", \.pointer.showsBorder),
                number("border-width", \.pointer.border.width, 0...8),
                color("border-color", \.pointer.border.color),
                bool("increase-contrast", \.pointer.increaseContrast),
            ],
            "behaviour": [
                bool("reduce-motion", \.pointer.reduceMotion),
                bool("magnetism", \.pointer.magnetismEnabled),
                bool("auto-hide", \.pointer.autoHide),
                bool("shake-to-find", \.pointer.shakeToFind),
                number("shake-magnification", \.pointer.shakeMagnification, 1...8),
                number("mouse-auto-hide-delay", \.pointer.tuning.mouseAutoHideDelay, 0.5...3600),
                number("trackpad-auto-hide-delay", \.pointer.tuning.trackpadAutoHideDelay, 0.5...3600),
            ],
            "tuning": tuning,
            "session": [
                ConfigurationKey(name: "startup") { value, c in
                    guard case .array(let items) = value else {
                        throw Problem(reason: "must be an array of commands like [\"waybar\", \"mako\"], not \(value.description)")
                    }
                    c.session.startup = try items.enumerated().map { i, item in
                        guard let command = item.string, !command.allSatisfy(\.isWhitespace) else {
                            throw Problem(subkey: ["\(i)"], reason: "must be a command (a non-empty string), not \(item.description)")
                        }
                        return command
                    }
                },
                ConfigurationKey(name: "terminal") { value, c in
                    guard let command = value.string, !command.allSatisfy(\.isWhitespace) else {
                        throw Problem(reason: "must be a command (a non-empty string) like \"foot\", not \(value.description)")
                    }
                    c.session.terminal = command
                },
            ],
            "keyboard": [
                whole("repeat-rate", \.keyboard.repeatRate, 0...1000, "characters a second (0: no repeat)"),
                whole("repeat-delay", \.keyboard.repeatDelay, 1...10_000, "milliseconds"),
            ],
            "scribble": [
                bool("enabled", \.scribble.enabled),
                ConfigurationKey(name: "languages") { value, c in
                    let known = ScribbleSettings.knownLanguages
                    guard case .array(let items) = value, !items.isEmpty else {
                        throw Problem(reason: "must be a non-empty array of languages like [\"en\", \"ja\"], not \(value.description)")
                    }
                    c.scribble.languages = try items.enumerated().map { i, item in
                        guard let language = item.string, known.contains(language) else {
                            throw Problem(subkey: ["\(i)"], reason: "must be one of \(known.map { "\"\($0)\"" }.joined(separator: ", ")), not \(item.description)")
                        }
                        return language
                    }
                },
                number("pause", \.scribble.pause, ScribbleSettings.pauseRange),
            ],
        ]
    }

    /// Every other `PointerTuning` number and spring, named in kebab-case.
    static var tuning: [ConfigurationKey] {
        let numbers: [(String, WritableKeyPath<PointerTuning, Double>, ClosedRange<Double>)] = [
            ("pointer-diameter", \.pointerDiameter, 4...100),
            ("pressed-scale", \.pressedScale, 0.5...1),
            ("beam-width", \.beamWidth, 1...20),
            ("beam-minimum-length", \.beamMinimumLength, 4...400),
            ("beam-maximum-length", \.beamMaximumLength, 4...400),
            ("platter-growth", \.platterGrowth, 0...40),
            ("parallax", \.parallax, 0...1),
            ("slip-factor", \.slipFactor, 0...1),
            ("maximum-slip", \.maximumSlip, 0...100),
            ("lift-growth", \.liftGrowth, 0...40),
            ("lift-pressed-scale", \.liftPressedScale, 0.5...1),
            ("hover-growth", \.hoverGrowth, 0...40),
            ("specular-minimum-opacity", \.specularMinimumOpacity, 0...1),
            ("specular-maximum-opacity", \.specularMaximumOpacity, 0...1),
            ("shadow-opacity", \.shadowOpacity, 0...1),
            ("shadow-radius", \.shadowRadius, 0...100),
            ("shadow-offset-y", \.shadowOffsetY, -100...100),
            ("tint-opacity", \.tintOpacity, 0...1),
            ("flick-speed-threshold", \.flickSpeedThreshold, 0...100_000),
            ("velocity-smoothing", \.velocitySmoothing, 0...1),
            ("flick-search-radius", \.flickSearchRadius, 0...1000),
            ("flick-deceleration-rate", \.flickDecelerationRate, 0.9...0.9999),
            ("flick-cone-angle", \.flickConeAngle, 0...180),
            ("region-exit-delay", \.regionExitDelay, 0...2),
            ("bar-gap-tolerance", \.barGapTolerance, 0...200),
            ("accessory-size", \.accessorySize, 1...100),
            ("accessory-gap", \.accessoryGap, 0...100),
            ("annotation-character-width", \.annotationCharacterWidth, 1...100),
            ("annotation-height", \.annotationHeight, 1...200),
            ("annotation-gap", \.annotationGap, 0...100),
            ("band-activation-distance", \.bandActivationDistance, 0...100),
            ("large-element-side", \.largeElementSide, 0...10_000),
            ("text-hysteresis", \.textHysteresis, 0...0.45),
            ("text-selecting-hysteresis", \.textSelectingHysteresis, 0...0.45),
        ]
        let springs: [(String, WritableKeyPath<PointerTuning, Spring>)] = [
            ("shape-spring", \.shapeSpring), ("custom-morph-spring", \.customMorphSpring),
            ("accessory-spring", \.accessorySpring), ("text-spring", \.textSpring),
            ("mouse-recenter-spring", \.mouseRecenterSpring), ("trackpad-recenter-spring", \.trackpadRecenterSpring),
            ("press-spring", \.pressSpring), ("visibility-spring", \.visibilitySpring),
            ("quick-fade-spring", \.quickFadeSpring),
        ]
        let root: WritableKeyPath<Configuration, PointerTuning> = \.pointer.tuning
        return numbers.map { number($0.0, root.appending(path: $0.1), $0.2) }
            + springs.map { spring($0.0, root.appending(path: $0.1)) }
    }

    // MARK: Kinds of value

    static func bool(_ name: String, _ path: WritableKeyPath<Configuration, Bool>) -> ConfigurationKey {
        ConfigurationKey(name: name) { value, c in
            guard let b = value.bool else { throw Problem(reason: "must be true or false, not \(value.description)") }
            c[keyPath: path] = b
        }
    }

    static func number(_ name: String, _ path: WritableKeyPath<Configuration, Double>, _ range: ClosedRange<Double>) -> ConfigurationKey {
        ConfigurationKey(name: name) { value, c in c[keyPath: path] = try number(value, range) }
    }

    /// A number (integer or float) within `range`.
    static func number(_ value: TOMLNode, _ range: ClosedRange<Double>) throws -> Double {
        guard let x = value.number else {
            throw Problem(reason: "must be a number from \(show(range.lowerBound)) to \(show(range.upperBound)), not \(value.description)")
        }
        guard range.contains(x) else {
            throw Problem(reason: "\(show(x)) is out of range (\(show(range.lowerBound)) to \(show(range.upperBound)))")
        }
        return x
    }

    /// A whole number within `range`, of `unit`.
    static func whole(_ name: String, _ path: WritableKeyPath<Configuration, Int32?>, _ range: ClosedRange<Int32>, _ unit: String) -> ConfigurationKey {
        ConfigurationKey(name: name) { value, c in
            guard case .integer(let n) = value, n >= Int(range.lowerBound), n <= Int(range.upperBound) else {
                throw Problem(reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound) (\(unit)), not \(value.description)")
            }
            c[keyPath: path] = Int32(n)
        }
    }

    static func color(_ name: String, _ path: WritableKeyPath<Configuration, PointerColor>) -> ConfigurationKey {
        ConfigurationKey(name: name) { value, c in
            guard let s = value.string, let color = PointerColor(configString: s) else {
                throw Problem(reason: "must be \"#RRGGBB\", \"#RRGGBBAA\", \"standard\", \"white\" or \"black\", not \(value.description)")
            }
            c[keyPath: path] = color
        }
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ path: WritableKeyPath<Configuration, T>) -> ConfigurationKey where T.RawValue == String {
        ConfigurationKey(name: name) { value, c in
            let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            guard let s = value.string, let v = T(rawValue: s) else { throw Problem(reason: "must be \(names), not \(value.description)") }
            c[keyPath: path] = v
        }
    }

    /// `{ response = SECONDS, damping-ratio = RATIO }`; either may be left out.
    static func spring(_ name: String, _ path: WritableKeyPath<Configuration, Spring>) -> ConfigurationKey {
        ConfigurationKey(name: name) { value, c in
            guard let table = value.table else {
                throw Problem(reason: "must be a table like { response = 0.3, damping-ratio = 1 }, not \(value.description)")
            }
            var spring = c[keyPath: path]
            for (key, inner) in table.map({ ($0.key, $0.value) }) {
                do {
                    switch key {
                    case "response": spring.response = try number(inner, 0.01...5)
                    case "damping-ratio": spring.dampingRatio = try number(inner, 0...4)
                    default: throw Problem(reason: "unknown key; a spring has response, damping-ratio")
                    }
                } catch var p as Problem {
                    p.subkey = [key]
                    throw p
                }
            }
            c[keyPath: path] = spring
        }
    }

    private static func show(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
