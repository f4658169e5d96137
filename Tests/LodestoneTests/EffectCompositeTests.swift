import XCTest
@testable import AdaptivePointerEngine
@testable import Rendering

/// A lifted element's pixels and specular are drawn with pixman through cached masks
/// (`EffectComposite.swift`) instead of cairo's clip, surface pattern and gradient. These
/// compare the two on the same scene: the cairo drawing here is what `EffectLayer` did before,
/// at subpixel positions and scales the element passes through as it follows the pointer.
final class EffectCompositeTests: XCTestCase {
    /// A scene with sharp detail everywhere: a light checkerboard, and a blue element with a
    /// dark glyph-like bar in it.
    private func scene(scale: Double) -> Image {
        let w = Int32(110 * scale), h = Int32(90 * scale)
        let image = Image(width: w, height: h, format: .argb8888)
        let row = Int(image.stride / 4)
        for y in 0..<Int(h) {
            for x in 0..<Int(w) {
                var p: UInt32 = (x / 3 + y / 3) % 2 == 0 ? 0xffe8_e8e8 : 0xffc8_c8d0
                let lx = Double(x) / scale, ly = Double(y) / scale
                if lx >= 40 && lx < 72 && ly >= 30 && ly < 58 { p = (Int(lx) / 4) % 3 == 0 ? 0xff10_2040 : 0xff30_70e0 }
                image.withPixels { $0[y * row + x] = p }
            }
        }
        return image
    }

    private func lift(scale: Double, translation: Vector<Global>, specular: Bool) -> ContentEffect {
        let frame = Rect<Global>(x: 40, y: 30, width: 32, height: 28)
        return ContentEffect(
            region: RegionID(1), identifier: 1, kind: .lift, progress: 1, frame: frame, scale: scale, translation: translation,
            shadow: nil,
            specular: specular ? SpecularEffect(center: Point(x: 52.3, y: 41.7), radius: 24, opacity: 0.07) : nil,
            tint: nil, platter: nil, cornerRadius: 7)
    }

    /// What the cairo path drew: the snapshot moved and scaled inside the element's rounded
    /// outline, then the specular added inside the moved outline.
    private func drawWithCairo(_ e: ContentEffect, _ px: EffectPixels, into target: Image, scale: Double) {
        let surface = CairoSurface(over: target)!
        surface.markDirty()
        let cr = CairoContext(drawingOn: surface)!
        cr.scale(scale, scale)
        let radius = min(e.cornerRadius, e.frame.width / 2, e.frame.height / 2)
        cr.save()
        let c = e.frame.center
        cr.translate(c.x + e.translation.dx, c.y + e.translation.dy)
        cr.scale(e.scale, e.scale)
        cr.translate(-c.x, -c.y)
        cr.roundedRect(x: e.frame.minX, y: e.frame.minY, width: e.frame.width, height: e.frame.height, radius: radius)
        cr.clip()
        cr.translate(px.x, px.y)
        cr.scale(px.width / Double(px.pixelWidth), px.height / Double(px.pixelHeight))
        cr.setSource(px.surface, x: 0, y: 0, filter: .good)
        cr.paint()
        cr.restore()
        if let s = e.specular {
            let t = e.transformedFrame
            cr.save()
            cr.roundedRect(x: t.minX, y: t.minY, width: t.width, height: t.height, radius: radius * e.scale)
            cr.clip()
            cr.setOperator(.add)
            cr.setSourceRadialGradient(centerX: s.center.x, centerY: s.center.y, radius: s.radius,
                                       white: SpecularGradient.stops.map { ($0.offset, s.opacity * $0.share) })
            cr.paint()
            cr.restore()
        }
        cr.destroy()
        surface.flush()
        surface.destroy()
    }

