#!/usr/bin/env python3
"""Steps liblodestone-pointer's engine from Python and writes what it draws as a PNG.

A grey 320×200 "window" with a blue toolbar button; the pointer moves onto the button, which
captures it: the pointer becomes the highlight platter behind the button. Prints each second
tenth's presentation and the events a client would hear, then writes OUT.png (zlib only).

    LODESTONE_POINTER_LIBRARY=.build/debug/liblodestone-pointer.so Examples/python/pointer_png.py out.png
"""
import ctypes
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lodestone_pointer import EFFECT_HIGHLIGHT, EFFECT_KIND_NAMES, SHAPE_KIND_NAMES, Engine  # noqa: E402

WIDTH, HEIGHT = 320, 200
BACKGROUND, BUTTON = 0xFFE8E8E8, 0xFF2060D0
BUTTON_RECT = (100, 80, 80, 40)


def write_png(path, pixels, width, height):
    """ARGB words (opaque) to an 8-bit RGB PNG."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            p = pixels[y * width + x]
            rows += bytes(((p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(bytes(rows), 6)))
        f.write(chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "pointer.png"
    engine = Engine(0, 0, WIDTH, HEIGHT)
    print("liblodestone-pointer %d.%d.%d" % engine.version())
    x, y, w, h = BUTTON_RECT
    engine.set_region(1, engine.region(identifier=7, surface=1, x=x, y=y, width=w, height=h, effect=EFFECT_HIGHLIGHT))

    # From the left edge to just inside the button, 60 motion events a second, one frame each.
    t, frame = 0.0, None
    for i in range(31):
        t = i / 60
        engine.motion(t, 20 + i * 3.5, 100)
        frame = engine.step(t)
        for name, identifier in engine.events():
            print(f"t={t:.3f} event {name} {identifier}")
    # Let the morph settle.
    while frame.animating and t < 2:
        t += 1 / 60
        frame = engine.step(t)
    print(f"t={t:.3f} shape {SHAPE_KIND_NAMES[frame.shape_kind]} effect {EFFECT_KIND_NAMES[frame.effect_kind]} "
          f"targeted {frame.targeted} identifier {frame.target_identifier} "
          f"outline {frame.x:.1f} {frame.y:.1f} {frame.width:.1f} {frame.height:.1f} "
          f"logical {frame.logical_x:.1f} {frame.logical_y:.1f}")

    # The "composed frame": background and the button; then the library draws over it.
    pixels = (ctypes.c_uint32 * (WIDTH * HEIGHT))(*([BACKGROUND] * (WIDTH * HEIGHT)))
    for row in range(y, y + h):
        for col in range(x, x + w):
            pixels[row * WIDTH + col] = BUTTON
    engine.draw(pixels, WIDTH, HEIGHT)
    write_png(out, pixels, WIDTH, HEIGHT)
    engine.close()
    print("wrote", out)


if __name__ == "__main__":
    main()
