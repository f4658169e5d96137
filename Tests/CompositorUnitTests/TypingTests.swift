@testable import LodestoneCompositor
import WaylandClient
import XCTest

/// Typing hides the adaptive pointer until it moves; holding a modifier for a shortcut or a
/// Shift-click is not typing.
final class TypingTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var window: Window!

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        client = try lodestone.connect()
        window = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 150)
        try lodestone.click(at: 150, 150)   // the window has the keyboard
    }

    override func tearDown() {
        window = nil
        client = nil
        lodestone = nil
    }

    /// Evdev codes (linux/input-event-codes.h).
    private let leftShift: UInt32 = 42, leftCtrl: UInt32 = 29, leftAlt: UInt32 = 56, leftMeta: UInt32 = 125
    private let rightAlt: UInt32 = 100, capsLock: UInt32 = 58, numLock: UInt32 = 69

    private var pointerShown: Bool { lodestone.compositor.settlePointer().isVisible }

    func testModifierKeysAloneDoNotHideThePointer() throws {
        XCTAssertTrue(pointerShown)
        for key in [leftShift, leftCtrl, leftAlt, leftMeta, rightAlt, capsLock, numLock] {
            try lodestone.type(key)
            XCTAssertTrue(pointerShown, "key \(key) hid the pointer as typing")
        }
        try lodestone.send(.key(code: leftShift, pressed: true))
        try lodestone.type(Key.a)           // Shift+A is typing
        try lodestone.send(.key(code: leftShift, pressed: false))
        XCTAssertFalse(pointerShown)
        XCTAssertEqual(client.keys.filter { $0 == .key(leftShift, pressed: true) }.count, 2,
                       "modifiers still reach the client")
    }

    func testKeymapKnowsItsModifierKeys() throws {
        let keymap = try XCTUnwrap(Keymap(layout: "us"))
        for key in [leftShift, 54 /* right Shift */, leftCtrl, 97 /* right Ctrl */, leftAlt, rightAlt,
                    leftMeta, 126 /* right Meta */, capsLock, numLock] {
            XCTAssertTrue(keymap.isModifier(key: key), "key \(key)")
        }
        for key in [Key.a, Key.b, 57 /* space */, 28 /* Enter */, 14 /* Backspace */, 1 /* Esc */, 59 /* F1 */] {
            XCTAssertFalse(keymap.isModifier(key: key), "key \(key)")
        }
        // In a layout where right Alt is AltGr (ISO_Level3_Shift), it is still a modifier.
        let german = try XCTUnwrap(Keymap(layout: "de"))
        XCTAssertTrue(german.isModifier(key: rightAlt))
    }
}
