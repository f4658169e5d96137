// lodestone-tour: the headless half of `make demo`. Starts a headless
// Lodestone (adaptive pointer, manual clock, test control) with
// lodestone-demo inside, drives the pointer through every element, checks
// each step (the same checks as DemoTourTests), and writes one PNG per step
// plus contact-sheet.png into a folder it prints.
//
//   lodestone-tour [--out DIR] [--docs DIR]
import Foundation
import LodestoneTour

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: [String] = arguments) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
if arguments.contains("--help") {
    print("usage: lodestone-tour [--out DIR] [--docs DIR]   (default DIR: out/demo)")
    exit(0)
}
let directory = URL(fileURLWithPath: option("--out") ?? "out/demo").standardizedFileURL.path

do {
    let started = Date()
    let tour = DemoTour(directory: directory)
    let nameWidth = DemoTour.script.map(\.name.count).max() ?? 0
    var failed = 0
    let results = try tour.run { r in
        let mark = r.failures.isEmpty ? "✓" : "✗"
        // One space at least after the longest step name ("drop-refused-drag" ran into its title).
        let name = r.step.name.padding(toLength: nameWidth + 1, withPad: " ", startingAt: 0)
        print(String(format: "%@ %02d ", mark, r.index) + name + r.step.title)
        for f in r.failures { print("     \(f)   [pointer: \(r.pointer)]") }
        if !r.failures.isEmpty { failed += 1 }
    }
    let sheet = directory + "/contact-sheet.png"
    try ContactSheet.write(results.map { ($0.path, String(format: "%02d  %@", $0.index, $0.step.title)) }, to: sheet)
    if let docs = option("--docs") {
        try DemoTour.writeDocsImages(results, to: docs)
        print("the pictures for README.md and docs/demo.md written to \(docs)")
    }
    print(String(format: "%d steps in %.1f s, %d failed", results.count, Date().timeIntervalSince(started), failed))
    print("tour written to \(directory) (one PNG per step, contact-sheet.png)")
    exit(failed == 0 ? 0 : 1)
} catch {
    print("lodestone-tour: \(error)")
    exit(1)
}
