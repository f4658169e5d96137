@testable import Backends
import XCTest

/// Lodestone's own keys on a TTY and the device kind, with plain values.
final class TTYBindingsTests: XCTestCase {
    func testControlAltFunctionKeySwitchesVTAndSwallowsItsRelease() {
        var b = TTYKeyBindings()
        XCTAssertEqual(b.key(97, pressed: true), .deliver, "right Ctrl goes to the client")
        XCTAssertEqual(b.key(56, pressed: true), .deliver, "left Alt too")
        XCTAssertEqual(b.key(88, pressed: true), .switchToVT(12), "F12")
        XCTAssertEqual(b.key(88, pressed: false), .swallow, "no release without its press")
        XCTAssertEqual(b.key(59, pressed: true), .switchToVT(1), "F1, modifiers still held")
        XCTAssertEqual(b.key(59, pressed: false), .swallow)
        XCTAssertEqual(b.key(56, pressed: false), .deliver)
        XCTAssertEqual(b.key(60, pressed: true), .deliver, "Ctrl+F2 is the client's")
        XCTAssertEqual(b.key(60, pressed: false), .deliver)
        XCTAssertEqual(b.key(97, pressed: false), .deliver)
        XCTAssertEqual(b.key(68, pressed: true), .deliver, "F10 alone is the client's")
    }

    func testEveryFunctionKeyNamesItsVT() {
        XCTAssertEqual((59...68).map { TTYKeyBindings.functionKey($0) }, (1...10).map { $0 })
        XCTAssertEqual(TTYKeyBindings.functionKey(87), 11)
        XCTAssertEqual(TTYKeyBindings.functionKey(88), 12)
        XCTAssertNil(TTYKeyBindings.functionKey(30), "A")
    }

    /// A touchpad (gestures, or at least tapping) hides the pointer after 3.25 s, anything else after 8.
    func testDeviceKindFromCapabilitiesAndTapFingers() {
        XCTAssertEqual(LibinputDeviceKind(gestureCapability: true, tapFingerCount: 3), .touchpad)
        XCTAssertEqual(LibinputDeviceKind(gestureCapability: false, tapFingerCount: 1), .touchpad, "a small touchpad taps without gestures")
        XCTAssertEqual(LibinputDeviceKind(gestureCapability: true, tapFingerCount: 0), .touchpad)
        XCTAssertEqual(LibinputDeviceKind(gestureCapability: false, tapFingerCount: 0), .mouse, "mouse, trackball, trackpoint")
    }

    /// A held key is one press and one release, whatever happens between: clients repeat.
    func testKeysAreTranslatedOnceEach() {
        var t = LibinputTranslator()
        XCTAssertEqual(t.translate(.keyboardKey(key: 30, pressed: true)).count, 1)
        XCTAssertEqual(t.translate(.keyboardKey(key: 30, pressed: false)).count, 1)
    }
}
