#!/usr/bin/env python3
"""A window whose buffer is a single-pixel buffer or a cropped and scaled wl_shm
buffer, written with pywayland, for Lodestone's tests of wp_single_pixel_buffer_v1
and wp_viewporter.

Usage: surface_client.py MODE [ARGS]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  single-pixel RGBA [W H]   map a window "single-pixel" whose buffer is one pixel of
                            RGBA (8 hex digits, premultiplied); with W H a viewport
                            stretches it to W×H
  viewport X Y W H DW DH    map a window "viewport" of a 64×48 buffer of four quadrants
                            (red, green top; blue, white bottom), cropped to the source
                            X Y W H (-1 ... : unset) and scaled to DW×DH (-1 -1: unset)
  idle-inhibit              map a window "idle-inhibit" (a 200×100 single-pixel buffer)
                            with a zwp_idle_inhibitor_v1 on its surface
  activate-other            map windows "activation-a", then "activation-b" (which gets the
                            keyboard); with a token naming b, activate a; print 'activated'
  activate-from-background  map "background"; once another window takes the keyboard, ask
                            for a token and activate "background" with it; print 'tried'
  token-reuse               commit a token, then set its app_id (already_used); RESULT line
  presentation              map "presentation" (with wl_output bound), then commit twice with a
                            wp_presentation_feedback each and print 'committed'; once the second
                            is presented, commit a third; prints 'clock_id N' and per feedback
                            'feedback N discarded' or 'feedback N presented SEC NSEC REFRESH SEQ
                            FLAGS OUTPUTS' (OUTPUTS: the sync_output events)
  shortcuts on|off          map "shortcuts" and print its keyboard's keys ('key CODE STATE') and
                            key repeat ('repeat_info RATE DELAY'); with
                            'on', a zwp_keyboard_shortcuts_inhibitor_v1 on it ('active'/'inactive')
  export                    map "exported" (200×100) and export it; prints 'handle H'
  import HANDLE             import HANDLE, map "imported" (80×60) as its child (set_parent_of before
                            the first commit); prints 'mapped', and 'destroyed' when the import dies
  fractional-scale          map "fractional" with a wp_fractional_scale_v1; prints 'preferred_scale N'
                            for each event, and 'RESULT: ...' after asking for a second one on the
                            same surface (fractional_scale_exists)
  fractional-window W H     map "fractional-window", W×H logical, drawn at the preferred fractional
                            scale: a buffer of round(W×scale)×round(H×scale) pixels of PATTERN
                            through a viewport of W×H; prints 'preferred_scale N' first
  scaled-window W H S       map "scaled-window", W×H logical, at buffer scale S (no viewport,
                            no fractional scale): the four quadrants, each (W×S/2)×(H×S/2)
  text-cursor TITLE W H     map TITLE, a W×H window of one colour whose pointer cursor is the text
                            shape (wp_cursor_shape_v1): an app known to the pointer only by its
                            cursor names. With WAYLAND_SOCKET it uses the connection it was given
                            (hostile_atspi_app.py's, so the window is that process's)
  error NAME                break wp_viewporter: bad-source, bad-destination,
                            viewport-exists, out-of-buffer, bad-size, no-surface

The window modes print 'mapped' once committed, then stay until killed. The error
mode prints 'RESULT: protocol-error' or 'RESULT: ok'; libwayland logs the error
('wp_viewport#7: error 0: ...') on stderr.
"""
import errno
import mmap
import os
import sys

from pywayland import lib
from pywayland.client import Display
from pywayland.protocol.presentation_time import WpPresentation
from pywayland.protocol.fractional_scale_v1 import WpFractionalScaleManagerV1
from pywayland.protocol.xdg_foreign_unstable_v2 import ZxdgExporterV2, ZxdgImporterV2
from pywayland.protocol.keyboard_shortcuts_inhibit_unstable_v1 import ZwpKeyboardShortcutsInhibitManagerV1
from pywayland.protocol.idle_inhibit_unstable_v1 import ZwpIdleInhibitManagerV1
from pywayland.protocol.single_pixel_buffer_v1 import WpSinglePixelBufferManagerV1
from pywayland.protocol.viewporter import WpViewporter
from pywayland.protocol.xdg_activation_v1 import XdgActivationV1
from pywayland.protocol.wayland import WlCompositor, WlOutput, WlSeat, WlShm
from pywayland.protocol.xdg_shell import XdgWmBase

