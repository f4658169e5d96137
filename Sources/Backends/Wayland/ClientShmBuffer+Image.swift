import Rendering
import WaylandClient

extension ClientShmBuffer {
    /// A pixman image over the buffer's pixels, for drawing into it in place. The image
    /// borrows the mapping: whoever keeps it keeps the buffer too (each caller stores both).
    func image(width: Int32, height: Int32, stride: Int32, format: Image.Format) -> Image? {
        withPixels { pixels in
            pixels.baseAddress.flatMap { Image(borrowing: UnsafeMutableRawPointer($0), width: width, height: height, stride: stride, format: format) }
        }
    }
}
