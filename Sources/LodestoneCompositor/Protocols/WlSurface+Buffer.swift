import CWaylandServer
import Rendering
import WaylandServer

/// A committed buffer becomes the surface's texture; buffer and surface coordinates.
extension WlSurface {
    /// Makes the buffer the surface's texture: a wl_shm buffer is read in place (`ShmTexture`)
    /// and kept until another replaces it, as a dmabuf is (`DmabufMapping`); a single-pixel buffer is copied and released at
    /// once. Returns false after posting an error.
    func upload(_ buffer: WlBuffer, _ attached: AttachedBuffer) -> Bool {
        if let single = buffer.object(SinglePixelBuffer.self) {
            // One pixel, one colour: a 1×1 texture, which the renderer stretches to the
            // surface (pixman pads it: a solid fill). Its size obeys the buffer scale too.
            if scale != 1 {
                postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "a 1×1 single-pixel buffer is not a multiple of the buffer scale \(scale)")
                return false
            }
            show(nil)
            texture = single.image()
            bufferWidth = 1; bufferHeight = 1
            attached.release()
            return true
        }
        if let dmabuf = buffer.object(DmabufBuffer.self) { return upload(dmabuf, attached) }
        guard let shm = buffer.shm else {
            // wl_shm, dmabuf and single-pixel buffers are all that exist here; anything else is not ours to read.
            postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer is not a wl_shm, dmabuf or single-pixel buffer")
            return false
        }
        let w = shm.width, h = shm.height
        // libwayland's wl_shm accepts any stride >= width; a 32-bit format needs
        // 4 bytes a pixel, or reading the buffer runs past the client's rows.
        if Int(shm.stride) < Int(w) * 4 {
            buffer.postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "wl_buffer stride \(shm.stride) is smaller than width \(w) × 4 bytes")
            return false
        }
        if w % scale != 0 || h % scale != 0 {
            postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer size \(w)×\(h) is not a multiple of the buffer scale \(scale)")
            return false
        }
        let format: Image.Format = shm.format == WL_SHM_FORMAT_XRGB8888.rawValue ? .xrgb8888 : .argb8888
        guard let image = ShmTexture.image(showing: attached, shm: shm, format: format) else {
            buffer.postError(WL_SHM_ERROR_INVALID_STRIDE.rawValue, "wl_buffer \(w)×\(h), stride \(shm.stride) cannot be read")
            return false
        }
        show(attached)
        texture = image
        bufferWidth = w; bufferHeight = h
        return true
    }

    /// A linux-dmabuf buffer: read in place through its mapping (`DmabufMapping`), kept until
    /// another replaces it, as a wl_shm buffer is. One Lodestone cannot read (offered only while
    /// parent planes show such buffers) gives the surface its size and no pixels to compose.
    private func upload(_ dmabuf: DmabufBuffer, _ attached: AttachedBuffer) -> Bool {
        let w = dmabuf.attributes.width, h = dmabuf.attributes.height
        if w % scale != 0 || h % scale != 0 {
            postError(WL_SURFACE_ERROR_INVALID_SIZE.rawValue, "buffer size \(w)×\(h) is not a multiple of the buffer scale \(scale)")
            return false
        }
        let image = dmabuf.mapping?.image()
        if dmabuf.mapping != nil && image == nil {
            // pixman could not wrap the pixels: no memory.
            client.postNoMemory()
            return false
        }
        show(attached)
        texture = image
        bufferWidth = w; bufferHeight = h
        return true
    }

    /// `attached` (or nothing) becomes the buffer the texture reads; the one shown before is
    /// released, unless it is the same wl_buffer committed again.
    func show(_ attached: AttachedBuffer?) {
        if let old = shownBuffer, old !== attached {
            old.willForget = nil
            if old.buffer != attached?.buffer { old.release() }
        }
        shownBuffer = attached
        attached?.willForget = { [unowned self] in self.shownBufferDestroyed() }
    }

    /// The client destroyed the buffer on screen before it was released: what it showed
    /// stays (as the protocol has it for a released buffer), as a copy of our own.
    func shownBufferDestroyed() {
        shownBuffer = nil
        guard let shown = texture, shown.access != nil else { return }
        // The client chose the size: without memory for a copy the surface shows nothing
        // rather than the compositor ending.
        guard let copy = Image(allocating: shown.width, shown.height, format: shown.format) else {
            texture = nil
            return
        }
        shown.reading { copy.copy(from: shown, rect: PixelRect(x: 0, y: 0, width: shown.width, height: shown.height)) }
        texture = copy
    }

    /// Surface-local rect covering a buffer rect (whole surface when rotated).
    func bufferRectToSurface(_ r: PixelRect) -> PixelRect {
        guard transform == 0, !hasViewport else { return PixelRect(x: 0, y: 0, width: width, height: height) }
        // Wide: a client's scale may be as large as Int32.max.
        let s = Int64(max(scale, 1))
        return .spanning(x0: Int64(r.x) / s, y0: Int64(r.y) / s, x1: (Int64(r.maxX) + s - 1) / s, y1: (Int64(r.maxY) + s - 1) / s)
    }

    func surfaceRectToBuffer(_ r: PixelRect) -> PixelRect {
        guard transform == 0, !hasViewport else { return PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight) }
        return r.scaled(by: max(scale, 1))
    }

    /// Maps surface-local coordinates to buffer pixels (wl_output.transform
    /// semantics: the buffer holds content already turned by `transform`).
    /// A viewport first maps the surface onto its source rectangle (scale, then offset).
    var surfaceToBuffer: Affine {
        let toBuffer = Affine.scale(Double(scale), Double(scale))
            .concatenating(Self.bufferTransform(transform, width: Double(unviewportedWidth), height: Double(unviewportedHeight)))
        guard hasViewport, width > 0, height > 0 else { return toBuffer }
        let source = viewportSource ?? ViewportSource(x: 0, y: 0, width: Double(unviewportedWidth), height: Double(unviewportedHeight))
        return toBuffer
            .concatenating(.translation(source.x, source.y))
            .concatenating(.scale(source.width / Double(width), source.height / Double(height)))
    }

    /// Surface-local to unscaled buffer coordinates, for a surface of size w×h.
    static func bufferTransform(_ transform: Int32, width w: Double, height h: Double) -> Affine {
        // x' = a x + c y + tx, y' = b x + d y + ty
        switch transform {
        case 1: Affine(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)    // 90
        case 2: Affine(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)   // 180
        case 3: Affine(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)    // 270
        case 4: Affine(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)    // flipped
        case 5: Affine(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)     // flipped 90
        case 6: Affine(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)    // flipped 180
        case 7: Affine(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)   // flipped 270
        default: .identity
        }
    }
}
