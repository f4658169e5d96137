import Foundation
import LodestoneTesting
import XCTest

/// `make install` puts a working Lodestone into a prefix: programs, man page, desktop
/// entry, and the protocol XML found through pkg-config, as C projects look for it.
final class InstallTests: XCTestCase {
    func testInstallIntoATemporaryPrefixGivesARunningLodestone() throws {
        try requireProgram("meson")
        let prefix = NSTemporaryDirectory() + "lodestone-prefix-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        // The debug build the tests run from: the same Scripts/install that make install runs.
        let bin = URL(fileURLWithPath: Session.executable).deletingLastPathComponent().path
        let (status, output) = try run([repositoryRoot + "/Scripts/install", prefix, bin], directory: repositoryRoot)
        XCTAssertEqual(status, 0, output)

        let (vstatus, version) = try run([prefix + "/bin/lodestone", "--version"])
        XCTAssertEqual(vstatus, 0)
        XCTAssertEqual(version.trimmingCharacters(in: .whitespacesAndNewlines), "0.2.0")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/lodestone-demo"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/lodestone-scribble-recognizer"), "Scribble's recogniser, beside lodestone")
        // The KWin effect, where kwin-dev is installed (KWinEffectTests runs it in KWin): in the
        // prefix's Qt plugin folder, Debian's layout (/usr/lib/x86_64-linux-gnu/qt5/plugins with
        // PREFIX=/usr), linked to the liblodestone-pointer installed beside it.
        if FileManager.default.fileExists(atPath: "/usr/include/kwineffects.h") {
            let effect = prefix + "/lib/x86_64-linux-gnu/qt5/plugins/kwin/effects/plugins/lodestone_pointer.so"
            XCTAssertTrue(FileManager.default.fileExists(atPath: effect), output)
            let (_, needed) = try run(["readelf", "-d", effect])
            XCTAssertTrue(needed.contains("liblodestone-pointer.so"), needed)
        }

        // The installed program works: a screenshot from a headless run.
        let runtime = prefix + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let shot = prefix + "/shot.png"
        let (sstatus, soutput) = try run([prefix + "/bin/lodestone", "--backend", "headless", "--socket", "installed", "--screenshot", shot],
                                         environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(sstatus, 0, soutput)
        XCTAssertEqual(try Screenshot(png: shot).width, 1280)

        // The protocol XML, where pkg-config says it is.
        let pcDir = try XCTUnwrap(FileManager.default.subpaths(atPath: prefix)?.first { $0.hasSuffix("lodestone-protocols.pc") })
        let (pstatus, dataDir) = try run(["pkg-config", "--variable=pkgdatadir", "lodestone-protocols"],
                                         environment: ["PKG_CONFIG_PATH": prefix + "/" + (pcDir as NSString).deletingLastPathComponent])
        XCTAssertEqual(pstatus, 0, dataDir)
        let xml = dataDir.trimmingCharacters(in: .whitespacesAndNewlines) + "/adaptive-pointer-v1.xml"
        XCTAssertTrue(FileManager.default.fileExists(atPath: xml), xml)

        // The desktop entry is valid, and the man page is installed.
        let desktop = prefix + "/share/applications/lodestone.desktop"
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let (dstatus, doutput) = try run(["desktop-file-validate", desktop])
            XCTAssertEqual(dstatus, 0, doutput)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/share/man/man1/lodestone.1"))
        // The display managers' session: its entry is valid, and lodestone-session names the
        // installed default session.toml.
        let session = prefix + "/share/wayland-sessions/lodestone.desktop"
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate") {
            let (sstatus, soutput) = try run(["desktop-file-validate", session])
            XCTAssertEqual(sstatus, 0, soutput)
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/lodestone-session"))
        XCTAssertTrue(textOfFile(prefix + "/bin/lodestone-session").contains("--config \"\(prefix)/share/lodestone/session.toml\""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/share/lodestone/session.toml"))

        try checkInstalledPointerLibrary(prefix: prefix)
        try checkInstalledWayfirePlugin(prefix: prefix)
        try checkInstalledWestonModule(prefix: prefix)
    }

    /// The Wayfire plugin (Scripts/install-wayfire-plugin): in PREFIX's equivalent of Wayfire's
    /// plugin folder, with its metadata, a Wayfire plugin's two entry points, and the installed
    /// liblodestone-pointer as its library.
    private func checkInstalledWayfirePlugin(prefix: String) throws {
        let (wstatus, plugindir) = try run(["pkg-config", "--variable=plugindir", "wayfire"])
        let (_, wayfirePrefix) = try run(["pkg-config", "--variable=prefix", "wayfire"])
        guard wstatus == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure("wayfire-dev is not installed") }
            throw XCTSkip("wayfire-dev is not installed: make install builds no Wayfire plugin")
        }
        let relative = plugindir.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: wayfirePrefix.trimmingCharacters(in: .whitespacesAndNewlines), with: "")
        let plugin = prefix + relative + "/liblodestone.so"
        XCTAssertTrue(FileManager.default.fileExists(atPath: plugin), plugin)
        XCTAssertTrue(FileManager.default.fileExists(atPath: prefix + "/share/wayfire/metadata/lodestone.xml"))
        let (lstatus, ldd) = try run(["ldd", plugin])
        XCTAssertEqual(lstatus, 0, ldd)
        XCTAssertTrue(ldd.contains("liblodestone-pointer.so => \(prefix)/lib/liblodestone-pointer.so"), ldd)
        let (nstatus, nm) = try run(["nm", "-D", "--defined-only", plugin])
        XCTAssertEqual(nstatus, 0, nm)
        XCTAssertTrue(nm.contains(" T newInstance") && nm.contains(" T getWayfireVersion"), nm)
    }


    /// The weston module: in PREFIX/lib/weston (this prefix is not libweston's), finding the
    /// installed library through its rpath, and loaded by a headless weston.
    private func checkInstalledWestonModule(prefix: String) throws {
        guard (try? run(["pkg-config", "--exists", "libweston-10"]).status) == 0 else {
            if ProcessInfo.processInfo.environment["CI"] != nil { throw TestFailure("libweston-10-dev is not installed (make test-deps)") }
            throw XCTSkip("libweston-10-dev is not installed: no weston module to check (make test-deps)")
        }
        let module = prefix + "/lib/weston/lodestone-pointer.so"
        XCTAssertTrue(FileManager.default.fileExists(atPath: module), "make install put no weston module at \(module)")
        let (lstatus, ldd) = try run(["ldd", module])
        XCTAssertEqual(lstatus, 0, ldd)
        XCTAssertTrue(ldd.contains(prefix + "/lib/liblodestone-pointer.so"), "the module finds the installed library by its rpath:\n\(ldd)")
        try skipUnderSanitizersForALibraryConsumer()  // weston loads it
        let weston = try Weston(extraArguments: ["--modules=" + module])
        defer { weston.stop() }
        XCTAssertTrue(try wait(timeout: 10) { weston.log.contains("adaptive_pointer_manager_v1 offered") }, weston.log)
    }

    /// liblodestone-pointer as a C host meets it: pkg-config gives the flags, the library needs
    /// no Swift runtime and exports exactly the committed C API.
    private func checkInstalledPointerLibrary(prefix: String) throws {
        let library = prefix + "/lib/liblodestone-pointer.so"
        let (lstatus, ldd) = try run(["ldd", library])
        XCTAssertEqual(lstatus, 0, ldd)
        XCTAssertFalse(ldd.contains("libswift"), "the Swift runtime must be linked in:\n\(ldd)")
        XCTAssertFalse(ldd.contains("not found"), ldd)

        let (nstatus, nm) = try run(["nm", "-D", "--defined-only", library])
        XCTAssertEqual(nstatus, 0, nm)
        // Global definitions only (upper-case types; the linker keeps some local ones in .dynsym).
        let exported = Set(nm.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1].first?.isUppercase == true else { return nil }
            return String(fields[2])
        })
        let committed = Set(try String(contentsOfFile: repositoryRoot + "/c-api/lodestone-pointer.symbols", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: "\t").first.map(String.init) })
        XCTAssertEqual(exported, committed, "the version script exports exactly c-api/lodestone-pointer.symbols")

        let env = ["PKG_CONFIG_PATH": prefix + "/lib/pkgconfig", "PATH": "/usr/bin:/bin"]
        let (pstatus, flags) = try run(["pkg-config", "--cflags", "--libs", "--modversion", "lodestone-pointer"], environment: env)
        XCTAssertEqual(pstatus, 0, flags)
        XCTAssertTrue(flags.contains("0.3.0"), flags)
        let (fstatus, cflags) = try run(["pkg-config", "--cflags", "--libs", "lodestone-pointer"], environment: env)
        XCTAssertEqual(fstatus, 0, cflags)
        try skipUnderSanitizersForALibraryConsumer()  // the rest builds a C program against it
        let source = prefix + "/host.c", program = prefix + "/host"
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
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let words = cflags.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let (cstatus, coutput) = try run(["cc", "-std=c11", "-Wall", "-Werror", source, "-o", program] + words, environment: env)
        XCTAssertEqual(cstatus, 0, coutput)
        let (rstatus, routput) = try run([program], environment: ["LD_LIBRARY_PATH": prefix + "/lib"])
        XCTAssertEqual(rstatus, 0, routput)
        XCTAssertEqual(routput, "1 400 300\n")
    }

    func testTheManPageDescribesEveryOption() throws {
        // docs/lodestone.1 is generated (make man); a new flag without a new page fails here.
        let page = try String(contentsOfFile: repositoryRoot + "/docs/lodestone.1", encoding: .utf8)
        let (_, help) = try run([Session.executable, "--help"])
        let words = help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
        let flags = Set(words.filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        XCTAssertFalse(flags.isEmpty)
        for flag in flags where flag != "--help" && flag != "--version" {
            XCTAssertTrue(page.contains("Fl -" + flag.dropFirst(2)), "docs/lodestone.1 does not describe \(flag); run make man")
        }
    }
}
