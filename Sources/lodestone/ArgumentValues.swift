import ArgumentParser
import AdaptivePointerEngine
import LodestoneCompositor
import LodestoneConfig
import Logging

/// WIDTHxHEIGHT on the command line.
struct OutputSize: ExpressibleByArgument {
    var width: Int32, height: Int32

    init(width: Int32, height: Int32) { self.width = width; self.height = height }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int32(parts[0]), let h = Int32(parts[1]), (16...16384).contains(w), (16...16384).contains(h) else { return nil }
        width = w; height = h
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

extension PointerMode: ExpressibleByArgument {}
extension LegacyApps: ExpressibleByArgument {}
extension PointerSettings.Style: ExpressibleByArgument {}
extension PointerColor: ExpressibleByArgument {
    public init?(argument: String) { self.init(configString: argument) }
}
