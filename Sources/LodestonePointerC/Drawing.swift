// liblodestone-pointer: drawing a frame into the host's pixels.

import CLodestonePointer
import CPixman
import AdaptivePointerEngine
import Rendering

@_cdecl("lodestone_pointer_engine_draw")
public func lodestone_pointer_engine_draw(_ engine: OpaquePointer?, _ pixels: UnsafeMutablePointer<UInt32>?,
                                          _ width: Int32, _ height: Int32, _ stride: Int32, _ scale: Double,
                                          _ clipX: Int32, _ clipY: Int32, _ clipWidth: Int32, _ clipHeight: Int32) -> Bool {
    guard let h = EngineHandle.from(engine), let pixels else { return false }
    return draw(h, pixels, width, height, stride, .argb8888, scale, PixelRect.sanitized(x: clipX, y: clipY, width: clipWidth, height: clipHeight))
}

@_cdecl("lodestone_pointer_engine_draw_pixman")
public func lodestone_pointer_engine_draw_pixman(_ engine: OpaquePointer?, _ image: OpaquePointer?, _ scale: Double,
                                                 _ clipX: Int32, _ clipY: Int32, _ clipWidth: Int32, _ clipHeight: Int32) -> Bool {
    guard let h = EngineHandle.from(engine), let image, let bits = pixman_image_get_data(image) else { return false }
    let format: Image.Format
    switch pixman_image_get_format(image) {
    case PIXMAN_a8r8g8b8: format = .argb8888
    case PIXMAN_x8r8g8b8: format = .xrgb8888
    default: return false
    }
    return draw(h, bits, pixman_image_get_width(image), pixman_image_get_height(image), pixman_image_get_stride(image), format,
                scale, PixelRect.sanitized(x: clipX, y: clipY, width: clipWidth, height: clipHeight))
}

/// Both draws: the caller's pixels wrapped (not copied) for the renderer, for this call only.
func draw(_ h: EngineHandle, _ pixels: UnsafeMutablePointer<UInt32>, _ width: Int32, _ height: Int32, _ stride: Int32,
                  _ format: Image.Format, _ scale: Double, _ clip: PixelRect) -> Bool {
    guard scale.isFinite, scale > 0, stride % 4 == 0,
          let image = Image(borrowing: pixels, width: width, height: height, stride: stride, format: format)
    else { return false }
    let clip = clip.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
    guard !clip.isEmpty else { return false }
    h.renderer.draw(h.presentation, into: image, scale: scale, clip: PixelRegion(clip), preview: nil)
    return true
}
