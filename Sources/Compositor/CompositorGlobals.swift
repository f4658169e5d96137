import CWaylandServer
import LodestoneSystem
import WaylandServer

/// The globals Lodestone offers: each binds a protocol handler (`Protocols/`) to the state
/// behind it. A few are offered only when asked for (screencopy, the test protocol).
extension Compositor {
    func addGlobals(_ options: Options) throws(SystemError) {
        try display.initShm()
        try addGlobal(Interface.compositor, WlCompositor.version) { [unowned self] in _ = WlCompositor(compositor: self, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.subcompositor, WlSubcompositor.version) { [unowned self] in _ = WlSubcompositor(compositor: self, client: $0, version: $1, id: $2) }
        for head in layout.heads { try offer(head) }
        advertised.append((String(cString: Interface.output.pointee.name), WlOutput.version))
        try addGlobal(Interface.xdgWmBase, XdgWmBase.version) { [unowned self] in _ = XdgWmBase(compositor: self, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.seat, WlSeat.version) { [unowned self] in _ = WlSeat(seat: self.seat, client: $0, version: $1, id: $2) }
        try addGlobal(Interface.relativePointerManager, ZwpRelativePointerManager.version) { [unowned self] in
            _ = ZwpRelativePointerManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.pointerConstraints, ZwpPointerConstraints.version) { [unowned self] in
            _ = ZwpPointerConstraints(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.pointerGestures, ZwpPointerGestures.version) { [unowned self] in
            _ = ZwpPointerGestures(gestures: self.gestures, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.tabletManager, ZwpTabletManager.version) { [unowned self] in
            _ = ZwpTabletManager(tablets: self.tablets, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.dataDeviceManager, WlDataDeviceManager.version) { [unowned self] in
            _ = WlDataDeviceManager(selection: self.selection, seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgOutputManager, ZxdgOutputManager.version) { _ = ZxdgOutputManager(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.singlePixelBufferManager, WpSinglePixelBufferManager.version) { _ = WpSinglePixelBufferManager(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.viewporter, WpViewporter.version) { _ = WpViewporter(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.primarySelectionDeviceManager, ZwpPrimarySelectionDeviceManager.version) { [unowned self] in
            _ = ZwpPrimarySelectionDeviceManager(selection: self.primarySelection, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.idleInhibitManager, ZwpIdleInhibitManager.version) { [unowned self] in
            _ = ZwpIdleInhibitManager(inhibitors: self.idleInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgActivation, XdgActivation.version) { [unowned self] in
            _ = XdgActivation(tokens: self.activationTokens, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.keyboardShortcutsInhibitManager, ZwpKeyboardShortcutsInhibitManager.version) { [unowned self] in
            _ = ZwpKeyboardShortcutsInhibitManager(inhibitors: self.shortcutsInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgExporter, ZxdgExporter.version) { [unowned self] in
            _ = ZxdgExporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.xdgImporter, ZxdgImporter.version) { [unowned self] in
            _ = ZxdgImporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.fractionalScaleManager, WpFractionalScaleManager.version) { [unowned self] in
            _ = WpFractionalScaleManager(output: self.output, client: $0, version: $1, id: $2)
        }
        if options.serverDecorations {
            try addGlobal(Interface.decorationManager, ZxdgDecorationManager.version) { _ = ZxdgDecorationManager(client: $0, version: $1, id: $2) }
        }
        try addGlobal(Interface.presentation, WpPresentation.version) { _ = WpPresentation(client: $0, version: $1, id: $2) }
        try addGlobal(Interface.cursorShapeManager, WpCursorShapeManager.version) { [unowned self] in
            _ = WpCursorShapeManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.pointerWarp, WpPointerWarp.version) { [unowned self] in
            _ = WpPointerWarp(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(Interface.adaptivePointerManager, AdaptivePointerManager.version) { [unowned self] in
            _ = AdaptivePointerManager(compositor: self, client: $0, version: $1, id: $2)
        }
        if options.screencopy {
            // Off unless asked for: whoever binds it reads every window on the screen.
            try addGlobal(Interface.screencopyManager, ZwlrScreencopyManager.version) { [unowned self] in
                _ = ZwlrScreencopyManager(screencopy: self.screencopy, client: $0, version: $1, id: $2)
            }
        }
        if options.testControl {
            // Never offered by default: whoever binds it can inject input and read the screen.
            try addGlobal(Interface.test, LodestoneTest.version) { [unowned self] in _ = LodestoneTest(compositor: self, client: $0, version: $1, id: $2) }
        }
    }

    /// A head's wl_output global, withdrawn with the head (`OutputHead.global`).
    func offer(_ head: OutputHead) throws(SystemError) {
        head.global = try WaylandGlobal(display: display, interface: Interface.output, version: WlOutput.version) { [unowned self] in
            // The head is held until the global is destroyed: a client binding it after
            // the head went (`Compositor.removeOutput`) gets a wl_output all the same.
            _ = WlOutput(head: head, output: self.output, client: $0, version: $1, id: $2)
        }
    }

    private func addGlobal(_ interface: UnsafePointer<wl_interface>, _ version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void) throws(SystemError) {
        globals.append(try WaylandGlobal(display: display, interface: interface, version: version, bind: bind))
        // Remembered for harnesses that must list what we offer (wlcs' extension descriptor).
        advertised.append((String(cString: interface.pointee.name), version))
    }
}
