import CWaylandServer
import LodestoneSystem
import WaylandServer

/// The globals Lodestone offers: each binds a protocol handler (`Protocols/`) to the state
/// behind it. A few are offered only when asked for (screencopy, the test protocol).
extension Compositor {
    func addGlobals(_ options: Options) throws(SystemError) {
        try display.initShm()
        try addGlobal(WlCompositor.interface, WlCompositor.version) { [unowned self] in _ = WlCompositor(host: self, client: $0, version: $1, id: $2) }
        try addGlobal(WlSubcompositor.interface, WlSubcompositor.version) { [unowned self] in _ = WlSubcompositor(host: self, client: $0, version: $1, id: $2) }
        for head in layout.heads { try offer(head) }
        advertised.append((String(cString: WlOutput.interface.pointee.name), WlOutput.version))
        try addGlobal(XdgWmBase.interface, XdgWmBase.version) { [unowned self] in _ = XdgWmBase(host: self, client: $0, version: $1, id: $2) }
        try addGlobal(WlSeat.interface, WlSeat.version) { [unowned self] in _ = WlSeat(seat: self.seat, client: $0, version: $1, id: $2) }
        try addGlobal(ZwpRelativePointerManager.interface, ZwpRelativePointerManager.version) { [unowned self] in
            _ = ZwpRelativePointerManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpPointerConstraints.interface, ZwpPointerConstraints.version) { [unowned self] in
            _ = ZwpPointerConstraints(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpPointerGestures.interface, ZwpPointerGestures.version) { [unowned self] in
            _ = ZwpPointerGestures(gestures: self.gestures, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpTabletManager.interface, ZwpTabletManager.version) { [unowned self] in
            _ = ZwpTabletManager(tablets: self.tablets, client: $0, version: $1, id: $2)
        }
        try addGlobal(WlDataDeviceManager.interface, WlDataDeviceManager.version) { [unowned self] in
            _ = WlDataDeviceManager(selection: self.selection, seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZxdgOutputManager.interface, ZxdgOutputManager.version) { _ = ZxdgOutputManager(client: $0, version: $1, id: $2) }
        try addGlobal(WpSinglePixelBufferManager.interface, WpSinglePixelBufferManager.version) { _ = WpSinglePixelBufferManager(client: $0, version: $1, id: $2) }
        try addGlobal(WpViewporter.interface, WpViewporter.version) { _ = WpViewporter(client: $0, version: $1, id: $2) }
        try addGlobal(ZwpPrimarySelectionDeviceManager.interface, ZwpPrimarySelectionDeviceManager.version) { [unowned self] in
            _ = ZwpPrimarySelectionDeviceManager(selection: self.primarySelection, client: $0, version: $1, id: $2)
        }
        if options.dataControl {
            try addGlobal(ZwlrDataControlManager.interface, ZwlrDataControlManager.version) { [unowned self] in
                _ = ZwlrDataControlManager(dataControl: self.dataControl, client: $0, version: $1, id: $2)
            }
        }
        try addGlobal(ZwpIdleInhibitManager.interface, ZwpIdleInhibitManager.version) { [unowned self] in
            _ = ZwpIdleInhibitManager(inhibitors: self.idleInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(XdgActivation.interface, XdgActivation.version) { [unowned self] in
            _ = XdgActivation(tokens: self.activationTokens, activation: self, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpKeyboardShortcutsInhibitManager.interface, ZwpKeyboardShortcutsInhibitManager.version) { [unowned self] in
            _ = ZwpKeyboardShortcutsInhibitManager(inhibitors: self.shortcutsInhibitors, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZxdgExporter.interface, ZxdgExporter.version) { [unowned self] in
            _ = ZxdgExporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZxdgImporter.interface, ZxdgImporter.version) { [unowned self] in
            _ = ZxdgImporter(exports: self.foreignExports, client: $0, version: $1, id: $2)
        }
        try addGlobal(WpFractionalScaleManager.interface, WpFractionalScaleManager.version) { [unowned self] in
            _ = WpFractionalScaleManager(output: self.output, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwlrLayerShell.interface, ZwlrLayerShell.version) { [unowned self] in
            _ = ZwlrLayerShell(layers: self.layerShell, seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(ExtSessionLockManager.interface, ExtSessionLockManager.version) { [unowned self] in
            _ = ExtSessionLockManager(sessionLock: self.sessionLock, host: self, client: $0, version: $1, id: $2)
        }
        if options.serverDecorations {
            try addGlobal(ZxdgDecorationManager.interface, ZxdgDecorationManager.version) { _ = ZxdgDecorationManager(client: $0, version: $1, id: $2) }
        }
        try addGlobal(WpPresentation.interface, WpPresentation.version) { _ = WpPresentation(client: $0, version: $1, id: $2) }
        try addGlobal(WpCursorShapeManager.interface, WpCursorShapeManager.version) { [unowned self] in
            _ = WpCursorShapeManager(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(WpPointerWarp.interface, WpPointerWarp.version) { [unowned self] in
            _ = WpPointerWarp(seat: self.seat, client: $0, version: $1, id: $2)
        }
        try addGlobal(AdaptivePointerManager.interface, AdaptivePointerManager.version) { [unowned self] in
            _ = AdaptivePointerManager(host: self, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwlrOutputManager.interface, ZwlrOutputManager.version) { [unowned self] in
            _ = ZwlrOutputManager(host: self, client: $0, version: $1, id: $2)
        }
        try addGlobal(ExtIdleNotifier.interface, ExtIdleNotifier.version) { [unowned self] in
            _ = ExtIdleNotifier(notifier: self.idleNotifier, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwlrForeignToplevelManager.interface, ZwlrForeignToplevelManager.version) { [unowned self] in
            _ = ZwlrForeignToplevelManager(toplevels: self.foreignToplevels, taskBar: self, client: $0, version: $1, id: $2)
        }
        try addGlobal(ExtForeignToplevelList.interface, ExtForeignToplevelList.version) { [unowned self] in
            _ = ExtForeignToplevelList(toplevels: self.foreignToplevels, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpTextInputManager.interface, ZwpTextInputManager.version) { [unowned self] in
            _ = ZwpTextInputManager(textInputs: self.textInputs, client: $0, version: $1, id: $2)
        }
        // Qt 6.4's text input.
        try addGlobal(ZwpTextInputManagerV1.interface, ZwpTextInputManagerV1.version) { [unowned self] in
            _ = ZwpTextInputManagerV1(textInputs: self.textInputs, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpInputMethodManager.interface, ZwpInputMethodManager.version) { [unowned self] in
            _ = ZwpInputMethodManager(textInputs: self.textInputs, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpVirtualKeyboardManager.interface, ZwpVirtualKeyboardManager.version) { [unowned self] in
            _ = ZwpVirtualKeyboardManager(keyboard: self.seat.keyboard, client: $0, version: $1, id: $2)
        }
        try addGlobal(ZwpLinuxDmabuf.interface, ZwpLinuxDmabuf.version) { [unowned self] in
            _ = ZwpLinuxDmabuf(dmabuf: self.dmabuf, client: $0, version: $1, id: $2)
        }
        if options.screencopy {
            // Off unless asked for: whoever binds it reads every window on the screen.
            try addGlobal(ZwlrScreencopyManager.interface, ZwlrScreencopyManager.version) { [unowned self] in
                _ = ZwlrScreencopyManager(screencopy: self.screencopy, source: self, client: $0, version: $1, id: $2)
            }
        }
        if options.testControl {
            // Never offered by default: whoever binds it can inject input and read the screen.
            try addGlobal(LodestoneTest.interface, LodestoneTest.version) { [unowned self] in _ = LodestoneTest(host: self, client: $0, version: $1, id: $2) }
        }
    }

    /// A head's wl_output global, withdrawn with the head (`OutputHead.global`).
    func offer(_ head: OutputHead) throws(SystemError) {
        head.global = try WaylandGlobal(display: display, interface: WlOutput.interface, version: WlOutput.version) { [unowned self] client, version, id in
            // The head is held until the global is destroyed: a client binding it after
            // the head went (`Compositor.removeOutput`) gets a wl_output all the same.
            guard WlOutput(head: head, output: self.output, client: client, version: version, id: id) != nil else { return }
            // The client's surfaces already on the head enter it now.
            self.scene.forEachMappedRoot { if $0.client == client { self.updateOutputs(of: $0) } }
            // A task bar's windows enter its new wl_output.
            self.foreignToplevels.needsUpdate()
        }
    }

    private func addGlobal(_ interface: UnsafePointer<wl_interface>, _ version: Int32, bind: @escaping (Client, UInt32, UInt32) -> Void) throws(SystemError) {
        globals.append(try WaylandGlobal(display: display, interface: interface, version: version, bind: bind))
        // Remembered for harnesses that must list what we offer (wlcs' extension descriptor).
        advertised.append((String(cString: interface.pointee.name), version))
    }
}
