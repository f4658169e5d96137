import AdaptivePointerClient

/// Drag and drop: a file chip to drag, a folder to drop it on. Over the folder
/// the pointer carries a plus; once the folder is locked (the switch) the plus
/// turns into circle.slash and drops are refused.
final class DropTargetPanel: Panel {
    let caption = "Drop target · plus → circle.slash"
    let card: Box?
    private(set) var locked = false
    private(set) var dropped = 0
    private(set) var draggingChip = false
    private var pointer = Point.outside
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
            return true
        }
        return false
    }

    func pointerMoved(to p: Point, dragging: Bool) -> Bool {
        pointer = p
        return draggingChip
    }

    func pointerReleased(at p: Point) -> Bool {
        pointer = p
        if draggingChip {
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

    private func drawChip(_ c: Canvas, _ b: Box, alpha: Double) {
        c.shadow(b, radius: 8, depth: 3, opacity: 0.15 * alpha)
        c.fill(b, Color(hex: 0x0a64d6, alpha: alpha), radius: 8)
        c.text("▣ photo.jpg", centeredIn: b, Canvas.Font(size: 13, bold: true), Color.panel.with(alpha: alpha))
    }

    func draw(_ c: Canvas) {
        let z = zone
        let over = draggingChip && z.contains(pointer)
        c.fill(z, over ? (locked ? Color(hex: 0xfff0f0) : Color(hex: 0xeaf4ff)) : Color(hex: 0xf8f9fa), radius: 12)
        cairoDash(c, on: true)
        c.stroke(z.inset(1), locked ? .red : .accent, radius: 12, width: 1.5)
        cairoDash(c, on: false)
        c.text(locked ? "Archive (locked)" : "Archive", centeredIn: Box(z.x, z.y + 18, z.width, 24),
               Canvas.Font(size: 14, bold: true), locked ? .red : .accent)
        c.text("\(dropped) file\(dropped == 1 ? "" : "s")", centeredIn: Box(z.x, z.y + 50, z.width, 20), .small, .secondaryInk)
        drawChip(c, chip, alpha: draggingChip ? 0.35 : 1)
        // The switch.
        let s = lockSwitch
        let track = Box(s.x + 4, s.y + 6, 36, 20)
        c.fill(track, locked ? .green : .fill, radius: 10)
        c.circle(at: Point(locked ? track.maxX - 10 : track.x + 10, track.midY), radius: 8, .panel)
        c.text("Lock folder", at: Point(track.maxX + 8, s.midY + 5), Canvas.Font(size: 13))
        c.text(status, at: Point(content.x + 8, card!.maxY - 12), .small, .secondaryInk)
        if draggingChip {
            drawChip(c, Box(pointer.x + 10, pointer.y + 8, 128, 36), alpha: 0.9)  // below-right: the pointer stays visible
        }
    }

    private func cairoDash(_ c: Canvas, on: Bool) { c.dash(on ? [6, 4] : []) }
}
