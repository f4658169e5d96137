import CXCB
import Glibc
import LodestoneSystem

/// An X11 window id (`xcb_window_t`).
typealias XWindowID = UInt32
/// An X11 atom (`xcb_atom_t`).
typealias XAtom = UInt32

/// `xcb_connection_t *`: the window manager's connection to Xwayland. The few requests
/// the window manager makes, typed; replies are waited for (as wlroots' xwm does) only
/// while handling X events, never for Wayland input.
///
/// Every xcb call of the window manager goes through here; the `xcb_connection_t *` never
/// leaves it.
struct XConnection {
    private let pointer: OpaquePointer

    /// Connects over a socket Xwayland was started with (`-wm`).
    init(fd: Int32) throws(SystemError) {
        guard let c = xcb_connect_to_fd(fd, nil) else { throw SystemError("xcb_connect_to_fd failed") }
        guard xcb_connection_has_error(c) == 0 else {
            xcb_disconnect(c)
            throw SystemError("Xwayland refused the window manager's connection", call: "xcb_connect_to_fd")
        }
        pointer = c
    }

    var fileDescriptor: Int32 { xcb_get_file_descriptor(pointer) }
    var hasError: Bool { xcb_connection_has_error(pointer) != 0 }
    var root: XWindowID { xcb_setup_roots_iterator(xcb_get_setup(pointer)).data.pointee.root }
    var rootVisual: UInt32 { xcb_setup_roots_iterator(xcb_get_setup(pointer)).data.pointee.root_visual }

    func disconnect() { xcb_disconnect(pointer) }
    func flush() { xcb_flush(pointer) }
    func generateID() -> UInt32 { xcb_generate_id(pointer) }

    /// The next event, or nil: read from the socket, or with `queuedOnly` only one xcb has
    /// already read (queued while a reply was awaited).
    func nextEvent(queuedOnly: Bool) -> XEvent? {
        guard let event = queuedOnly ? xcb_poll_for_queued_event(pointer) : xcb_poll_for_event(pointer) else { return nil }
        defer { free(event) }
        return XEvent(copying: event)
    }

    /// Composite's manual redirection of the root's children: X draws no top-level window
    /// itself, each one's pixels go to its wl_surface.
    func redirectSubwindows(of root: XWindowID) {
        _ = xcb_composite_redirect_subwindows(pointer, root, UInt8(XCB_COMPOSITE_REDIRECT_MANUAL.rawValue))
    }

