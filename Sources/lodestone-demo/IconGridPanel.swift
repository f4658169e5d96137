import AdaptivePointerClient

/// A home-screen grid of app icons: the pointer lifts each icon (it grows,
/// casts a shadow, the pointer fades beneath it), its corner radius matching
/// the icon's. Clicking an icon opens the app (a running dot and a status line).
final class IconGridPanel: Panel {
    let caption = "App icons · lift"
    let card: Box?
    struct App { var name: String; var top: Color; var bottom: Color; var symbol: String }
    let apps: [App] = [
        App(name: "Maps", top: Color(hex: 0x7ed957), bottom: Color(hex: 0x2e9e44), symbol: "➤"),
        App(name: "Mail", top: Color(hex: 0x5ac8fa), bottom: Color(hex: 0x0a64d6), symbol: "✉"),
        App(name: "Music", top: Color(hex: 0xff6b81), bottom: Color(hex: 0xd62246), symbol: "♫"),
        App(name: "Notes", top: Color(hex: 0xffe066), bottom: Color(hex: 0xf2b705), symbol: "✎"),
        App(name: "Photos", top: Color(hex: 0xffb86b), bottom: Color(hex: 0xe8590c), symbol: "✿"),
        App(name: "Clock", top: Color(hex: 0x3a3a3c), bottom: Color(hex: 0x111113), symbol: "◷"),
        App(name: "Chess", top: Color(hex: 0xb197fc), bottom: Color(hex: 0x6741d9), symbol: "♞"),
        App(name: "Weather", top: Color(hex: 0x74c0fc), bottom: Color(hex: 0x1c7ed6), symbol: "☀"),
    ]
    static let iconSize = 64.0, cornerRadius = 15.0
    private(set) var open: Set<Int> = []
    private var lastOpened: Int?
    private var pressed: Int?

    init(card: Box) { self.card = card }

    func icon(_ i: Int) -> Box {
        Box(content.x + 14 + Double(i % 4) * 92, content.y + 6 + Double(i / 4) * 98, Self.iconSize, Self.iconSize)
    }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        for i in apps.indices {
            var d = RegionDescription(frame: icon(i).frame, effect: .lift, identifier: RegionID.icons + UInt32(i))
            d.cornerRadius = Self.cornerRadius
            d.opaque = true
            regions.add(d)
        }
    }

    private func hit(_ p: Point) -> Int? { apps.indices.first { icon($0).inset(-6).contains(p) } }

    func pointerPressed(at p: Point) -> Bool { pressed = hit(p); return false }

    func pointerReleased(at p: Point) -> Bool {
        defer { pressed = nil }
        guard let i = hit(p), i == pressed else { return false }
        if open.contains(i) { open.remove(i) } else { open.insert(i) }
        lastOpened = i
        return true
    }

    func draw(_ c: Canvas) {
        for (i, app) in apps.enumerated() {
            let b = icon(i)
            c.gradient(b, top: app.top, bottom: app.bottom, radius: Self.cornerRadius)
            c.text(app.symbol, centeredIn: b, Canvas.Font(size: 30), .panel)
            c.text(app.name, centeredIn: Box(b.x - 10, b.maxY + 4, b.width + 20, 14), .small, .ink)
            if open.contains(i) { c.circle(at: Point(b.midX, b.maxY + 22), radius: 2.5, .ink) }
        }
        let status: String
        if let i = lastOpened { status = open.contains(i) ? "Opened \(apps[i].name)" : "Closed \(apps[i].name)" } else {
            status = "Click an icon to open it"
        }
        c.text(status, at: Point(content.x + 14, card!.maxY - 12), .small, .secondaryInk)
    }
}
