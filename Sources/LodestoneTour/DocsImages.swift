import Foundation
import LodestoneSystem

extension DemoTour {
    /// The demo's pictures in `docs/` (README.md, docs/demo.md), cut from a
    /// tour's captures: the whole window at half size, and four panels at full
    /// size, and the text area while a pen writes in it. Each stays well under 150 KB.
    public static func writeDocsImages(_ results: [StepResult], to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func capture(_ name: String) throws -> String {
            guard let r = results.first(where: { $0.step.name == name }) else {
                throw SystemError("the tour has no step '\(name)'")
            }
            return r.path
        }
        try ContactSheet.crop(capture("icon-lift"), x: 0, y: 0, width: 1280, height: 800, scale: 0.5,
                              to: directory + "/demo-overview.png")
        try ContactSheet.crop(capture("drop-unavailable"), x: 440, y: 346, width: 400, height: 186,
                              to: directory + "/demo-drop.png")
        try ContactSheet.crop(capture("split-drag"), x: 20, y: 346, width: 400, height: 186,
                              to: directory + "/demo-resize.png")
        try ContactSheet.crop(capture("band"), x: 860, y: 346, width: 400, height: 186,
                              to: directory + "/demo-band.png")
        try ContactSheet.crop(capture("pencil-tilt"), x: 440, y: 548, width: 820, height: 176,
                              to: directory + "/demo-pencil.png")
        // Scribble (docs/scribble.md): the ink below the text area's last line, then the word typed.
        for step in ["scribble-ink", "scribble-typed"] {
            try ContactSheet.crop(capture(step), x: 860, y: 76, width: 400, height: 254, to: directory + "/demo-\(step).png")
        }
    }
}
