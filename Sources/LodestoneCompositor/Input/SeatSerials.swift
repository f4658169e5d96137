import CWaylandServer
import WaylandServer

/// The serials a seat accepts: the checks set_cursor, move, resize, set_selection and
/// xdg_popup.grab make before they act.
extension Seat {
    /// Whether `serial` was issued to this client with or after its pointer's last enter:
    /// set_cursor, move and resize carrying an older or an invented serial are ignored, as
    /// weston and wlroots do.
    func isCurrentPointerSerial(_ serial: UInt32, of client: WaylandServer.Client) -> Bool {
        wlPointers.contains { p in
            guard p.client == client, let enter = p.enterSerial else { return false }
            return display.issued(serial, since: enter)
        }
    }

    /// Whether `serial` comes from this client's current input: the pointer is on one of its
    /// surfaces and the serial is no older than the pointer's enter there, or it has the
    /// keyboard and the serial is no older than the keyboard's enter. set_selection and
    /// xdg_popup.grab carrying anything else are refused, as weston and wlroots do.
    func isCurrentInputSerial(_ serial: UInt32, of client: WaylandServer.Client) -> Bool {
        if pointerFocus?.client == client, isCurrentPointerSerial(serial, of: client) { return true }
        return keyboard.isCurrentSerial(serial, of: client)
    }
}
