// swift-tools-version:6.0
// Lodestone: a Wayland compositor with the iPadOS adaptive pointer.
import PackageDescription

/// liblodestone-pointer exports the C API and nothing else: the linker version script is
/// generated from c-api/lodestone-pointer.symbols (Scripts/generate-symbol-map; a test keeps
/// them equal). The Swift runtime is linked in (-static-stdlib) so a C host needs no Swift
/// toolchain. Only the `lodestone-pointer` product links LodestonePointerC.
let packageRoot = String(#filePath.dropLast("/Package.swift".count))
let pointerLibraryLinkerSettings: [LinkerSetting] = [
    // The soname makes a host that links the library by its path (meson's find_library) need
    // "liblodestone-pointer.so", found through its rpath, not the build folder's path.
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--version-script=\(packageRoot)/c-api/lodestone-pointer.map",
                  "-Xlinker", "-soname=liblodestone-pointer.so"], .when(platforms: [.linux])),
    // TOMLKit (config.toml, lodestone_pointer_engine_load_settings) uses FoundationEssentials'
    // Data and Date; -static-stdlib links FoundationEssentials but not the three it needs.
    .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
    .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
    .linkedLibrary("swiftSynchronization", .when(platforms: [.linux])),
]

let package = Package(
    name: "Lodestone",
    products: [
        .executable(name: "lodestone", targets: ["lodestone"]),
        .library(name: "AdaptivePointerEngine", targets: ["AdaptivePointerEngine"]),
        // The module the wlcs conformance runner dlopen()s (Scripts/run-wlcs).
        .library(name: "LodestoneWLCS", type: .dynamic, targets: ["LodestoneWLCS"]),
        // liblodestone-pointer.so: the adaptive pointer for other compositors, a C ABI
        // (Sources/CLodestonePointer/include/lodestone-pointer.h; c-api/ builds C against it).
        .library(name: "lodestone-pointer", type: .dynamic, targets: ["LodestonePointerC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The configuration file (Sources/LodestoneConfig).
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // make bench: heap allocations counted over the whole process (preloaded in a child).
        .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
    ],
    targets: [
        // C libraries, through pkg-config.
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .systemLibrary(name: "CPixman", pkgConfig: "pixman-1", providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // Antialiased pointer shapes, effects and annotation text (fontconfig + freetype).
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // Handwritten Japanese and Chinese characters for Scribble's recogniser helper (issue 40).
        .systemLibrary(name: "CZinnia", pkgConfig: "zinnia", providers: [.apt(["libzinnia-dev"])]),
        // Xcursor themes: recognising the theme cursors legacy clients attach (file loading only, no X server).
        .systemLibrary(name: "CXcursor", pkgConfig: "xcursor", providers: [.apt(["libxcursor-dev"])]),
        // X11 for the Xwayland window manager (libxcb + Composite + Render).
        .systemLibrary(name: "CXCB", pkgConfig: "xcb-composite", providers: [.apt(["libxcb1-dev", "libxcb-composite0-dev", "libxcb-render0-dev", "libxcb-xfixes0-dev"])]),
        // The TTY backend: libinput + udev (devices), DRM/KMS (output), libseat (session).
        .systemLibrary(name: "CInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CSeat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        // The accessibility bus (AT-SPI geometry of apps that declare no regions): sd-bus.
        .systemLibrary(name: "CSDBus", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),

        // Committed wayland-scanner output (Scripts/generate-protocols): every
        // protocol's private code, compiled exactly once.
        .target(name: "CWaylandProtocols"),
        // libwayland headers plus the few shims Swift cannot express.
        .target(
            name: "CWaylandServer",
            dependencies: ["CWaylandProtocols"],
            linkerSettings: [.linkedLibrary("wayland-server")]
        ),
        .target(
            name: "CWaylandClient",
            dependencies: ["CWaylandProtocols"],
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),

        // Lodestone's one error type, and the helpers every failing C call goes
        // through (NIOPosix/System.swift style). Glibc only: everything can depend on it.
        .target(name: "LodestoneSystem"),

        // Typed Swift wrappers over libwayland.
        .target(
            name: "WaylandServer",
            // Logging: every protocol error is logged with the client it disconnects.
            dependencies: ["LodestoneSystem", "CWaylandServer", "CWaylandProtocols", .product(name: "Logging", package: "swift-log")]
        ),
        .target(name: "WaylandClient", dependencies: ["LodestoneSystem", "CWaylandClient", "CWaylandProtocols"]),

        // The adaptive pointer as a pure model: no Wayland, no C.
        // (libm: rounded()/squareRoot() need it linked in debug builds.)
        .target(name: "AdaptivePointerEngine", linkerSettings: [.linkedLibrary("m")]),
        .executableTarget(name: "PointerEngineBenchmark", dependencies: ["AdaptivePointerEngine", "AllocationCounter"]),
        // What liblodestone-pointer's C boundary adds per call (make bench; not a test).
        .executableTarget(name: "PointerBoundaryBenchmark", dependencies: ["AdaptivePointerEngine", "CLodestonePointer", "CValgrind"]),
        // Heap allocation counting for the benchmarks: ordo-one's malloc interposer
        // (libMallocInterposerSwift.so, built with allocation-counter-check by `make bench`), preloaded into a child only,
        // counts every thread's allocations; CAllocationHook names who asked. Not linked: the
        // benchmarks' other figures keep glibc's allocator.
        .target(name: "CAllocationHook"),
        .target(name: "AllocationCounter", dependencies: ["CAllocationHook"]),
        .executableTarget(
            name: "allocation-counter-check",
            dependencies: [.product(name: "MallocInterposerSwift", package: "malloc-interposer")]
        ),

        // Compositing with pixman, PNG output with libpng.
        .target(name: "Rendering", dependencies: ["LodestoneSystem", "CPixman", "CPNG", "CCairo", "AdaptivePointerEngine", .product(name: "Logging", package: "swift-log")]),
        // liblodestone-pointer: the header (a C target so Swift fills the very structs C reads)
        // and the @_cdecl exports over the engine and the pointer renderer.
        .target(name: "CLodestonePointer"),
        // The server helper (Server*.swift) serves adaptive_pointer_v1 on the host's display with
        // the same request checks as Compositor (AdaptivePointerProtocol).
        .target(
            name: "LodestonePointerC",
            dependencies: [
                "CLodestonePointer", "CPixman", "AdaptivePointerEngine", "Rendering",
                "AdaptivePointerProtocol", "WaylandServer", "CWaylandServer", "CWaylandProtocols",
                // lodestone_pointer_adapter_*: the same adaptation Lodestone runs.
                "PointerAdaptation", .product(name: "Logging", package: "swift-log"),
                // config.toml (lodestone_pointer_engine_load_settings).
                "LodestoneConfig",
            ],
            linkerSettings: pointerLibraryLinkerSettings
        ),
        // adaptive_pointer_v1's request checks and errors, shared by Compositor and the C
        // library's server helper (RegionDraft).
        .target(name: "AdaptivePointerProtocol", dependencies: ["WaylandServer", "CWaylandServer", "CWaylandProtocols", "AdaptivePointerEngine"]),
        // The adaptation of apps that declare no adaptive_pointer_v1 regions: cursor names and
        // recognised Xcursor images turned into the pointer's forms, and AT-SPI geometry read
        // over D-Bus on the host's event loop. Knows no compositor: Lodestone and the C
        // library's adapter (lodestone_pointer_adapter_*) are its hosts, through AdaptedWindow,
        // PointerContext and the closures Accessibility is made with.
        .target(
            name: "PointerAdaptation",
            dependencies: [
                "LodestoneSystem", "WaylandServer", "CWaylandServer", "AdaptivePointerProtocol", "AdaptivePointerEngine", "Rendering",
                "CXcursor", "CSDBus", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Protocol handlers, surfaces, seat, window management.
        .target(
            name: "LodestoneCompositor",
            dependencies: [
                "LodestoneSystem", "WaylandServer", "AdaptivePointerProtocol", "Rendering", "CXKBCommon", "CXcursor", "CXCB", "CSDBus", "AdaptivePointerEngine",
                "PointerAdaptation", "LodestoneModes",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Where frames go and input comes from: headless, nested, ...
        .target(
            name: "Backends",
            dependencies: [
                "LodestoneSystem", "LodestoneCompositor", "Rendering", "WaylandServer", "AdaptivePointerEngine", "PointerAdaptation",
                // The nested backend is a Wayland client of the parent session.
                "WaylandClient", "CWaylandClient", "CWaylandProtocols",
                // Cursor images over the nested window's own title bar.
                "CXcursor",
                // The TTY backend (DRM/).
                "CInput", "CDRM", "CSeat",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // config.toml: parsed and checked into plain values (the watcher is in lodestone).
        // MaxRenderTime: what LodestoneConfig needs of the compositor (PointerMode and LegacyApps
        // come from PointerAdaptation).
        .target(name: "LodestoneModes"),
        .target(name: "LodestoneConfig", dependencies: ["LodestoneSystem", "LodestoneModes", "PointerAdaptation", "AdaptivePointerEngine", .product(name: "TOMLKit", package: "TOMLKit")]),
        .executableTarget(
            name: "lodestone",
            dependencies: [
                "LodestoneSystem", "LodestoneCompositor", "Backends", "LodestoneConfig", "AdaptivePointerEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Drives a headless Lodestone through lodestone_test_v1: used by the
        // tests and by the demo tour.
        .target(name: "LodestoneTesting", dependencies: ["LodestoneSystem", "WaylandClient", "CWaylandClient", "CWaylandProtocols", "Rendering"]),
        // wlcs integration: CWLCS holds the `wlcs_server_integration` data symbol
        // and the C hook tables; LodestoneWLCS runs a compositor per test.
        .target(name: "CWLCS", linkerSettings: [.linkedLibrary("wayland-client")]),
        .target(
            name: "LodestoneWLCS",
            dependencies: ["CWLCS", "LodestoneSystem", "LodestoneCompositor", "WaylandServer", "CWaylandServer", .product(name: "Logging", package: "swift-log")]
        ),
        // Declaring adaptive_pointer_v1 regions from Swift clients in a few lines.
        .target(name: "AdaptivePointerClient", dependencies: ["WaylandClient", "CWaylandClient", "CWaylandProtocols"]),
        // PointerBench.swift runs a Compositor in-process with a Swift region client.
        .executableTarget(
            name: "lodestone-bench",
            dependencies: [
                "LodestoneSystem", "Rendering", "LodestoneTesting", "AllocationCounter", "LodestoneCompositor", "WaylandServer", "WaylandClient", "CWaylandClient",
                "AdaptivePointerClient", "CValgrind", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Callgrind's client requests (header from Debian's valgrind), for instruction counts.
        .target(name: "CValgrind"),
        // `make fuzz`: Wayland wire messages into an in-process compositor, coverage-guided
        // (libFuzzer); built plainly, it replays the kept corpus (Tests/fuzz/corpus).
        .target(name: "CLodestoneFuzz"),
        .executableTarget(
            name: "lodestone-fuzz",
            dependencies: [
                "CLodestoneFuzz", "LodestoneCompositor", "LodestoneSystem", "WaylandServer", "CWaylandServer", "CWaylandProtocols",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `make fuzz`: byte strings into the config loader (TOMLKit in its forked child);
        // built plainly, it replays the kept corpus (Tests/fuzz/config-corpus).
        .executableTarget(name: "lodestone-config-fuzz", dependencies: ["LodestoneConfig", "LodestoneSystem"]),
        // `make fuzz`: byte strings as an Xcursor file in a theme, read by CursorThemes;
        // built plainly, it replays the kept corpus (Tests/fuzz/xcursor-corpus).
        .executableTarget(name: "lodestone-xcursor-fuzz", dependencies: ["PointerAdaptation", "LodestoneSystem", .product(name: "Logging", package: "swift-log")]),
        // A parent compositor that says odd things (configures, scales, keymaps) to nested
        // Lodestone (NestedOddParentTests, issue 24).
        .executableTarget(name: "lodestone-odd-parent", dependencies: ["CWaylandServer", "CWaylandProtocols"]),
        // The demo: sample surfaces for every pointer behaviour (cairo), and the
        // scripted headless tour through them (`make demo`, DemoTourTests).
        // Scribble's recogniser, a helper the compositor starts (recognition off the event loop):
        // Tesseract on the rendered ink for Latin script, Zinnia on the strokes for Japanese and Chinese.
        .executableTarget(name: "lodestone-scribble-recognizer", dependencies: ["Rendering", "LodestoneSystem", "CZinnia"]),
        .executableTarget(name: "lodestone-demo", dependencies: ["AdaptivePointerClient", "WaylandClient", "CWaylandClient", "CWaylandProtocols", "CCairo"]),
        .target(name: "LodestoneTour", dependencies: ["LodestoneSystem", "LodestoneTesting", "WaylandClient", "CWaylandClient", "CWaylandProtocols", "CCairo"]),
        .executableTarget(name: "lodestone-tour", dependencies: ["LodestoneTour"]),

        .testTarget(name: "PointerEngineTests", dependencies: ["AdaptivePointerEngine"]),
        // config.toml's parser: every key, and the messages of bad files.
        .testTarget(name: "LodestoneConfigTests", dependencies: ["LodestoneConfig", "LodestoneSystem", "LodestoneCompositor", "AdaptivePointerEngine"]),
        // The TTY backend's pieces that run without devices: libinput translation, the
        // empty libinput context, the start-up checks.
        .testTarget(name: "BackendTests", dependencies: ["Backends", "LodestoneCompositor", "CInput"]),
        // The compositor in the test process, its clients on socketpairs: seat routing,
        // grabs, pointer constraints and the scene, asserted on what clients receive.
        .testTarget(
            name: "CompositorUnitTests",
            dependencies: [
                "LodestoneCompositor", "Rendering", "WaylandServer", "CWaylandServer", "WaylandClient", "CWaylandClient", "CWaylandProtocols",
                "Backends",  // the TTY path's keyboard: libinput translation into a real seat
                "PointerAdaptation", "AdaptivePointerEngine",  // AppCursorPolicyTests: the decision both hosts run
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "LodestoneTests",
            dependencies: [
                "LodestoneTesting", "WaylandClient", "CWaylandClient", "CWaylandProtocols", "Rendering", "AdaptivePointerClient", "LodestoneTour", "CXcursor",
                // NestedMutterTests: mutter's remote-desktop D-Bus API moves its pointer.
                "CSDBus",
                // PointerLibraryTests: the Swift side of the C library's numbers.
                "AdaptivePointerEngine",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
