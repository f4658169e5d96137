// lodestone-demo: sample surfaces for every behaviour of the adaptive pointer,
// drawn with cairo, their regions declared with adaptive_pointer_v1.
//
//   lodestone --backend wayland -- lodestone-demo      (nested on your desktop)
//   lodestone-tour                                      (headless, scripted, PNGs)
import Glibc
import WaylandClient

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") {
    print("""
    usage: lodestone-demo [--sync-stdin]
      Opens the demo window in the Wayland session of $WAYLAND_DISPLAY (run it inside Lodestone).
      --sync-stdin  answer 'sync N' lines on stdin with 'synced N' (for lodestone-tour)
    """)
    exit(0)
}

do {
    let connection = try Connection()
    // With a tablet the drawing panel takes pressure and tilt from the pen.
    let tablet = connection.registry().has("zwp_tablet_manager_v2")
    let app = try DemoApp(connection: connection, tabletPresent: tablet)
    try app.run(syncOnStdin: arguments.contains("--sync-stdin"))
} catch {
    let message = "lodestone-demo: \(error)\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}
