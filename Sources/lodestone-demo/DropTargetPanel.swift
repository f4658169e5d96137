import AdaptivePointerClient

/// Drag and drop: a file chip to drag, a folder to drop it on. The chip is a real drag
/// (`DemoDragAndDrop`: wl_data_device.start_drag, its picture as the icon), and the folder
/// takes real drops, the chip's or another app's text or URIs. Over the folder the pointer
/// carries a plus; once the folder is locked (the switch) the plus turns into circle.slash
/// and drops are refused. Without a data device the panel imitates the drag itself.
final class DropTargetPanel: Panel {
    let caption = "Drop target · plus → circle.slash"
    let card: Box?
    private(set) var locked = false
    private(set) var dropped = 0
    /// The chip is held: by an imitated drag (wl_pointer events) or a real one.
    private(set) var draggingChip = false
    private var realDrag = false
    /// Starts a real drag of the chip; false if there is none to be had.
    var startDrag: (() -> Bool)?
    private var pointer = Point.outside
    /// Where a real drag is over the window (ours or another app's).
    private var dragOver: Point?
    private var status = "Drag photo.jpg onto the folder"
    private var zoneRegion: PointerRegion?
    private var zoneDescription: RegionDescription?

    init(card: Box) { self.card = card }

    var chip: Box { Box(content.x + 8, content.y + 14, 128, 36) }
    var zone: Box { Box(content.x + 168, content.y + 4, 196, 104) }
    var lockSwitch: Box { Box(content.x + 8, content.y + 70, 140, 32) }

    func declare(on regions: SurfaceRegions, _ invalidate: @escaping () -> Void) {
        var chipRegion = RegionDescription(frame: chip.frame, effect: .lift, identifier: RegionID.dragChip)
        chipRegion.opaque = true
        regions.add(chipRegion)
        var z = RegionDescription(frame: zone.frame, effect: .hover, identifier: RegionID.dropZone)
        z.hover = (.overlay, false, false)
        z.hitArea = .bezelless
        z.cornerRadius = 12
        // A badge at the pointer's top right, upright as on iPadOS (protocol version 2).
        z.accessories = [.init(.plus, angle: 45, offset: 2, upright: true)]
        zoneDescription = z
        zoneRegion = regions.add(z)
        regions.add(RegionDescription(frame: lockSwitch.frame, effect: .highlight, identifier: RegionID.lockSwitch))
    }

    private func updateZone() {
        guard var z = zoneDescription else { return }
        z.accessories = [.init(locked ? .circleSlash : .plus, angle: 45, offset: 2, upright: true)]
        zoneDescription = z
        zoneRegion?.apply(z)
    }

    func pointerPressed(at p: Point) -> Bool {
        pointer = p
        if chip.inset(-4).contains(p) {
            draggingChip = true
            realDrag = startDrag?() ?? false
            return true
        }
        return false
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        pointer = p
        return draggingChip && !realDrag
    }

    func pointerReleased(at p: Point) -> Bool {
        pointer = p
        if draggingChip, !realDrag {
            draggingChip = false
            if zone.contains(p) {
                if locked { status = "Refused: the folder is locked" } else {
                    dropped += 1
                    status = "Dropped photo.jpg (\(dropped) in folder)"
                }
            } else {
                status = "Drag photo.jpg onto the folder"
            }
            return true
        }
        if lockSwitch.inset(-4).contains(p) {
            locked.toggle()
            status = locked ? "Folder locked: drops are unavailable" : "Folder unlocked"
            updateZone()
            return true
        }
        return false
    }

    // MARK: Real drags

    /// The real drag of the chip ended (dropped or cancelled).
    func chipDragEnded() {
        draggingChip = false
        realDrag = false
    }

    /// Whether a drop at `p` is taken: on the folder, while it is unlocked.
    func accepts(_ p: Point) -> Bool { zone.contains(p) && !locked }

    /// A real drag moved over the window (nil: it dropped).
    func dragHovered(_ p: Point?) -> Bool {
        let was = dragOver.map(zone.contains) ?? false, now = p.map(zone.contains) ?? false
        dragOver = p
        return was != now
    }

    /// The drag left from `p`: over the locked folder, that was a refused drop.
    func dragLeft(at p: Point) {
        dragOver = nil
        if zone.contains(p), locked { status = "Refused: the folder is locked" }
    }

    /// A drop's data arrived: the chip's name, a file's URI or some text.
    func dropArrived(mime: String, bytes: [UInt8]) {
        dropped += 1
        status = "Dropped \(Self.name(of: bytes, mime: mime)) (\(dropped) in folder)"
    }

    /// What to call the dropped thing: a URI list's first file name, or the text's first line.
    static func name(of bytes: [UInt8], mime: String) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        var name = (mime == "text/uri-list" ? lines.first { !$0.hasPrefix("#") }.map { String($0.split(separator: "/").last ?? "") } : lines.first) ?? ""
        if name.count > 28 { name = String(name.prefix(27)) + "…" }
        return name.isEmpty ? "an empty drop" : name
    }

    /// The chip's picture alone, for the drag icon: `icon` large, the chip `iconInset` in.
    static let iconSize = (width: Int32(136), height: Int32(46))
    static let iconInset = 4.0
    static func drawIcon(_ c: Canvas) { drawChip(c, Box(iconInset, iconInset, 128, 36), alpha: 0.9) }

    private static func drawChip(_ c: Canvas, _ b: Box, alpha: Double) {
        c.shadow(b, radius: 8, depth: 3, opacity: 0.15 * alpha)
        c.fill(b, Color(hex: 0x0a64d6, alpha: alpha), radius: 8)
        c.text("▣ photo.jpg", centeredIn: b, Canvas.Font(size: 13, bold: true), Color.panel.with(alpha: alpha))
    }

    func draw(_ c: Canvas) {
        let z = zone
        let over = (draggingChip && !realDrag && z.contains(pointer)) || (dragOver.map(z.contains) ?? false)
        c.fill(z, over ? (locked ? Color(hex: 0xfff0f0) : Color(hex: 0xeaf4ff)) : Color(hex: 0xf8f9fa), radius: 12)
        cairoDash(c, on: true)
        c.stroke(z.inset(1), locked ? .red : .accent, radius: 12, width: 1.5)
        cairoDash(c, on: false)
        c.text(locked ? "Archive (locked)" : "Archive", centeredIn: Box(z.x, z.y + 18, z.width, 24),
               Canvas.Font(size: 14, bold: true), locked ? .red : .accent)
        c.text("\(dropped) file\(dropped == 1 ? "" : "s")", centeredIn: Box(z.x, z.y + 50, z.width, 20), .small, .secondaryInk)
        Self.drawChip(c, chip, alpha: draggingChip ? 0.35 : 1)
        // The switch.
        let s = lockSwitch
        let track = Box(s.x + 4, s.y + 6, 36, 20)
        c.fill(track, locked ? .green : .fill, radius: 10)
        c.circle(at: Point(locked ? track.maxX - 10 : track.x + 10, track.midY), radius: 8, .panel)
        c.text("Lock folder", at: Point(track.maxX + 8, s.midY + 5), Canvas.Font(size: 13))
        c.text(status, at: Point(content.x + 8, card!.maxY - 12), .small, .secondaryInk)
        if draggingChip, !realDrag {
            Self.drawChip(c, Box(pointer.x + 10, pointer.y + 8, 128, 36), alpha: 0.9)  // below-right: the pointer stays visible
        }
    }

    private func cairoDash(_ c: Canvas, on: Bool) { c.dash(on ? [6, 4] : []) }
}