    /// Draws `e` both ways; returns the largest channel difference and how many pixels differ
    /// by more than 8 levels (the golden pictures' tolerance).
    private func compare(_ e: ContentEffect, scale: Double, file: StaticString = #filePath, line: UInt = #line)
        -> (worst: Int, differing: Int) {
        let pixmanImage = scene(scale: scale), cairoImage = scene(scale: scale)
        let snapshot = SnapshotBuffer()
        let masks = EffectMasks()
        let all = PixelRegion(PixelRect(x: 0, y: 0, width: pixmanImage.width, height: pixmanImage.height))
        let layer = EffectLayer(e, preview: nil, previewSurface: CairoSurfaceCache(), scene: pixmanImage, scale: scale,
                                snapshot: snapshot, masks: masks)
        guard let px = layer.pixels else {
            XCTFail("no snapshot taken", file: file, line: line)
            return (255, 0)
        }
        XCTAssertTrue(layer.compositePixels(px, scale: scale, into: pixmanImage, clip: all), "pixman declined the pixels",
                      file: file, line: line)
        if let s = e.specular {
            XCTAssertTrue(layer.compositeSpecular(s, scale: scale, into: pixmanImage, clip: all), "pixman declined the specular",
                          file: file, line: line)
        }
        // The buffer owns the snapshot's pixels and surface: kept until cairo has drawn them.
        let referenceBuffer = SnapshotBuffer()
        let reference = referenceBuffer.take(cairoImage, e.frame.minX, e.frame.minY, e.frame.width, e.frame.height, scale)!
        withExtendedLifetime(referenceBuffer) { drawWithCairo(e, reference, into: cairoImage, scale: scale) }
        var worst = 0, differing = 0
        for y in 0..<pixmanImage.height {
            for x in 0..<pixmanImage.width {
                let a = pixmanImage.pixel(x: x, y: y), b = cairoImage.pixel(x: x, y: y)
                var d = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    d = max(d, abs(Int(a >> UInt32(shift) & 0xff) - Int(b >> UInt32(shift) & 0xff)))
                }
                worst = max(worst, d)
                if d > 8 { differing += 1 }
            }
        }
        return (worst, differing)
    }

    func testLiftedPixelsMatchCairoAtSubpixelPositionsAndScales() {
        for outputScale in [1.0, 2.0] {
            for (scale, dx, dy) in [(1.0, 1.0, -2.0), (1.07, 0.37, -0.61), (1.2375, 2.5, 1.125), (1.03, -1.93, 0.05)] {
                let (worst, differing) = compare(lift(scale: scale, translation: Vector(dx: dx, dy: dy), specular: false),
                                                 scale: outputScale)
                // Only the outline's antialiasing differs (a mask at 1/64 pixel, filled where cairo
                // clipped), by a few levels along edges of full contrast: within the golden
                // pictures' 8 levels, and no pixel beyond them.
                XCTAssertLessThanOrEqual(worst, 8, "scale \(scale) at (\(dx), \(dy)), output ×\(outputScale)")
                XCTAssertEqual(differing, 0)
            }
        }
    }

    func testSpecularMatchesCairosGradient() {
        for outputScale in [1.0, 2.0] {
            let (worst, differing) = compare(lift(scale: 1.07, translation: Vector(dx: 0.37, dy: -0.61), specular: true),
                                             scale: outputScale)
            // The glow's centre sits on the nearest pixel corner (under a level a pixel of slope);
            // the outline as above.
            XCTAssertLessThanOrEqual(worst, 8, "output ×\(outputScale)")
            XCTAssertEqual(differing, 0)
        }
    }

    /// The outline mask is made once per shape and subpixel position and reused: a lifted
    /// element moving back and forth over the same positions makes no new masks.
    func testOutlineMasksAreReusedAcrossFrames() {
        let masks = RoundedRectMasks(steps: 64)
        var made = Set<UInt>()
        func frame(_ x: Double) {
            XCTAssertTrue(masks.withMask(x: x, y: 30.25, width: 34.24, height: 29.96, radius: 7.49) { mask, _ in
                made.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(mask))))
            })
        }
        let path = (0..<8).map { 40 + Double($0) * 0.1 }
        // The first pass makes a mask of each position (the very first, while the shape is
        // new, only for its frame); the second finds them all but that one, which it makes.
        for _ in 0..<2 { for x in path { frame(x) } }
        let kept = made
        for _ in 0..<5 { for x in path.reversed() + path { frame(x) } }
        XCTAssertEqual(made, kept, "a mask was made again for a position already seen")
    }
}