    /// A 10×10 input-output window under `parent` with the root's visual, never mapped
    /// (the EWMH check window).
    func createWindow(_ id: XWindowID, parent: XWindowID) {
        _ = xcb_create_window(pointer, UInt8(XCB_COPY_FROM_PARENT), id, parent, 0, 0, 10, 10, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), rootVisual, 0, nil)
    }

    /// Interns every name in one round trip.
    func internAtoms(_ names: [String]) -> [String: XAtom] {
        let cookies = names.map { name in xcb_intern_atom(pointer, 0, UInt16(name.utf8.count), name) }
        var atoms: [String: XAtom] = [:]
        for (name, cookie) in zip(names, cookies) {
            guard let reply = xcb_intern_atom_reply(pointer, cookie, nil) else { continue }
            atoms[name] = reply.pointee.atom
            free(reply)
        }
        return atoms
    }

    func changeAttributes(_ window: XWindowID, mask: UInt32, values: [UInt32]) {
        _ = values.withUnsafeBufferPointer { xcb_change_window_attributes(pointer, window, mask, $0.baseAddress) }
    }

    func configure(_ window: XWindowID, mask: UInt16, values: [UInt32]) {
        _ = values.withUnsafeBufferPointer { xcb_configure_window(pointer, window, mask, $0.baseAddress) }
    }

    func map(_ window: XWindowID) { _ = xcb_map_window(pointer, window) }

    func setProperty(_ window: XWindowID, _ property: XAtom, type: XAtom, _ values: [UInt32]) {
        _ = values.withUnsafeBufferPointer {
            xcb_change_property(pointer, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 32, UInt32($0.count), $0.baseAddress)
        }
    }

    func setProperty(_ window: XWindowID, _ property: XAtom, type: XAtom, string: String) {
        let bytes = Array(string.utf8)
        _ = bytes.withUnsafeBufferPointer {
            xcb_change_property(pointer, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32($0.count), $0.baseAddress)
        }
    }

    /// A property's bytes and type, or nil when the window has none.
    func property(_ window: XWindowID, _ property: XAtom) -> (type: XAtom, format: UInt8, bytes: [UInt8])? {
        getProperty(window, property, delete: false, longLength: 2048)
    }

    /// A property's whole value, deleted once read (a selection transfer).
    func takeProperty(_ window: XWindowID, _ property: XAtom) -> (type: XAtom, format: UInt8, bytes: [UInt8])? {
        getProperty(window, property, delete: true, longLength: 0x1fff_ffff)
    }

    private func getProperty(_ window: XWindowID, _ property: XAtom, delete: Bool, longLength: UInt32) -> (type: XAtom, format: UInt8, bytes: [UInt8])? {
        let cookie = xcb_get_property(pointer, delete ? 1 : 0, window, property, UInt32(XCB_GET_PROPERTY_TYPE_ANY.rawValue), 0, longLength)
        guard let reply = xcb_get_property_reply(pointer, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type != 0 else { return nil }
        let length = Int(xcb_get_property_value_length(reply))
        let value = xcb_get_property_value(reply)
        let bytes = length > 0 && value != nil ? Array(UnsafeRawBufferPointer(start: value, count: length)) : []
        return (reply.pointee.type, reply.pointee.format, bytes)
    }

    /// Bytes as a format-8 property.
    func setProperty(_ window: XWindowID, _ property: XAtom, type: XAtom, bytes: [UInt8]) {
        _ = bytes.withUnsafeBufferPointer {
            xcb_change_property(pointer, UInt8(XCB_PROP_MODE_REPLACE.rawValue), window, property, type, 8, UInt32($0.count), $0.baseAddress)
        }
    }

    /// The largest request the server takes, in bytes (with BIG-REQUESTS, megabytes).
    var maximumRequestBytes: Int { Int(xcb_get_maximum_request_length(pointer)) * 4 }

    /// An atom's name (one round trip).
    func name(of atom: XAtom) -> String? {
        guard let reply = xcb_get_atom_name_reply(pointer, xcb_get_atom_name(pointer, atom), nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_atom_name_name_length(reply))
        guard let name = xcb_get_atom_name_name(reply) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
    }

    /// Atoms' names in one round trip (an atom X does not know has none).
    func names(of atoms: [XAtom]) -> [XAtom: String] {
        let cookies = atoms.map { xcb_get_atom_name(pointer, $0) }
        var names: [XAtom: String] = [:]
        for (atom, cookie) in zip(atoms, cookies) {
            guard let reply = xcb_get_atom_name_reply(pointer, cookie, nil) else { continue }
            defer { free(reply) }
            guard let name = xcb_get_atom_name_name(reply) else { continue }
            names[atom] = String(decoding: UnsafeRawBufferPointer(start: name, count: Int(xcb_get_atom_name_name_length(reply))), as: UTF8.self)
        }
        return names
    }

    /// An input-only child of the root the window manager uses for itself.
    func createHelperWindow() -> XWindowID {
        let id = generateID()
        _ = xcb_create_window(pointer, UInt8(XCB_COPY_FROM_PARENT), id, root, 0, 0, 10, 10, 0,
                              UInt16(XCB_WINDOW_CLASS_INPUT_OUTPUT.rawValue), rootVisual, 0, nil)
        return id
    }

    /// An input-only, override-redirect child of the root covering `width`×`height` at the
    /// origin, mapped at the bottom of the stack (XDND's proxy for Wayland windows).
    func createBottomInputWindow(width: UInt16, height: UInt16) -> XWindowID {
        let id = generateID()
        let values: [UInt32] = [1]
        _ = values.withUnsafeBufferPointer {
            xcb_create_window(pointer, 0, id, root, 0, 0, width, height, 0, UInt16(XCB_WINDOW_CLASS_INPUT_ONLY.rawValue), 0,
                              XCB_CW_OVERRIDE_REDIRECT.rawValue, $0.baseAddress)
        }
        configure(id, mask: UInt16(XCB_CONFIG_WINDOW_STACK_MODE.rawValue), values: [XCB_STACK_MODE_BELOW.rawValue])
        map(id)
        return id
    }

    func convertSelection(requestor: XWindowID, selection: XAtom, target: XAtom, property: XAtom) {
        _ = xcb_convert_selection(pointer, requestor, selection, target, property, UInt32(XCB_CURRENT_TIME))
    }

    /// Answers a SelectionRequest: `property` holds the data, or 0 (None) for a refusal.
    func notifySelection(_ request: xcb_selection_request_event_t, property: XAtom) {
        var notify = xcb_selection_notify_event_t()
        notify.response_type = UInt8(XCB_SELECTION_NOTIFY)
        notify.time = request.time
        notify.requestor = request.requestor
        notify.selection = request.selection
        notify.target = request.target
        notify.property = property
        send(notify, to: request.requestor, mask: UInt32(XCB_EVENT_MASK_NO_EVENT.rawValue))
    }

    /// Asks XFixes to report who owns `selection` (XFixesSelectionNotify). False without
    /// the extension.
    func watchSelectionOwner(_ selection: XAtom, from window: XWindowID) -> Bool {
        guard let ext = CXCB_xfixes_extension(pointer), ext.pointee.present != 0 else { return false }
        let mask = XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER.rawValue | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY.rawValue
            | XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE.rawValue
        _ = xcb_xfixes_select_selection_input(pointer, window, selection, mask)
        return true
    }

    /// Who owns `selection` now (0: nobody).
    func selectionOwner(_ selection: XAtom) -> XWindowID {
        guard let reply = xcb_get_selection_owner_reply(pointer, xcb_get_selection_owner(pointer, selection), nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.owner
    }

    /// The first XFixes event code, after agreeing on the version (the extension
    /// answers nothing before QueryVersion); nil without it.
    func xfixesEventBase() -> UInt8? {
        guard let ext = CXCB_xfixes_extension(pointer), ext.pointee.present != 0 else { return nil }
        free(xcb_xfixes_query_version_reply(pointer, xcb_xfixes_query_version(pointer, 5, 0), nil))
        return ext.pointee.first_event
    }

    /// A window's geometry as X has it now.
    func geometry(_ window: XWindowID) -> (x: Int32, y: Int32, width: Int32, height: Int32)? {
        guard let reply = xcb_get_geometry_reply(pointer, xcb_get_geometry(pointer, window), nil) else { return nil }
        defer { free(reply) }
        let g = reply.pointee
        return (Int32(g.x), Int32(g.y), Int32(g.width), Int32(g.height))
    }

    func setInputFocus(_ window: XWindowID) {
        _ = xcb_set_input_focus(pointer, UInt8(XCB_INPUT_FOCUS_POINTER_ROOT.rawValue), window, UInt32(XCB_CURRENT_TIME))
    }

    func setSelectionOwner(_ window: XWindowID, _ selection: XAtom) {
        _ = xcb_set_selection_owner(pointer, window, selection, UInt32(XCB_CURRENT_TIME))
    }

    /// Gives `window` (the root) an ARGB cursor: premultiplied pixels, `width` per row.
    /// Returns false when the server has no 32-bit Render format.
    @discardableResult
    func setCursor(_ window: XWindowID, pixels: [UInt32], width: Int, height: Int, hotspot: (x: Int, y: Int)) -> Bool {
        guard let reply = xcb_render_query_pict_formats_reply(pointer, xcb_render_query_pict_formats(pointer), nil) else { return false }
        defer { free(reply) }
        let formats = UnsafeBufferPointer(start: xcb_render_query_pict_formats_formats(reply),
                                          count: Int(xcb_render_query_pict_formats_formats_length(reply)))
        guard let argb = formats.first(where: {
            $0.type == UInt8(XCB_RENDER_PICT_TYPE_DIRECT.rawValue) && $0.depth == 32 && $0.direct.alpha_mask == 0xff && $0.direct.alpha_shift == 24
                && $0.direct.red_shift == 16 && $0.direct.green_shift == 8 && $0.direct.blue_shift == 0
        }) else { return false }
        let pixmap = generateID(), gc = generateID(), picture = generateID(), cursor = generateID()
        _ = xcb_create_pixmap(pointer, 32, pixmap, window, UInt16(width), UInt16(height))
        _ = xcb_create_gc(pointer, gc, pixmap, 0, nil)
        _ = pixels.withUnsafeBytes {
            xcb_put_image(pointer, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), pixmap, gc, UInt16(width), UInt16(height), 0, 0, 0, 32,
                          UInt32($0.count), $0.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        _ = xcb_render_create_picture(pointer, picture, pixmap, argb.id, 0, nil)
        _ = xcb_render_create_cursor(pointer, cursor, picture, UInt16(hotspot.x), UInt16(hotspot.y))
        changeAttributes(window, mask: XCB_CW_CURSOR.rawValue, values: [cursor])
        _ = xcb_render_free_picture(pointer, picture)
        _ = xcb_free_gc(pointer, gc)
        _ = xcb_free_pixmap(pointer, pixmap)
        _ = xcb_free_cursor(pointer, cursor)
        return true
    }

    func kill(_ window: XWindowID) { _ = xcb_kill_client(pointer, window) }

    /// Sends a 32-byte event (xcb_send_event always reads 32 bytes: smaller event
    /// structs are copied into a zeroed buffer first).
    func send<Event>(_ event: Event, to window: XWindowID, mask: UInt32) {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &buffer) { raw in
            withUnsafeBytes(of: event) { raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(32))) }
            _ = xcb_send_event(pointer, 0, window, mask, raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
    }

    /// A ClientMessage of format 32 (WM_PROTOCOLS and friends).
    func sendClientMessage(to window: XWindowID, type: XAtom, _ data: (UInt32, UInt32, UInt32, UInt32, UInt32)) {
        var event = xcb_client_message_event_t()
        event.response_type = UInt8(XCB_CLIENT_MESSAGE)
        event.format = 32
        event.window = window
        event.type = type
        event.data.data32 = data
        send(event, to: window, mask: UInt32(XCB_EVENT_MASK_NO_EVENT.rawValue))
    }
}

extension Array where Element == UInt8 {
    /// The property as 32-bit values (format 32).
    var cardinals: [UInt32] {
        // The X server speaks our byte order (it is on this machine).
        stride(from: 0, to: count - 3, by: 4).map { i -> UInt32 in
            var value: UInt32 = 0
            Swift.withUnsafeMutableBytes(of: &value) { for k in 0..<4 { $0[k] = self[i + k] } }
            return value
        }
    }
}
