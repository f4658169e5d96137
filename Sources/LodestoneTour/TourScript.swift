import Foundation
import LodestoneTesting

/// The tour's script: one step per behaviour of the adaptive pointer, over
/// the panels of `lodestone-demo` (its window fills the 1280×800 output at
/// 0,0, so window and global coordinates agree). Region identifiers are
/// those of `Sources/lodestone-demo/Panel.swift`.
extension DemoTour {
    static let windowBackground: UInt32 = 0xeef0f4

    public static let script: [TourStep] = [
        TourStep("circle", "A circle over plain content", expect: [
            .kind(.circle), .untargeted,
            .pixel(640, 338, "the circle drawn at the pointer") { distance($0, windowBackground) > 60 },
            .pixel(656, 338, "nothing beyond its radius") { distance($0, windowBackground) < 12 },
        ]) { try $0.move(640, 338) },

        // Toolbar: bar buttons 360, 404, 448, 492 (40×36 at y 12); segments of 80 from x 820.
        TourStep("bar-button", "Highlight: the platter slides under a bar button", expect: [
            .kind(.roundedRect), .effect(.highlight), .target(101),
            .changed(363, 15, by: 8, "the platter's tint inside the button"),
        ]) { try $0.move(380, 30) },
        TourStep("bar-gap", "Contiguous hit regions: no circle between buttons", expect: [
            .kind(.roundedRect), .effect(.highlight), .targeted,
        ]) { try $0.glide(402, 30, steps: 4) },
        TourStep("bar-toggle", "Bold toggled: the button stays on", expect: [
            .kind(.roundedRect), .target(102),
            .pixel(407, 15, "the accent fill of a button that is on", isBluish),
        ]) { d in try d.move(424, 30); try d.click() },
        TourStep("segment", "Segmented control: Month selected", expect: [
            .effect(.highlight), .target(113),
            .pixel(905, 20, "Week no longer raised (the track's grey)") { distance($0, 0xe5e5ea) < 16 },
        ]) { d in try d.glide(1020, 30, steps: 6); try d.click() },

        // App icons: Maps at (48, 112), 64×64, corner radius 15.
        TourStep("icon-lift", "Lift: the icon grows over a shadow, the pointer fades", expect: [
            .effect(.lift), .target(201), .scale(above: 1.05), .alpha(below: 0.1),
            .pixel(80, 130, "the icon's green under the faded pointer") { let c = channels($0); return c.g > c.r + 40 },
            .changed(46, 150, by: 20, "the icon's edge moved outward"),
        ]) { try $0.move(80, 144) },
        TourStep("icon-open", "Click opens the app (running dot)", expect: [
            .target(201),
            .pixel(80, 198, "the running dot under the icon") { brightness($0) < 300 },
        ]) { try $0.click() },

        // Cards: Lisbon at (462, 114), 170×186.
        TourStep("card-hover", "Hover: the card is tinted, scaled, shadowed", expect: [
            .kind(.circle), .effect(.hover), .target(301), .scale(above: 1.02),
            .changed(470, 290, by: 8, "the card's tint or grown edge"),
        ]) { try $0.move(547, 207) },

        // Text: lines of 22 points from y 108, x from 878.
        TourStep("text-beam", "Text: an I-beam as tall as the line", expect: [
            .kind(.verticalBeam), .target(401), .height(22, within: 3),
        ]) { try $0.move(950, 163) },
        TourStep("text-select", "Drag selects, line by line", expect: [
            .kind(.verticalBeam), .target(401),
            .pixel(1100, 132, "the selection behind the whole second line") { distance($0, 0xb3d4fc) < 24 },
            .pixel(950, 154, "the selection reaching the third line") { distance($0, 0xb3d4fc) < 24 },
        ]) { d in
            try d.move(879, 119)
            try d.press()
            try d.glide(1000, 172, steps: 10)
            try d.pause()
            try d.release()
        },

        // Split view: handle at x 184, y 376...520.
        TourStep("split-handle", "Resize handle: arrows on both sides", expect: [
            .target(501), .accessories([.arrow, .arrow]),
        ]) { try $0.move(184, 448) },
        TourStep("split-drag", "Dragging shows width × height beside the pointer", expect: [
            .target(501), .annotation({ $0 == "206 × 144" }, "'206 × 144'"),
            .pixel(244, 460, "the handle's grabber moved with the drag", isBluish),
        ]) { d in try d.press(); try d.glide(244, 448, steps: 10) },

        // Drop target: chip (462, 390) 128×36, folder (622, 380) 196×104, lock switch (462, 446).
        TourStep("drop-plus", "Dragging a file over the folder: plus", expect: [
            .target(602), .accessories([.plus]),
            .pixel(840, 466, "the dragged chip beside the pointer", isBluish),
        ]) { d in
            try d.release()
            try d.move(526, 408)
            try d.press()
            try d.glide(720, 440, steps: 10)
        },
        TourStep("drop-done", "Dropped: the folder counts it", expect: [
            .target(602), .accessories([.plus]),
            .pixel(470, 400, "the chip back in place") { distance($0, 0x0a64d6) < 60 },
        ]) { try $0.release() },
        TourStep("lock", "Lock switch: highlight, and it turns on", expect: [
            .effect(.highlight), .target(603),
            .pixel(472, 462, "the switch's green track (under the platter)") { let c = channels($0); return c.g > c.r + 20 && c.g > c.b },
        ]) { d in try d.glide(532, 462, steps: 6); try d.click() },
        TourStep("drop-unavailable", "Locked folder: circle.slash", expect: [
            .target(602), .accessories([.circleSlash]),
        ]) { try $0.glide(690, 470, steps: 6) },
        TourStep("drop-refused-drag", "Dragging onto the locked folder: circle.slash", expect: [
            .target(602), .accessories([.circleSlash]),
            .pixel(840, 466, "the dragged chip beside the pointer", isBluish),
        ]) { d in
            try d.move(526, 408)
            try d.press()
            try d.glide(720, 440, steps: 10)
        },
        TourStep("drop-refused", "Refused: the chip goes back, the folder unchanged", expect: [
            .target(602), .accessories([.circleSlash]),
            .pixel(470, 400, "the chip back in place") { distance($0, 0x0a64d6) < 60 },
        ]) { try $0.release() },

        // Band selection canvas: (874, 376) 372×144; first shape at (885, 399) 30×30.
        TourStep("band", "Band selection: the pointer becomes the rectangle", expect: [
            .kind(.band),
            .pixel(900, 395, "the first shape's selection outline", isBluish),
        ]) { d in
            try d.move(878, 380)
            try d.press()
            try d.glide(1000, 470, steps: 10)
        },
        TourStep("band-done", "Released: the shapes stay selected", expect: [
            .kind(.circle), .target(701),
            .pixel(900, 395, "the selection outline stays", isBluish),
        ]) { try $0.release() },

        // Graph: plot (64, 582) 334×118, 31 samples.
        TourStep("graph", "Graph: x/y annotation of the nearest sample", expect: [
            .target(801), .annotation({ $0.hasPrefix("day 11 · ") && $0.hasSuffix("°C") }, "'day 11 · … °C'"),
            .changed(175, 590, by: 40, "the app's guide line at the sample"),
        ]) { try $0.glide(175, 640, steps: 8) },

        // Self-hiding toolbar: edge strip y 792...800; bar (390, 736) 500×52 when revealed.
        TourStep("edge-reveal", "Resting on the bottom edge reveals the toolbar", expect: [
            .pixel(400, 745, "the revealed toolbar") { brightness($0) < 200 },
        ]) { try $0.glide(640, 797, steps: 6) },
        TourStep("toolbar-tool", "Its buttons highlight; Ruler picked", expect: [
            .effect(.highlight), .target(1014),
            .pixel(692, 748, "the picked tool's accent", isBluish),
        ]) { d in try d.glide(732, 762, steps: 6); try d.click() },
        TourStep("toolbar-hides", "Leaving it hides the toolbar again", expect: [
            .untargeted,
            .unchanged(400, 745, "the toolbar gone"),
        ]) { try $0.glide(1100, 560, steps: 8) },

        // Drawing canvas: paper (454, 578) 792×134.
        TourStep("sketch", "Drawing: strokes follow the pointer", expect: [
            .target(901),
            .pixel(700, 640, "the stroke") { brightness($0) < 300 },
        ]) { d in
            try d.move(500, 600)
            try d.press()
            try d.glide(900, 680, steps: 16)
            try d.pause()
            try d.release()
        },

        // The pen (a tablet tool) over the same paper; the app's mouse stroke runs from (500, 600) to (900, 680).
        TourStep("pencil-hover", "A pen hovering: the hover preview is the panel's pen, its size and ink", expect: [
            .pixel(1000, 630, "the dot at the pen") { distance($0, paper) > 150 },
            // The panel declares a 6-point pen: radius 5 at distance 0.3 (the plain preview's is 4.15).
            .pixel(1004, 630, "the declared pen's width, wider than the plain preview") { distance($0, paper) > 100 },
            .pixel(1009, 630, "paper just beyond it") { distance($0, paper) < 12 },
            .count(988, 618, 24, 24, 25...120, "a small dot, not a fill") { distance($0, paper) > 60 },
        ]) { d in
            try d.move(640, 338)  // the mouse pointer aside, on plain content
            try d.penHover(1000, 630, distance: 0.3)
        },
        TourStep("pencil-stroke", "The pen touches and draws: pressure rising, the stroke widens", expect: [
            .alpha(below: 0.1),
            .pixel(1000, 630, "no hover dot while the pen touches") { distance($0, paper) < 12 },
            .widening([560, 760, 960, 1140], 695, thinnest: 5, thickest: 12, "width follows pressure (0.1 to 0.95)") { distance($0, paper) > 60 },
            .pixel(1140, 695, "full ink while upright") { brightness($0) < 300 },
        ]) { d in
            try d.penHover(520, 695, distance: 0.05, steps: 8)
            try d.penDown(pressure: 0.1)
            try d.penDraw(1180, 695, pressure: 0.1, to: 0.95, steps: 24)
        },
        TourStep("pencil-tilt", "Tilted 55°: a lighter shade", expect: [
            .alpha(below: 0.1),
            .pixel(1070, 610, "a light grey: tilt shades the stroke") { brightness($0) > 400 && brightness($0) < 650 },
            .pixel(1140, 695, "the upright stroke stays dark") { brightness($0) < 300 },
        ]) { d in
            try d.penUp()
            try d.penHover(960, 610, distance: 0.05, steps: 8)
            try d.penDown(pressure: 0.5, tiltX: 55)
            try d.penDraw(1180, 610, pressure: 0.5, to: 0.5, tiltX: 55, steps: 12)
        },
        TourStep("pencil-lift", "Lifted and gone: the strokes stay, the pointer is back", expect: [
            .alpha(above: 0.5),
            .pixel(1100, 650, "no hover dot once the pen has gone") { distance($0, paper) < 12 },
            .pixel(1140, 695, "the stroke stays") { brightness($0) < 300 },
        ]) { d in
            try d.penUp()
            try d.penHover(1100, 650, distance: 0.5, steps: 6)
            try d.penAway()
        },

        // Scribble: writing below the text area's last line (a writing area, adaptive-pointer-v1
        // version 4) adds a line. "water" traced from a handwriting font (Tests/data/scribble).
        TourStep("scribble-ink", "Scribble: a pen writes below the text's last line; Lodestone draws the ink", expect: [
            .count(874, 284, 120, 50, 150...5000, "the ink over the text area", where: isInk),
        ]) { d in try d.penWrite(handwriting("water"), at: 884, 286) },
        TourStep("scribble-typed", "The pen rests: the word is read on this machine, a new line; the ink fades", expect: [
            .count(874, 284, 120, 50, 0...0, "no ink left", where: isInk),
            .area(874, 286, 100, 22, differsIn: 40, "a ninth line: the word written"),
        ]) { d in
            try d.waitForCapture("the word typed and the ink gone") { shot in
                var ink = 0, text = 0
                for y in 286..<308 { for x in 874..<974 { if isInk(shot[x, y]) { ink += 1 } else if brightness(shot[x, y]) < 300 { text += 1 } } }
                return ink == 0 && text > 20
            }
        },

        // The arrow style, chosen while running by saving config.toml.
        TourStep("arrow", "appearance.style = \"arrow\" saved: iPadOS 26's arrow, its tip at the hand", expect: [
            .kind(.arrow), .untargeted,
            .pixel(643, 346, "the arrow's body below and right of the tip") { distance($0, windowBackground) > 60 },
            .pixel(636, 334, "nothing beyond the tip") { distance($0, windowBackground) < 12 },
        ]) { d in
            try d.move(640, 338)
            try d.saveConfig("[appearance]\nstyle = \"arrow\"\n") { $0.kind == .arrow }
        },
        TourStep("arrow-highlight", "The arrow over a bar button: it becomes the platter, no pull", expect: [
            .kind(.roundedRect), .effect(.highlight), .target(101),
            .changed(363, 15, by: 8, "the platter's tint inside the button"),
        ]) { try $0.move(372, 24) },
    ]
    static let paper: UInt32 = 0xfffdf5

    /// A sample of the committed handwriting (Tests/data/scribble/strokes.txt).
    static func handwriting(_ word: String) -> [[(x: Double, y: Double, pressure: Double)]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let samples = (try? ScribbleSample.load(root.path + "/Tests/data/scribble/strokes.txt")) ?? []
        return samples.first { $0.text == word }?.strokes ?? []
    }
}

/// Scribble's ink (0x1c2a6b and its blends over light backgrounds): blue well above red.
func isInk(_ p: UInt32) -> Bool {
    let r = Int(p >> 16 & 0xff), g = Int(p >> 8 & 0xff), b = Int(p & 0xff)
    return r < 130 && g < 140 && b > r + 25
}
