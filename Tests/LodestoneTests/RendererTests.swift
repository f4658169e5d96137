import Rendering
import XCTest

/// Damage tracking at the bottom: a repaint touches only the damaged pixels.
final class RendererTests: XCTestCase {
    /// A size a client chose that pixman cannot allocate is refused (logged), not fatal: a
    /// title bar as wide as a window a client made 2³¹−1 points wide ended the compositor
    /// before issue 25.
    func testImagesOfClientSizesPixmanCannotAllocateAreRefused() {
        XCTAssertNil(Image.clientSized(width: .max, height: .max, format: .argb8888, for: "a test"))
        XCTAssertNil(TitleBarImage.draw(title: "wide", width: .max, scale: 1, pixelWidth: .max, pixelHeight: 30, activated: true))
        let bar = TitleBarImage.draw(title: "narrow", width: 200, scale: 1, pixelWidth: 200, pixelHeight: 30, activated: true)
        XCTAssertEqual(bar.map { [$0.width, $0.height] }, [200, 30])
    }

    func testRepaintTouchesOnlyTheDamage() {
        let target = Image(width: 200, height: 100, format: .xrgb8888)
        target.fill(PixelRect(x: 0, y: 0, width: 200, height: 100), color: 0xff11_2233)
        let content = Image(width: 200, height: 100, format: .xrgb8888)
        content.fill(PixelRect(x: 0, y: 0, width: 200, height: 100), color: 0xffaa_bbcc)
        let element = RenderElement(image: content, bounds: PixelRect(x: 0, y: 0, width: 200, height: 100), outputToImage: .identity, opaque: true)
        let damage = PixelRegion(PixelRect(x: 40, y: 20, width: 32, height: 32))
        Renderer().render([element], into: target, damage: damage)
        for y in 0..<Int32(100) {
            for x in 0..<Int32(200) {
                let inside = x >= 40 && x < 72 && y >= 20 && y < 52
                XCTAssertEqual(target.pixel(x: x, y: y) & 0xffffff, inside ? 0xaabbcc : 0x112233, "pixel \(x),\(y)")
                if target.pixel(x: x, y: y) & 0xffffff != (inside ? 0xaabbcc : 0x112233) { return }
            }
        }
    }

    func testTranslucentElementBlendsOverBackground() {
        let target = Image(width: 10, height: 10, format: .xrgb8888)
        let content = Image(width: 10, height: 10, format: .argb8888)
        content.fill(PixelRect(x: 0, y: 0, width: 10, height: 10), color: 0x8080_0000)  // half-transparent red, premultiplied
        var renderer = Renderer()
        renderer.background = 0xff00_0000
        renderer.render([RenderElement(image: content, bounds: PixelRect(x: 0, y: 0, width: 10, height: 10), outputToImage: .identity)],
                        into: target, damage: PixelRegion(PixelRect(x: 0, y: 0, width: 10, height: 10)))
        XCTAssertEqual(target.pixel(x: 5, y: 5) & 0xffffff, 0x80_0000)
    }

    /// Opaque windows hide what is beneath them: the background and lower elements are not
    /// drawn where they cover the damage, and what is above still blends over them.
    func testOpaqueElementsOccludeWhatIsBeneath() {
        final class CountingOverlay: OverlayElement {
            var draws = 0
            func draw(into target: Image, damage: PixelRegion) { draws += 1 }
        }
        func solid(_ color: UInt32, _ format: Image.Format = .xrgb8888) -> Image {
            let image = Image(width: 100, height: 100, format: format)
            image.fill(PixelRect(x: 0, y: 0, width: 100, height: 100), color: color)
            return image
        }
        let full = PixelRect(x: 0, y: 0, width: 100, height: 100)
        let left = PixelRect(x: 0, y: 0, width: 50, height: 100)
        let beneath = CountingOverlay()
        let elements: [RenderElement] = [
            .overlay(beneath),
            RenderElement(image: solid(0xff00_ff00), bounds: full, outputToImage: .identity, opaque: true),
            RenderElement(image: solid(0xff00_00ff), bounds: left, outputToImage: .identity, opaque: true),
            RenderElement(image: solid(0x8080_0000, .argb8888), bounds: full, outputToImage: .identity),
        ]
        let target = Image(width: 100, height: 100, format: .xrgb8888)
        var renderer = Renderer()
        renderer.background = 0xffff_ffff
        renderer.render(elements, into: target, damage: PixelRegion(full))
        XCTAssertEqual(beneath.draws, 0, "an overlay under a window covering the damage is not drawn")
        XCTAssertEqual(target.pixel(x: 20, y: 50) & 0xffffff, 0x80_007f, "half red over the blue window")
        XCTAssertEqual(target.pixel(x: 80, y: 50) & 0xffffff, 0x80_7f00, "half red over the green window")

        // A window drawn translucent (alpha < 1) covers nothing: the background shows through.
        let faded = [RenderElement(image: solid(0xff00_0000), bounds: full, outputToImage: .identity, opaque: true, alpha: 0.5)]
        renderer.render(faded, into: target, damage: PixelRegion(full))
        XCTAssertEqual(Double(target.pixel(x: 50, y: 50) & 0xff), 127.5, accuracy: 1, "white background under a half-faded black window")
        // Where no window lands, the background is painted.
        renderer.render([elements[2]], into: target, damage: PixelRegion(full))
        XCTAssertEqual(target.pixel(x: 80, y: 50) & 0xffffff, 0xffffff)
        XCTAssertEqual(target.pixel(x: 20, y: 50) & 0xffffff, 0x0000ff)
    }
}
