import Backends
import WaylandClient
@testable import LodestoneCompositor
import XCTest

/// The TTY path's keyboard, end to end without devices: libinput key events (plain values)
/// through `LibinputTranslator` into the real seat, keymap and xkb state, to a client.
final class TTYKeyboardTests: XCTestCase {
    private var lodestone: InProcessCompositor!
    private var client: TestClient!
    private var window: Window!
    private var translator = LibinputTranslator()

    override func setUpWithError() throws {
        lodestone = try InProcessCompositor()
        client = try lodestone.connect()
        window = try lodestone.mapWindow(on: client, title: "A", x: 100, y: 100, width: 200, height: 150)
        try lodestone.click(at: 150, 150)   // the window has the keyboard
        lodestone.forgetEvents()
    }

    override func tearDown() {
        window = nil
        client = nil
        lodestone = nil
    }

    private func libinput(_ key: UInt32, pressed: Bool) throws {
        for e in translator.translate(.keyboardKey(key: key, pressed: pressed)) { try lodestone.send(e) }
    }

    /// Shift and Caps Lock from "real" key events set the xkb modifiers clients receive.
    func testModifiersComeFromTheKeymapState() throws {
        let shift: UInt32 = 42, capsLock: UInt32 = 58
        try libinput(shift, pressed: true)
        XCTAssertEqual(client.modifierEvents.last?.depressed, 1, "Shift is xkb's first modifier")
        XCTAssertEqual(lodestone.seat.keyboard.modifierState.depressed, 1)
        try libinput(Key.a, pressed: true)
        try libinput(Key.a, pressed: false)
        try libinput(shift, pressed: false)
        XCTAssertEqual(client.modifierEvents.last?.depressed, 0)
        try libinput(capsLock, pressed: true)
        try libinput(capsLock, pressed: false)
        XCTAssertEqual(client.modifierEvents.last?.locked, 2, "Caps Lock locks xkb's Lock modifier")
        XCTAssertEqual(client.keys, [.key(shift, pressed: true), .key(Key.a, pressed: true), .key(Key.a, pressed: false),
                                     .key(shift, pressed: false), .key(capsLock, pressed: true), .key(capsLock, pressed: false)])
    }

    /// Clients repeat keys themselves from repeat_info; Lodestone sends each press once, however
    /// long the key is held.
    func testRepeatInfoIsAdvertisedAndNoRepeatIsSynthesised() throws {
        XCTAssertEqual(client.repeatInfo.count, 1, "sent once, when the keyboard was made")
        XCTAssertEqual(client.repeatInfo.first?.rate, 25, "25 keys per second")
        XCTAssertEqual(client.repeatInfo.first?.delay, 600, "after 600 ms")
        try libinput(Key.a, pressed: true)
        _ = lodestone.compositor.clock.advance(by: 3000)   // far beyond the delay
        lodestone.serve()
        try lodestone.roundtrip()
        try libinput(Key.a, pressed: false)
        XCTAssertEqual(client.keys, [.key(Key.a, pressed: true), .key(Key.a, pressed: false)])
    }

    /// config.toml's `[keyboard]` repeat wins over the parent's (nested), key by key; each
    /// change reaches the client once, and none is sent for a change that changes nothing.
    func testConfiguredRepeatWinsOverTheParentsAndFallsBackKeyByKey() throws {
        let keyboard = lodestone.seat.keyboard
        func sent() throws -> [String] {
            try lodestone.roundtrip()
            return client.repeatInfo.map { "\($0.rate)/\($0.delay)" }
        }
        keyboard.setKeyRepeat(rate: 33, delay: 500)
        XCTAssertEqual(try sent(), ["25/600", "33/500"], "the parent's")
        keyboard.configureKeyRepeat(rate: 0, delay: nil)
        XCTAssertEqual(try sent().last, "0/500", "the file's rate, the parent's delay")
        keyboard.setKeyRepeat(rate: 40, delay: 450)
        XCTAssertEqual(try sent().last, "0/450", "the parent changes only what the file leaves to it")
        keyboard.configureKeyRepeat(rate: nil, delay: nil)
        XCTAssertEqual(try sent().last, "40/450")
        let count = try sent().count
        keyboard.configureKeyRepeat(rate: 40, delay: nil)
        XCTAssertEqual(try sent().count, count, "nothing changed: nothing sent")
    }

    /// Ctrl+Alt+F2 switches VTs and never reaches the client; Ctrl and Alt themselves do.
    func testVTSwitchBindingIsLodestonesAlone() throws {
        var bindings = TTYKeyBindings()
        let ctrl: UInt32 = 29, alt: UInt32 = 56, f2: UInt32 = 60
        var switched: [Int] = []
        for (key, pressed) in [(ctrl, true), (alt, true), (f2, true), (f2, false), (alt, false), (ctrl, false)] {
            switch bindings.key(key, pressed: pressed) {
            case .deliver: try libinput(key, pressed: pressed)
            case .switchToVT(let vt): switched.append(vt)
            case .swallow: break
            }
        }
        XCTAssertEqual(switched, [2])
        XCTAssertEqual(client.keys, [.key(ctrl, pressed: true), .key(alt, pressed: true), .key(alt, pressed: false), .key(ctrl, pressed: false)])
    }
}
