#!/usr/bin/env python3
"""Declare adaptive_pointer_v1 regions from Python with pywayland.

Opens one window (a light background with a blue element), declares one region on it
and prints what the compositor tells the client, one line per event, for example:

    entered 1
    button pressed 140.0 120.0
    band ended 40.0 170.0 60.0 40.0

The Python bindings are generated from the protocol XML at start-up with pywayland's
scanner (pip install pywayland), into a temporary directory:

    python3 Examples/python/adaptive_pointer_client.py --effect lift --frame 100,100,80,40
"""
import argparse
import importlib
import mmap
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL = os.path.join(HERE, "..", "..", "protocols", "adaptive-pointer-v1.xml")


def pkg_data(package):
    return subprocess.check_output(["pkg-config", "--variable=pkgdatadir", package], text=True).strip()


def generate_bindings(directory):
    """Runs pywayland's scanner on wayland.xml, xdg-shell and adaptive-pointer-v1."""
    xmls = [
        os.path.join(pkg_data("wayland-scanner"), "wayland.xml"),
        os.path.join(pkg_data("wayland-protocols"), "stable", "xdg-shell", "xdg-shell.xml"),
        PROTOCOL,
    ]
    out = os.path.join(directory, "lodestone_protocols")
    subprocess.check_call([sys.executable, "-m", "pywayland.scanner", "-i", *xmls, "-o", out],
                          stderr=subprocess.DEVNULL)
    open(os.path.join(out, "__init__.py"), "w").close()
    sys.path.insert(0, directory)
    return (importlib.import_module("lodestone_protocols.wayland"),
            importlib.import_module("lodestone_protocols.xdg_shell"),
            importlib.import_module("lodestone_protocols.adaptive_pointer_v1"))


def say(*words):
    print(*words, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--title", default="pywayland-regions")
    parser.add_argument("--size", default="400,300", help="window WIDTH,HEIGHT")
    parser.add_argument("--frame", default="100,100,80,40", help="region X,Y,WIDTH,HEIGHT (surface-local)")
    parser.add_argument("--effect", default="automatic",
                        choices=["automatic", "none", "highlight", "lift", "hover"])
    parser.add_argument("--beam", type=float, help="an I-beam for text with this line height")
    parser.add_argument("--accessory", action="append", default=[],
                        help="SHAPE@DEGREES[:upright], e.g. arrow@90 or plus@45:upright "
                             "(shapes: arrow plus minus circle_slash checkmark; upright needs version 2)")
    parser.add_argument("--annotation")
    parser.add_argument("--band", action="store_true", help="band selection from the region")
    parser.add_argument("--identifier", type=int, default=1)
    parser.add_argument("--padding", type=float, help="the hit area: this padding around the frame")
    args = parser.parse_args()

    from pywayland.client import Display

    wl, xdg, ap = generate_bindings(tempfile.mkdtemp(prefix="lodestone-pywayland-"))
    Region = ap.AdaptivePointerRegionV1

    display = Display()
    display.connect()
    found = {}

    def on_global(registry, name, interface, version):
        found[interface] = (name, version)

    registry = display.get_registry()
    registry.dispatcher["global"] = on_global
    display.roundtrip()

    def bind(cls, version):
        name, offered = found[cls.name]
        return registry.bind(name, cls, min(version, offered))

    compositor = bind(wl.WlCompositor, 4)
    shm = bind(wl.WlShm, 1)
    seat = bind(wl.WlSeat, 5)
    wm_base = bind(xdg.XdgWmBase, 2)
    # Version 2 adds upright accessories; an older compositor gets version 1 requests only.
    manager = bind(ap.AdaptivePointerManagerV1, 2)
    manager_version = min(2, found[ap.AdaptivePointerManagerV1.name][1])
    wm_base.dispatcher["ping"] = lambda base, serial: base.pong(serial)

    width, height = (int(v) for v in args.size.split(","))
    fx, fy, fw, fh = (int(v) for v in args.frame.split(","))

    # The pixels: light grey with the element in blue.
    stride = width * 4
    fd = os.memfd_create("pywayland-regions")
    os.ftruncate(fd, stride * height)
    pixels = mmap.mmap(fd, stride * height)
    row = b"\xe0\xe0\xe0\xff" * width
    x0, x1 = max(0, fx), min(width, fx + fw)  # only the part of the element on the surface
    for y in range(height):
        line = bytearray(row)
        if fy <= y < fy + fh and x1 > x0:
            line[x0 * 4:x1 * 4] = b"\xd0\x60\x20\xff" * (x1 - x0)
        pixels[y * stride:(y + 1) * stride] = bytes(line)
    pool = shm.create_pool(fd, stride * height)
    buffer = pool.create_buffer(0, width, height, stride, wl.WlShm.format.argb8888.value)

    surface = compositor.create_surface()
    xdg_surface = wm_base.get_xdg_surface(surface)
    toplevel = xdg_surface.get_toplevel()
    toplevel.set_title(args.title)

    # The region: a few requests, applied with the surface's next commit.
    regions = manager.get_surface(surface)
    region = regions.create_region()
    region.set_frame(fx, fy, fw, fh)
    region.set_effect(getattr(Region.effect, args.effect).value)
    if args.padding is not None:
        region.set_hit_area(Region.hit_area.padding.value, args.padding)
    if args.effect in ("lift",):
        region.set_background(Region.background.opaque.value)
    if args.beam:
        region.set_shape(Region.shape.vertical_beam.value, args.beam)
    for spec in args.accessory:
        shape, _, rest = spec.partition("@")
        degrees, _, option = rest.partition(":")
        flags = 0
        if option == "upright" and manager_version >= 2:
            flags |= Region.accessory_flags.upright.value
        region.add_accessory(getattr(Region.accessory, shape).value, float(degrees or 0), 4.0, flags)
    if args.annotation:
        region.set_annotation(args.annotation)
    if args.band:
        region.set_band_selection(1)
    region.set_identifier(args.identifier)
    region.dispatcher["entered"] = lambda r, ident: say("entered", ident)
    region.dispatcher["left"] = lambda r, ident: say("left", ident)
    states = {0: "began", 1: "changed", 2: "ended"}
    region.dispatcher["band_selection"] = lambda r, ident, state, x, y, w, h: say("band", states[state], x, y, w, h)

    def on_configure(xs, serial):
        xs.ack_configure(serial)
        surface.attach(buffer, 0, 0)
        surface.damage(0, 0, width, height)
        surface.commit()

    xdg_surface.dispatcher["configure"] = on_configure

    pointer = seat.get_pointer()
    where = [0.0, 0.0]

    def on_enter(p, serial, s, x, y):
        where[:] = [x, y]

    def on_motion(p, time, x, y):
        where[:] = [x, y]

    def on_button(p, serial, time, button, state):
        say("button", "pressed" if state == 1 else "released", where[0], where[1])

    pointer.dispatcher["enter"] = on_enter
    pointer.dispatcher["motion"] = on_motion
    pointer.dispatcher["button"] = on_button

    surface.commit()
    say("ready")
    while display.dispatch(block=True) != -1:
        pass


if __name__ == "__main__":
    main()
