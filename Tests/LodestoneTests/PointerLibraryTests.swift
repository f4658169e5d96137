import Foundation
import LodestoneTesting
import AdaptivePointerEngine
import XCTest

/// liblodestone-pointer from C: c-api/ is built with meson against the library SwiftPM built
/// beside this test bundle, and its test program (c-api/tests/pointer-test.c) runs plain, under
/// valgrind, and with its inputs replayed into the Swift engine here, frame for frame; a parent
/// project gets `dependency('lodestone-pointer')` from c-api/ as a subproject. The exported
/// symbols are checked against the committed list (c-api/lodestone-pointer.symbols).
final class PointerLibraryTests: XCTestCase {
    static let project = repositoryRoot + "/c-api"
    static let symbolList = project + "/lodestone-pointer.symbols"

    /// The folder holding liblodestone-pointer.so: where SwiftPM put this test bundle's products.
    static var libraryDirectory: String {
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [argv0, argv0.deletingLastPathComponent()] {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("liblodestone-pointer.so").path) { return dir.path }
        }
        return URL(fileURLWithPath: Session.executable).deletingLastPathComponent().path
    }

    static var library: String { libraryDirectory + "/liblodestone-pointer.so" }

    private var scratch: String!

    override func setUpWithError() throws {
        try requireTools(["meson", "ninja", "valgrind", "nm", "objcopy"], install: "apt-get install -y meson ninja-build valgrind binutils; make deps")
        guard FileManager.default.fileExists(atPath: Self.library) else {
            throw TestFailure("no liblodestone-pointer.so in \(Self.libraryDirectory): swift build builds the product")
        }
        scratch = NSTemporaryDirectory() + "lodestone-c-api-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
    }

    @discardableResult
    private func step(_ arguments: [String], environment: [String: String]? = nil) throws -> String {
        let (status, output) = try run(arguments, environment: environment)
        guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(status)):\n\(output)") }
        return output
    }

    /// Builds c-api/ against `libraryDirectory`; returns the test program's path.
    private func buildTestProgram(libraryDirectory: String = PointerLibraryTests.libraryDirectory) throws -> String {
        let build = scratch + "/build"
        // Warnings are errors here, not in c-api/ itself: a host's newer compiler must not fail
        // its build over our test program.
        try step(["meson", "setup", "-Dwerror=true", "-Dswiftpm_libdir=" + libraryDirectory, build, Self.project])
        try step(["ninja", "-C", build])
        return build + "/pointer-test"
    }

    // MARK: The C program

    func testCProgramMatchesTheSwiftEngine() throws {
        try skipUnderSanitizersForALibraryConsumer()
        let output = try step([try buildTestProgram()])
        XCTAssertTrue(output.hasSuffix("ok\n"), output)
        XCTAssertTrue(output.contains("version 0.3.0\n"), output)

        // Replay the program's inputs into a Swift engine made as the library makes one, and
        // compare every frame's numbers exactly: the boundary adds nothing and loses nothing.
        var engine = PointerEngine(outputBounds: Rect(x: 0, y: 0, width: 640, height: 480))
        _ = engine.step(to: .zero)
        try engine.regions.upsert(Region(id: RegionID(1), owner: SurfaceID(7), identifier: 42,
                                         frame: Rect(x: 200, y: 100, width: 44, height: 30), cornerRadius: 6,
                                         style: PointerStyle(effect: .highlight)))
        var frames = 0, targeted = 0, deadlines = 0
        var cEvents: [[Double]] = [], swiftEvents: [[Double]] = []
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let verb = words.first else { continue }
            if verb == "end" { break }
            guard ["motion", "relative", "button", "key", "frame", "event", "device", "warp", "outside", "lock", "hold", "pinch", "deadline"]
                .contains(verb) else { continue }
            let n = try words.dropFirst().map { word in try XCTUnwrap(Double(word), "\(line)") }
            switch verb {
            case "motion": engine.handle(.motion(to: Point(x: n[1], y: n[2])), at: Instant(seconds: n[0]))
            case "relative": engine.handle(.relativeMotion(Vector(dx: n[1], dy: n[2])), at: Instant(seconds: n[0]))
            case "button": engine.handle(.button(n[1] != 0 ? .pressed : .released), at: Instant(seconds: n[0]))
            case "key": engine.handle(.keyTyped, at: Instant(seconds: n[0]))
            case "device": engine.handle(.device(n[1] == 0 ? .mouse : .trackpad), at: Instant(seconds: n[0]))
            case "warp": engine.handle(.warp(to: Point(x: n[1], y: n[2])), at: Instant(seconds: n[0]))
            case "outside": engine.handle(.outsideOutputs(n[1] != 0), at: Instant(seconds: n[0]))
            case "lock": engine.handle(.pointerLock(n[1] != 0), at: Instant(seconds: n[0]))
            case "hold": engine.handle(.gestureHold(n[1] != 0), at: Instant(seconds: n[0]))
            case "pinch": engine.handle(.pinch(scale: n[1] > 0 ? n[1] : nil), at: Instant(seconds: n[0]))
            case "deadline":
                XCTAssertEqual(n, engine.nextDeadline.map { [1, $0.seconds] } ?? [0, -1], "the next deadline")
                deadlines += 1
            case "frame":
                let swift = Self.numbers(engine.step(to: Instant(seconds: n[0])), engine: engine)
                XCTAssertEqual(n, swift, "frame \(frames) at t=\(n[0]): C (first) and Swift differ")
                frames += 1
                if n[13] != 0 { targeted += 1 }
                engine.drainEvents { swiftEvents += Self.numbers($0) }
            case "event": cEvents.append(n)
            default: continue
            }
        }
        XCTAssertEqual(frames, 80, output)
        XCTAssertEqual(deadlines, 1)
        XCTAssertEqual(cEvents, swiftEvents, "the events clients hear")
        XCTAssertEqual(cEvents.map(\.first), [0, 1, 0], "entered, left, entered again after the warp")
        XCTAssertGreaterThan(targeted, 30, "the button targeted most frames")
    }

    /// A presentation's numbers in the order pointer-test.c's print_frame prints them.
    static func numbers(_ p: PointerPresentation, engine: PointerEngine) -> [Double] {
        let r = PointerShapeReport(p, clientCursor: false, tuning: engine.settings.tuning)
        let effect: Double
        switch p.contentEffect?.kind {
        case nil, .none?: effect = 0
        case .highlight?: effect = 1
        case .lift?: effect = 2
        case .hover?: effect = 3
        }
        let target = p.targetRegion
        return [
            p.time.seconds, Double(r.kind.rawValue), p.logicalPosition.x, p.logicalPosition.y, p.devicePosition.x, p.devicePosition.y,
            r.rect.minX, r.rect.minY, r.rect.width, r.rect.height, r.cornerRadius, r.alpha,
            effect, target == nil ? 0 : 1, p.contentEffect?.progress ?? 0, p.contentEffect?.scale ?? 1,
            Double(target?.rawValue ?? 0), Double(target.flatMap { engine.regions[$0]?.identifier } ?? 0),
            p.isVisible ? 1 : 0, p.isAnimating ? 1 : 0, Double(p.accessories.count),
            p.damage.minX, p.damage.minY, p.damage.width, p.damage.height,
        ]
    }

    /// An event's numbers as pointer-test.c prints them (locked motion is not part of the API).
    static func numbers(_ e: PointerEvent) -> [[Double]] {
        func line(_ type: Double, _ id: RegionID, _ identifier: UInt32, _ r: Rect<Global>?) -> [[Double]] {
            [[type, Double(id.rawValue), Double(identifier), r?.minX ?? 0, r?.minY ?? 0, r?.width ?? 0, r?.height ?? 0]]
        }
        switch e {
        case .entered(let id, let identifier): return line(0, id, identifier, nil)
        case .left(let id, let identifier): return line(1, id, identifier, nil)
        case .bandBegan(let id, let identifier, let r): return line(2, id, identifier, r)
        case .bandChanged(let id, let identifier, let r): return line(3, id, identifier, r)
        case .bandEnded(let id, let identifier, let r): return line(4, id, identifier, r)
        case .lockedMotion: return []
        }
    }

    func testCProgramLeaksNothingUnderValgrind() throws {
        // Under `make asan` the library needs AddressSanitizer's runtime, which valgrind cannot host.
        try skipUnderSanitizersForALibraryConsumer()
        // valgrind 3.19 (Debian 12) cannot read all of Swift's DWARF 5: run against a copy of
        // the library without debug info.
        let stripped = scratch + "/lib"
        try FileManager.default.createDirectory(atPath: stripped, withIntermediateDirectories: true)
        try step(["objcopy", "--strip-debug", Self.library, stripped + "/liblodestone-pointer.so"])
        let program = try buildTestProgram(libraryDirectory: stripped)
        // Definite and possible leaks fail (valgrind's default); the Swift runtime's own caches
        // are suppressed (see the file).
        let output = try step(["valgrind", "--leak-check=full", "--error-exitcode=1",
                               "--suppressions=" + Self.project + "/tests/swift-runtime.supp", program])
        XCTAssertTrue(output.contains("ok\n"), output)
        XCTAssertTrue(output.contains("ERROR SUMMARY: 0 errors"), output)
        XCTAssertTrue(output.contains("definitely lost: 0 bytes") || output.contains("no leaks are possible"), output)
    }

    /// A C project that says `dependency('lodestone-pointer')` gets the header and the library
    /// from c-api/ as a subproject, through the committed c-api/lodestone-pointer.wrap.
    func testParentProjectGetsTheDependencyFromTheSubproject() throws {
        try skipUnderSanitizersForALibraryConsumer()
        let parent = scratch + "/parent"
        try FileManager.default.createDirectory(atPath: parent + "/subprojects", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parent + "/subprojects/lodestone-pointer", withDestinationPath: Self.project)
        try FileManager.default.copyItem(atPath: Self.project + "/lodestone-pointer.wrap", toPath: parent + "/subprojects/lodestone-pointer.wrap")
        try """
            project('host', 'c', default_options: ['c_std=c11'])
            executable('host', 'host.c', dependencies: dependency('lodestone-pointer'))
            """.write(toFile: parent + "/meson.build", atomically: true, encoding: .utf8)
        try """
            #include <lodestone-pointer.h>
            #include <stdio.h>
            int main(void) {
                struct lodestone_pointer_engine *e = lodestone_pointer_engine_create(0, 0, 800, 600);
                struct lodestone_pointer_presentation p = { .size = sizeof p };
                lodestone_pointer_engine_step(e, 0, &p);
                printf("%d %g %g\\n", lodestone_pointer_version() == LODESTONE_POINTER_VERSION, p.logical_x, p.logical_y);
                lodestone_pointer_engine_destroy(e);
                return 0;
            }
            """.write(toFile: parent + "/host.c", atomically: true, encoding: .utf8)
        let build = scratch + "/parent-build"
        let setup = try step(["meson", "setup", "--wrap-mode=nodownload", "-Dlodestone-pointer:swiftpm_libdir=" + Self.libraryDirectory,
                              build, parent])
        XCTAssertTrue(setup.contains("Executing subproject lodestone-pointer"), setup)
        try step(["ninja", "-C", build, "host"])
        XCTAssertEqual(try step([build + "/host"]), "1 400 300\n", "the version matches and the pointer starts mid-output")
    }

    // MARK: Python

    /// Examples/python: the engine through ctypes, no Swift: the button captures the pointer,
    /// the client hears it, and the PNG the library drew shows the platter around the button.
    func testPythonCtypesExampleDrawsTheHighlightPlatter() throws {
        try skipUnderSanitizersForALibraryConsumer()
        let png = scratch + "/python.png"
        let output = try step(["python3", repositoryRoot + "/Examples/python/pointer_png.py", png],
                              environment: ["LODESTONE_POINTER_LIBRARY": Self.library, "PATH": "/usr/bin:/bin"])
        XCTAssertTrue(output.contains("liblodestone-pointer 0.3.0\n"), output)
        XCTAssertTrue(output.contains("event entered 7\n"), output)
        XCTAssertTrue(output.contains("shape rounded_rect effect highlight targeted True identifier 7"), output)
        let shot = try Screenshot(png: png)
        XCTAssertEqual([shot.width, shot.height], [320, 200])
        let background: UInt32 = 0xe8e8e8, button: UInt32 = 0x2060d0
        XCTAssertEqual(shot[10, 10], background, "far from the button nothing is drawn")
        XCTAssertLessThan(distance(shot[140, 100], button), 40, "the button shows through the translucent platter")
        // The platter reaches beyond the button's left edge (x 100): the pointer became it.
        XCTAssertGreaterThan(distance(shot[97, 100], background), 12, "no platter left of the button")
        XCTAssertEqual(shot[60, 100], background, "no circle left behind where the pointer came from")
    }

    // MARK: ABI

    /// The `lodestone_pointer_*` functions the library exports, sorted.
    func exportedSymbols() throws -> [String] {
        let (status, output) = try run(["nm", "-D", "--defined-only", Self.library])
        guard status == 0 else { throw TestFailure("nm failed: \(output)") }
        return output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "T", fields[2].hasPrefix("lodestone_pointer_") else { return nil }
            return String(fields[2])
        }.sorted()
    }

    /// The header's function declarations, name → prototype on one line.
    static func headerPrototypes() throws -> [String: String] {
        let header = try String(contentsOfFile: project + "/include/lodestone-pointer.h", encoding: .utf8)
        let regex = try NSRegularExpression(pattern: #"(?m)^[a-z_0-9][a-z_0-9 ]*[ *](lodestone_pointer_[a-z_0-9]+)\([^;]*\);"#)
        var prototypes: [String: String] = [:]
        for m in regex.matches(in: header, range: NSRange(header.startIndex..., in: header)) {
            guard let whole = Range(m.range, in: header), let name = Range(m.range(at: 1), in: header) else { continue }
            prototypes[String(header[name])] = header[whole].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                .joined(separator: " ").replacingOccurrences(of: "( ", with: "(")
        }
        return prototypes
    }

    /// The committed ABI, c-api/lodestone-pointer.symbols: one `name<TAB>prototype` line per
    /// function, `#` comments. A symbol that disappears from the library, or whose prototype in
    /// the header changes, fails (the exports' types are held to the header's at compile time,
    /// in LodestonePointerC/HeaderSignatures.swift). A new function is added to the list, and the minor version
    /// raised, in the same commit.
    func testExportedSymbolsMatchTheCommittedList() throws {
        var committed: [String: String] = [:]
        for line in try String(contentsOfFile: Self.symbolList, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1)
            guard fields.count == 2 else { continue }
            committed[String(fields[0])] = String(fields[1])
        }
        XCTAssertGreaterThan(committed.count, 10)
        let exported = try exportedSymbols()
        let missing = Set(committed.keys).subtracting(exported).sorted()
        XCTAssertEqual(missing, [], "symbols of the committed ABI are gone from liblodestone-pointer.so")
        let unlisted = Set(exported).subtracting(committed.keys).sorted()
        XCTAssertEqual(unlisted, [], "new symbols: add them to c-api/lodestone-pointer.symbols and raise the minor version")
        let header = try Self.headerPrototypes()
        for (name, prototype) in committed.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(header[name], prototype, "\(name) changed its signature in the header")
        }
    }

    /// c-api/lodestone-pointer.map, the linker version script, is generated from the committed list.
    func testVersionScriptMatchesTheSymbolList() throws {
        let generated = try step([repositoryRoot + "/Scripts/generate-symbol-map", "--stdout"])
        XCTAssertEqual(generated, try String(contentsOfFile: Self.project + "/lodestone-pointer.map", encoding: .utf8),
                       "run Scripts/generate-symbol-map")
    }

    /// The committed prototypes hold against the header as C sees it: a C file assigns every
    /// listed function to a pointer of its committed type and compiles with -Werror, so a
    /// changed parameter or result type fails even where the text would still match.
    func testCommittedSignaturesCompileAgainstTheHeader() throws {
        var c = "#include <lodestone-pointer.h>\n#include <stddef.h>\n"
        var count = 0
        for line in try String(contentsOfFile: Self.symbolList, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, fields[1].hasSuffix(";"), fields[1].contains(fields[0] + "(") else { continue }
            let pointer = fields[1].replacingOccurrences(of: fields[0] + "(", with: "(*const check_\(fields[0]))(")
            c += "\(pointer.dropLast()) = \(fields[0]);\n"
            count += 1
        }
        c += "int main(void) { return 0; }\n"
        XCTAssertGreaterThan(count, 30)
        try c.write(toFile: scratch + "/abi.c", atomically: true, encoding: .utf8)
        try step(["cc", "-std=c11", "-Wall", "-Werror", "-Wno-unused-const-variable", "-I", Self.project + "/include",
                  "-c", scratch + "/abi.c", "-o", scratch + "/abi.o"])
        // The check bites: a pointer of another type is an error.
        try (c + "void (*const wrong)(int) = lodestone_pointer_version;\n").write(toFile: scratch + "/bad.c", atomically: true, encoding: .utf8)
        XCTAssertNotEqual(try run(["cc", "-std=c11", "-Werror", "-I", Self.project + "/include", "-c", scratch + "/bad.c",
                                   "-o", scratch + "/bad.o"]).status, 0)
    }

    /// Every exported function is declared in the header with the same name, and every
    /// function the header declares is exported.
    func testHeaderDeclaresExactlyTheExportedFunctions() throws {
        XCTAssertEqual(Set(try Self.headerPrototypes().keys), Set(try exportedSymbols()))
    }
}
