import Rendering
import XCTest

/// Damage tracking at the bottom: a repaint touches only the damaged pixels.
final class RendererTests: XCTestCase {
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
}