WIDTH, HEIGHT = 64, 48


def pattern(x, y):
    """Buffer pixel (x, y) of fractional-window: opaque, and unlike its neighbours, so any
    resampling shows (FractionalScaleTests computes the same)."""
    return 0xff000000 | ((x * 7) & 0xff) << 16 | ((y * 5) & 0xff) << 8 | ((x + y) & 0xff)
QUADRANTS = (0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffffff)


class Client:
    def __init__(self):
        self.display = Display()
        self.display.connect()
        self.globals = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, name)
        self.display.roundtrip()
        self.compositor = registry.bind(self.globals["wl_compositor"], WlCompositor, 4)
        self.shm = registry.bind(self.globals["wl_shm"], WlShm, 1)
        self.wm = registry.bind(self.globals["xdg_wm_base"], XdgWmBase, 2)
        # Bound only when offered: a single-pixel window without a viewport needs none.
        self.viewporter = registry.bind(self.globals["wp_viewporter"], WpViewporter, 1) if "wp_viewporter" in self.globals else None
        self.single_pixel = registry.bind(self.globals["wp_single_pixel_buffer_manager_v1"], WpSinglePixelBufferManagerV1, 1)

    def quadrants(self):
        size = WIDTH * HEIGHT * 4
        fd = os.memfd_create("surface-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            for y in range(HEIGHT):
                for x in range(WIDTH):
                    q = (2 if y >= HEIGHT // 2 else 0) + (1 if x >= WIDTH // 2 else 0)
                    m[(y * WIDTH + x) * 4:(y * WIDTH + x + 1) * 4] = QUADRANTS[q].to_bytes(4, "little")
        pool = self.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, WIDTH, HEIGHT, WIDTH * 4, WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def buffer(self, width, height, color):
        """A wl_shm argb8888 buffer with color(x, y) at each pixel."""
        size = width * height * 4
        fd = os.memfd_create("surface-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m[:] = b"".join(color(x, y).to_bytes(4, "little") for y in range(height) for x in range(width))
        pool = self.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, width, height, width * 4, WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def pixel(self, rgba):
        # Each 8-bit channel spread over the protocol's 32 bits (0xff -> 0xffffffff).
        r, g, b, a = ((rgba >> s) & 0xff for s in (24, 16, 8, 0))
        return self.single_pixel.create_u32_rgba_buffer(r * 0x01010101, g * 0x01010101, b * 0x01010101, a * 0x01010101)

    def window(self, title, configure):
        """Maps an xdg_toplevel; configure(surface) attaches and sets the viewport."""
        surface = self.compositor.create_surface()
        xdg = self.wm.get_xdg_surface(surface)
        toplevel = xdg.get_toplevel()
        toplevel.set_title(title)
        serials = []
        xdg.dispatcher["configure"] = lambda x, serial: serials.append(serial)
        self.wm.dispatcher["ping"] = lambda wm, serial: wm.pong(serial)
        surface.commit()
        while not serials and self.display.dispatch(block=True) >= 0:
            pass
        xdg.ack_configure(serials[-1])
        keep = configure(surface)
        surface.damage_buffer(0, 0, 1 << 30, 1 << 30)
        surface.commit()
        self.display.roundtrip()
        print("mapped", flush=True)
        while self.display.dispatch(block=True) >= 0:
            pass
        return keep


def toplevel(c, title, size=(200, 100), before_map=None):
    """Maps a single-pixel window (200×100) and returns (surface, toplevel, activated states);
    before_map(surface) runs before the first commit."""
    surface = c.compositor.create_surface()
    xdg = c.wm.get_xdg_surface(surface)
    top = xdg.get_toplevel()
    top.set_title(title)
    serials, activated = [], []
    # A handler's result goes back to C as an int (pywayland's dispatcher_func): a tuple
    # there printed "TypeError: an integer is required" into the client's log, so None.
    xdg.dispatcher["configure"] = lambda x, serial: [serials.append(serial), x.ack_configure(serial)] and None
    # xdg_toplevel.state.activated is 4 in the array of uint32 states.
    top.dispatcher["configure"] = lambda t, w, h, states: activated.append(4 in list(states))
    c.wm.dispatcher["ping"] = lambda wm, serial: wm.pong(serial)
    if before_map:
        before_map(surface)
    surface.commit()
    while not serials and c.display.dispatch(block=True) >= 0:
        pass
    buffer = c.pixel(0x336699ff)
    surface.attach(buffer, 0, 0)
    viewport = c.viewporter.get_viewport(surface)
    viewport.set_destination(*size)
    surface.commit()
    c.display.roundtrip()
    return surface, (top, xdg, buffer, viewport), activated


def token(c, activation, surface=None):
    """Asks for a token (naming surface if given) and waits for it."""
    t = activation.get_activation_token()
    done = []
    t.dispatcher["done"] = lambda tok, value: done.append(value)
    if surface is not None:
        t.set_surface(surface)
    t.set_app_id("surface-client")
    t.commit()
    while not done and c.display.dispatch(block=True) >= 0:
        pass
    return t, done[0]


def activation(c, mode):
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    act = registry.bind(c.globals["xdg_activation_v1"], XdgActivationV1, 1)
    if mode == "activate-other":
        a, keep_a, _ = toplevel(c, "activation-a")
        b, keep_b, _ = toplevel(c, "activation-b")
        _, value = token(c, act, b)
        act.activate(value, a)
        c.display.roundtrip()
        print("activated", flush=True)
    elif mode == "activate-from-background":
        surface, keep, activated = toplevel(c, "background")
        print("mapped", flush=True)
        while not (activated and activated[-1] is False) and c.display.dispatch(block=True) >= 0:
            pass
        _, value = token(c, act, surface)
        act.activate(value, surface)
        c.display.roundtrip()
        print("tried", flush=True)
    elif mode == "token-reuse":
        t, _ = token(c, act)
        t.set_app_id("again")
        settle(c.display)
        print("RESULT: " + outcome(c.display), flush=True)
        sys.stderr.flush()
        os._exit(0)
    while c.display.dispatch(block=True) >= 0:
        pass


def presentation(c):
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    clock = []
    presentation = registry.bind(c.globals["wp_presentation"], WpPresentation, 1)
    presentation.dispatcher["clock_id"] = lambda p, clk: clock.append(clk)
    output = registry.bind(c.globals["wl_output"], WlOutput, 2)
    c.display.roundtrip()
    surface, keep, _ = toplevel(c, "presentation")
    print("clock_id", clock[0], flush=True)
    answered = {}

    def feedback(n):
        f = presentation.feedback(surface)
        outputs = []
        f.dispatcher["sync_output"] = lambda fb, o: outputs.append(o)
        f.dispatcher["discarded"] = lambda fb: answered.__setitem__(n, "discarded")
        f.dispatcher["presented"] = lambda fb, hi, lo, ns, refresh, seq_hi, seq_lo, flags: answered.__setitem__(
            n, "presented %d %d %d %d %d %d" % ((hi << 32) | lo, ns, refresh, (seq_hi << 32) | seq_lo, flags, len(outputs)))
        surface.attach(c.pixel(0x336699ff), 0, 0)
        surface.damage_buffer(0, 0, 1, 1)
        surface.commit()
        return f

    def wait(n):
        while n not in answered and c.display.dispatch(block=True) >= 0:
            pass
        print("feedback", n, answered[n], flush=True)

    fbs = [feedback(1), feedback(2)]
    c.display.roundtrip()
    print("committed", flush=True)
    wait(1)
    wait(2)
    fbs.append(feedback(3))
    c.display.roundtrip()
    print("committed", flush=True)
    wait(3)
    while c.display.dispatch(block=True) >= 0:
        pass


def shortcuts(c, inhibit):
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    seat = registry.bind(c.globals["wl_seat"], WlSeat, 5)
    keyboard = seat.get_keyboard()
    keyboard.dispatcher["key"] = lambda k, serial, time, key, state: print("key", key, state, flush=True)
    keyboard.dispatcher["repeat_info"] = lambda k, rate, delay: print("repeat_info", rate, delay, flush=True)
    surface, keep, _ = toplevel(c, "shortcuts")
    if inhibit:
        manager = registry.bind(c.globals["zwp_keyboard_shortcuts_inhibit_manager_v1"], ZwpKeyboardShortcutsInhibitManagerV1, 1)
        inhibitor = manager.inhibit_shortcuts(surface, seat)
        inhibitor.dispatcher["active"] = lambda i: print("active", flush=True)
        inhibitor.dispatcher["inactive"] = lambda i: print("inactive", flush=True)
    c.display.roundtrip()
    print("mapped", flush=True)
    while c.display.dispatch(block=True) >= 0:
        pass


def foreign(c, mode, args):
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    keep = []
    if mode == "export":
        exporter = registry.bind(c.globals["zxdg_exporter_v2"], ZxdgExporterV2, 1)
        surface, keep, _ = toplevel(c, "exported")
        exported = exporter.export_toplevel(surface)
        exported.dispatcher["handle"] = lambda e, handle: print("handle", handle, flush=True)
        keep = (keep, exported)
    else:
        importer = registry.bind(c.globals["zxdg_importer_v2"], ZxdgImporterV2, 1)
        imported = importer.import_toplevel(args[0])
        imported.dispatcher["destroyed"] = lambda i: print("destroyed", flush=True)
        surface, keep, _ = toplevel(c, "imported", (80, 60), lambda s: imported.set_parent_of(s))
        keep = (keep, imported)
        print("mapped", flush=True)
    while c.display.dispatch(block=True) >= 0:
        pass


def fractional(c):
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    manager = registry.bind(c.globals["wp_fractional_scale_manager_v1"], WpFractionalScaleManagerV1, 1)
    keep = []

    def before_map(surface):
        scale = manager.get_fractional_scale(surface)
        scale.dispatcher["preferred_scale"] = lambda s, n: print("preferred_scale", n, flush=True)
        keep.append((surface, scale))
    toplevel(c, "fractional", before_map=before_map)
    c.display.roundtrip()
    print("mapped", flush=True)
    manager.get_fractional_scale(keep[0][0])
    settle(c.display)
    print("RESULT: " + outcome(c.display), flush=True)
    sys.stderr.flush()
    os._exit(0)


def fractional_window(c, width, height):
    """Draws at the preferred scale, as GTK 4 and Qt do with wp_fractional_scale_v1."""
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    manager = registry.bind(c.globals["wp_fractional_scale_manager_v1"], WpFractionalScaleManagerV1, 1)
    preferred = []

    def configure(surface):
        scale = manager.get_fractional_scale(surface)
        scale.dispatcher["preferred_scale"] = lambda s, n: [preferred.append(n), print("preferred_scale", n, flush=True)] and None
        c.display.roundtrip()
        # round(W × n / 120), halves up, as the compositor rounds the window's edges.
        bw, bh = ((v * preferred[-1] + 60) // 120 for v in (width, height))
        buffer = c.buffer(bw, bh, pattern)
        surface.attach(buffer, 0, 0)
        viewport = c.viewporter.get_viewport(surface)
        viewport.set_destination(width, height)
        return buffer, viewport, scale
    c.window("fractional-window", configure)


def scaled_window(c, width, height, scale):
    def configure(surface):
        bw, bh = width * scale, height * scale
        buffer = c.buffer(bw, bh, lambda x, y: QUADRANTS[(2 if y >= bh // 2 else 0) + (1 if x >= bw // 2 else 0)])
        surface.attach(buffer, 0, 0)
        surface.set_buffer_scale(scale)
        return buffer
    c.window("scaled-window", configure)


def outcome(display):
    code = lib.wl_display_get_error(display._ptr)
    if code == 0:
        return "ok"
    return "protocol-error" if code == errno.EPROTO else "disconnected"


def settle(display):
    for _ in range(3):
        if display.roundtrip() < 0:
            break


def error(c, name):
    surface = c.compositor.create_surface()
    viewport = c.viewporter.get_viewport(surface)
    if name == "bad-source":
        viewport.set_source(0, 0, -5, 10)
    elif name == "bad-destination":
        viewport.set_destination(0, 10)
    elif name == "viewport-exists":
        c.viewporter.get_viewport(surface)
    elif name == "out-of-buffer":
        viewport.set_source(32, 0, 64, 10)  # runs 32 pixels past the 64-wide buffer
        surface.attach(c.quadrants(), 0, 0)
        surface.commit()
    elif name == "bad-size":
        viewport.set_source(0, 0, 10.5, 10)  # a fractional size and no destination
        surface.attach(c.quadrants(), 0, 0)
        surface.commit()
    elif name == "no-surface":
        surface.destroy()
        viewport.set_destination(10, 10)
    settle(c.display)
    print("RESULT: " + outcome(c.display), flush=True)
    sys.stderr.flush()
    # Proxies of a dead connection crash pywayland's finalizers: leave without them.
    os._exit(0)


def text_cursor(c, title, width, height):
    from pywayland.protocol.cursor_shape_v1 import WpCursorShapeManagerV1, WpCursorShapeDeviceV1
    registry = c.display.get_registry()
    registry.dispatcher["global"] = lambda *a: None
    seat = registry.bind(c.globals["wl_seat"], WlSeat, 5)
    shapes = registry.bind(c.globals["wp_cursor_shape_manager_v1"], WpCursorShapeManagerV1, 1)
    pointer = seat.get_pointer()
    device = shapes.get_pointer(pointer)
    text = WpCursorShapeDeviceV1.shape.text.value

    def on_enter(p, serial, surface, x, y):
        device.set_shape(serial, text)
    pointer.dispatcher["enter"] = on_enter
    # A wl_shm buffer (a single-pixel one has no pixels): Lodestone looks at a window's
    # pixels for a button's drawn outline (DrawnOutline), so a lying app's extents reach there.
    buffer = c.buffer(width, height, lambda x, y: 0xffe8e8e8 if (x // 40 + y // 40) % 2 else 0xff707070)
    keep = toplevel(c, title, (width, height), before_map=None)
    keep[0].attach(buffer, 0, 0)
    keep[0].damage_buffer(0, 0, width, height)
    keep[0].commit()
    c.display.roundtrip()
    print("mapped", flush=True)
    while c.display.dispatch(block=True) >= 0:
        pass
    return keep, buffer, pointer, device


def main(mode, args):
    c = Client()
    if mode == "single-pixel":
        def configure(surface):
            buffer = c.pixel(int(args[0], 16))
            surface.attach(buffer, 0, 0)
            if len(args) == 3:
                viewport = c.viewporter.get_viewport(surface)
                viewport.set_destination(int(args[1]), int(args[2]))
                return buffer, viewport
            return buffer
        c.window("single-pixel", configure)
    elif mode == "idle-inhibit":
        registry = c.display.get_registry()
        registry.dispatcher["global"] = lambda *a: None
        manager = registry.bind(c.globals["zwp_idle_inhibit_manager_v1"], ZwpIdleInhibitManagerV1, 1)

        def configure(surface):
            buffer = c.pixel(0x336699ff)
            surface.attach(buffer, 0, 0)
            viewport = c.viewporter.get_viewport(surface)
            viewport.set_destination(200, 100)
            return buffer, viewport, manager.create_inhibitor(surface)
        c.window("idle-inhibit", configure)
    elif mode == "viewport":
        x, y, w, h = (float(v) for v in args[:4])
        dw, dh = int(args[4]), int(args[5])

        def configure(surface):
            buffer = c.quadrants()
            surface.attach(buffer, 0, 0)
            viewport = c.viewporter.get_viewport(surface)
            if w != -1:
                viewport.set_source(x, y, w, h)
            if dw != -1:
                viewport.set_destination(dw, dh)
            return buffer, viewport
        c.window("viewport", configure)
    elif mode in ("activate-other", "activate-from-background", "token-reuse"):
        activation(c, mode)
    elif mode in ("export", "import"):
        foreign(c, mode, args)
    elif mode == "fractional-scale":
        fractional(c)
    elif mode == "fractional-window":
        fractional_window(c, int(args[0]), int(args[1]))
    elif mode == "scaled-window":
        scaled_window(c, int(args[0]), int(args[1]), int(args[2]))
    elif mode == "shortcuts":
        shortcuts(c, args[0] == "on")
    elif mode == "presentation":
        presentation(c)
    elif mode == "error":
        error(c, args[0])
    elif mode == "text-cursor":
        text_cursor(c, args[0], int(args[1]), int(args[2]))
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
