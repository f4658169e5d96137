// The C entry points wlcs reaches through CWLCS's trampolines. Each gets the
// Swift owner of the C struct it was called on and hands over to it; nothing
// here keeps state of its own.
import CWLCS
import CWaylandServer
import Glibc

@_cdecl("lodestone_wlcs_create_server")
func createServer(argc: Int32, argv: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> UnsafeMutableRawPointer? {
    do {
        return try WLCSServer().raw
    } catch {
        let message = "lodestone-wlcs: cannot create the compositor: \(error)\n"
        _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        return nil
    }
}

@_cdecl("lodestone_wlcs_destroy_server")
func destroyServer(owner: UnsafeMutableRawPointer) {
    // Balances the retain in WLCSServer.init.
    Unmanaged<WLCSServer>.fromOpaque(owner).takeRetainedValue().tearDown()
}

@_cdecl("lodestone_wlcs_run")
func runServer(owner: UnsafeMutableRawPointer, wlcsLoop: OpaquePointer) {
    WLCSServer.from(owner).run(wlcsLoop: wlcsLoop)
}

@_cdecl("lodestone_wlcs_stop")
func stopServer(owner: UnsafeMutableRawPointer) { WLCSServer.from(owner).stop() }

@_cdecl("lodestone_wlcs_create_client_socket")
func createClientSocket(owner: UnsafeMutableRawPointer) -> Int32 { WLCSServer.from(owner).createClientSocket() }

@_cdecl("lodestone_wlcs_position_window")
func positionWindow(owner: UnsafeMutableRawPointer, display: UnsafeMutableRawPointer, surface: UnsafeMutableRawPointer, x: Int32, y: Int32) {
    WLCSServer.from(owner).positionWindow(clientDisplay: display, surface: surface, x: x, y: y)
}

@_cdecl("lodestone_wlcs_create_pointer")
func createPointer(owner: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? { WLCSServer.from(owner).createPointer() }

@_cdecl("lodestone_wlcs_create_touch")
func createTouch(owner: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? { WLCSServer.from(owner).createTouch() }

@_cdecl("lodestone_wlcs_pointer_move")
func pointerMove(owner: UnsafeMutableRawPointer, x: Double, y: Double, relative: Bool) {
    FakePointer.from(owner).move(x: x, y: y, relative: relative)
}

@_cdecl("lodestone_wlcs_pointer_button")
func pointerButton(owner: UnsafeMutableRawPointer, button: Int32, pressed: Bool) {
    FakePointer.from(owner).button(UInt32(bitPattern: button), pressed: pressed)
}

@_cdecl("lodestone_wlcs_pointer_destroy")
func pointerDestroy(owner: UnsafeMutableRawPointer) {
    Unmanaged<FakePointer>.fromOpaque(owner).takeRetainedValue().destroy()
}

@_cdecl("lodestone_wlcs_touch_down")
func touchDown(owner: UnsafeMutableRawPointer, x: Double, y: Double) { FakeTouch.from(owner).down(x: x, y: y) }

@_cdecl("lodestone_wlcs_touch_move")
func touchMove(owner: UnsafeMutableRawPointer, x: Double, y: Double) { FakeTouch.from(owner).move(x: x, y: y) }

@_cdecl("lodestone_wlcs_touch_up")
func touchUp(owner: UnsafeMutableRawPointer) { FakeTouch.from(owner).up() }

@_cdecl("lodestone_wlcs_touch_destroy")
func touchDestroy(owner: UnsafeMutableRawPointer) {
    Unmanaged<FakeTouch>.fromOpaque(owner).takeRetainedValue().destroy()
}
