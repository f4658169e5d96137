#!/usr/bin/env python3
"""Layer-shell clients for Lodestone's tests (LayerShellTests), in pywayland.

Usage: layer_client.py MODE [ARG]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  maximized TITLE     an xdg_toplevel that asks to be maximized before it maps; prints
                      'configure W H' for each configure and redraws at that size; stays
  popup               a 'lodestone-test' layer surface on the top layer along the top edge
                      (height 40, exclusive zone 40, keyboard on_demand), then an xdg_popup
                      made with a null parent and given to it with get_popup (64×32 below
                      the rect (16, 8, 32, 24)); prints 'surface configure W H', 'popup
                      configure X Y W H', 'popup mapped'; stays
  button              a 'lodestone-bar' layer surface along the top (height 40, exclusive zone
                      40) declaring one adaptive_pointer_v1 region, a 100×24 button at (20, 8)
                      with the highlight effect; prints 'mapped'; stays
  remap               a 200×100 surface in the top-left corner on the top layer: maps, unmaps
                      with a null buffer, makes its initial commit again and maps again
                      (prints 'remapped'), then moves to the background layer with set_layer
                      (prints 'background'); stays
  last-output         a 32×32 layer surface anchored to the top-right corner of the last
                      wl_output announced; prints 'mapped', then 'closed' when the compositor
                      closes it (its head unplugged); stays

Misbehaving (each prints 'RESULT: protocol-error' or 'RESULT: ok'; libwayland logs
'interface#id: error code: message' on stderr):
  invalid-layer             get_layer_surface with layer 4
  invalid-anchor            set_anchor(16)
  zero-width                set_size(0, 30) anchored only to the top, then commit
  invalid-keyboard          set_keyboard_interactivity(3)
  buffer-before-configure   commit a buffer before acknowledging a configure
  bad-ack                   ack_configure with a serial never sent
  already-constructed       get_layer_surface on a surface with a buffer attached
  set-layer-invalid         set_layer(7)
  popup-with-parent         get_popup with an xdg_popup that has an xdg_surface parent
  role                      get_layer_surface on a surface that is an xdg_surface

The bindings are generated from protocols/wlr-layer-shell-unstable-v1.xml (not in
pywayland) with pywayland's scanner at start-up (pywayland_bindings.py).
"""
import errno
import mmap
import os
import sys
import pywayland_bindings

HERE = os.path.dirname(os.path.abspath(__file__))
LAYER_SHELL = os.path.join(HERE, "..", "..", "protocols", "wlr-layer-shell-unstable-v1.xml")
ADAPTIVE_POINTER = os.path.join(HERE, "..", "..", "protocols", "adaptive-pointer-v1.xml")
TOP, LEFT, RIGHT, BOTTOM = 1, 4, 8, 2


def bindings():
    return pywayland_bindings.generate("layer_protocols",
                                       [pywayland_bindings.core(),
                                        pywayland_bindings.wayland_protocols("stable", "xdg-shell", "xdg-shell.xml"),
                                        LAYER_SHELL, ADAPTIVE_POINTER],
                                       ["wayland", "xdg_shell", "wlr_layer_shell_unstable_v1", "adaptive_pointer_v1"])

def say(*words):
    print(*words, flush=True)


class Client:
    def __init__(self):
        from pywayland.client import Display
        self.wl, self.xdg, self.ls, self.ap = bindings()
        self.display = Display()
        self.display.connect()
        self.globals = {}
        self.outputs = []
        registry = self.display.get_registry()
        registry.dispatcher["global"] = self.on_global
        self.display.roundtrip()
        self.registry = registry
        self.compositor = registry.bind(self.globals["wl_compositor"][0], self.wl.WlCompositor, 4)
        self.shm = registry.bind(self.globals["wl_shm"][0], self.wl.WlShm, 1)
        self.wm = registry.bind(self.globals["xdg_wm_base"][0], self.xdg.XdgWmBase, 2)
        self.shell = registry.bind(self.globals["zwlr_layer_shell_v1"][0], self.ls.ZwlrLayerShellV1, 4)
        self.wm.dispatcher["ping"] = lambda wm, serial: wm.pong(serial)

    def on_global(self, registry, name, interface, version):
        self.globals[interface] = (name, version)
        if interface == "wl_output":
            self.outputs.append(name)

    def buffer(self, width, height, argb=0xff4080c0):
        size = width * height * 4
        fd = os.memfd_create("layer-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m.write(argb.to_bytes(4, "little") * (width * height))
        pool = self.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, width, height, width * 4, self.wl.WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def layer_surface(self, layer=2, namespace="lodestone-test", output=None):
        surface = self.compositor.create_surface()
        return surface, self.shell.get_layer_surface(surface, output, layer, namespace)

    def run(self):
        while self.display.dispatch(block=True) != -1:
            pass


def outcome(display):
    from pywayland import lib
    code = lib.wl_display_get_error(display._ptr)
    if code == 0:
        return "ok"
    return "protocol-error" if code == errno.EPROTO else "disconnected"


def settle(c):
    for _ in range(3):
        if c.display.roundtrip() < 0:
            break


def maximized(c, title):
    surface = c.compositor.create_surface()
    xdg_surface = c.wm.get_xdg_surface(surface)
    toplevel = xdg_surface.get_toplevel()
    toplevel.set_title(title)
    toplevel.set_maximized()
    size = [0, 0]

    def on_toplevel_configure(t, width, height, states):
        size[0], size[1] = width, height

    def on_configure(s, serial):
        w, h = size[0] or 200, size[1] or 100
        say("configure", size[0], size[1])
        s.ack_configure(serial)
        surface.attach(c.buffer(w, h), 0, 0)
        surface.damage_buffer(0, 0, w, h)
        surface.commit()

    toplevel.dispatcher["configure"] = on_toplevel_configure
    xdg_surface.dispatcher["configure"] = on_configure
    surface.commit()
    c.run()


def popup(c):
    surface, layer = c.layer_surface()
    layer.set_anchor(TOP | LEFT | RIGHT)
    layer.set_size(0, 40)
    layer.set_exclusive_zone(40)
    layer.set_keyboard_interactivity(2)
    state = {"mapped": False}

    def on_layer_configure(l, serial, width, height):
        say("surface configure", width, height)
        l.ack_configure(serial)
        surface.attach(c.buffer(width, height), 0, 0)
        surface.damage_buffer(0, 0, width, height)
        surface.commit()
        if not state["mapped"]:
            state["mapped"] = True
            make_popup()

    def make_popup():
        popup_surface = c.compositor.create_surface()
        xdg_surface = c.wm.get_xdg_surface(popup_surface)
        positioner = c.wm.create_positioner()
        positioner.set_size(64, 32)
        positioner.set_anchor_rect(16, 8, 32, 24)
        positioner.set_anchor(c.xdg.XdgPositioner.anchor.bottom_left.value)
        positioner.set_gravity(c.xdg.XdgPositioner.gravity.bottom_right.value)
        xdg_popup = xdg_surface.get_popup(None, positioner)
        layer.get_popup(xdg_popup)

        def on_popup_configure(p, x, y, width, height):
            say("popup configure", x, y, width, height)

        def on_configure(s, serial):
            s.ack_configure(serial)
            popup_surface.attach(c.buffer(64, 32, 0xffe04020), 0, 0)
            popup_surface.damage_buffer(0, 0, 64, 32)
            popup_surface.commit()
            say("popup mapped")

        xdg_popup.dispatcher["configure"] = on_popup_configure
        xdg_popup.dispatcher["popup_done"] = lambda p: say("popup done")
        xdg_surface.dispatcher["configure"] = on_configure
        popup_surface.commit()
        c.keep = (popup_surface, xdg_surface, xdg_popup)

    layer.dispatcher["configure"] = on_layer_configure
    surface.commit()
    c.run()


def button(c):
    surface, layer = c.layer_surface(namespace="lodestone-bar")
    layer.set_anchor(TOP | LEFT | RIGHT)
    layer.set_size(0, 40)
    layer.set_exclusive_zone(40)
    manager = c.registry.bind(c.globals["adaptive_pointer_manager_v1"][0], c.ap.AdaptivePointerManagerV1, 1)
    region = manager.get_surface(surface).create_region()
    region.set_frame(20, 8, 100, 24)
    region.set_effect(c.ap.AdaptivePointerRegionV1.effect.highlight.value)

    def on_configure(l, serial, width, height):
        l.ack_configure(serial)
        surface.attach(c.buffer(width, height, 0xffd0d0d0), 0, 0)
        surface.damage_buffer(0, 0, width, height)
        surface.commit()
        say("mapped")

    layer.dispatcher["configure"] = on_configure
    surface.commit()
    c.keep = (manager, region)
    c.run()


def remap(c):
    surface, layer = c.layer_surface()
    layer.set_anchor(TOP | LEFT)
    layer.set_size(200, 100)
    state = {"maps": 0}

    def on_configure(l, serial, width, height):
        l.ack_configure(serial)
        surface.attach(c.buffer(200, 100), 0, 0)
        surface.damage_buffer(0, 0, 200, 100)
        surface.commit()
        state["maps"] += 1

    layer.dispatcher["configure"] = on_configure
    surface.commit()
    while state["maps"] < 1:
        c.display.dispatch(block=True)
    c.display.roundtrip()
    # Unmapped: it must make its initial commit again, answered by a configure.
    surface.attach(None, 0, 0)
    surface.commit()
    c.display.roundtrip()
    surface.commit()
    while state["maps"] < 2:
        c.display.dispatch(block=True)
    c.display.roundtrip()
    say("remapped")
    layer.set_layer(0)
    surface.commit()
    c.display.roundtrip()
    say("background")
    c.run()


def last_output(c):
    output = c.registry.bind(c.outputs[-1], c.wl.WlOutput, 1)
    surface, layer = c.layer_surface(output=output)
    layer.set_anchor(TOP | RIGHT)
    layer.set_size(32, 32)

    def on_configure(l, serial, width, height):
        l.ack_configure(serial)
        surface.attach(c.buffer(32, 32), 0, 0)
        surface.damage_buffer(0, 0, 32, 32)
        surface.commit()
        say("mapped")

    layer.dispatcher["configure"] = on_configure
    layer.dispatcher["closed"] = lambda l: say("closed")
    surface.commit()
    c.run()


def misbehave(c, mode):
    if mode == "invalid-layer":
        c.layer_surface(layer=4)
    elif mode == "invalid-anchor":
        _, layer = c.layer_surface()
        layer.set_anchor(16)
    elif mode == "zero-width":
        surface, layer = c.layer_surface()
        layer.set_anchor(TOP)
        layer.set_size(0, 30)
        surface.commit()
    elif mode == "invalid-keyboard":
        _, layer = c.layer_surface()
        layer.set_keyboard_interactivity(3)
    elif mode == "buffer-before-configure":
        surface, layer = c.layer_surface()
        layer.set_size(32, 32)
        surface.attach(c.buffer(32, 32), 0, 0)
        surface.commit()
    elif mode == "bad-ack":
        surface, layer = c.layer_surface()
        layer.set_size(32, 32)
        surface.commit()
        settle(c)
        layer.ack_configure(123456)
    elif mode == "already-constructed":
        surface = c.compositor.create_surface()
        surface.attach(c.buffer(8, 8), 0, 0)
        c.shell.get_layer_surface(surface, None, 2, "late")
    elif mode == "set-layer-invalid":
        _, layer = c.layer_surface()
        layer.set_layer(7)
    elif mode == "popup-with-parent":
        parent_surface = c.compositor.create_surface()
        parent = c.wm.get_xdg_surface(parent_surface)
        parent.get_toplevel()
        positioner = c.wm.create_positioner()
        positioner.set_size(8, 8)
        positioner.set_anchor_rect(0, 0, 1, 1)
        xdg_popup = c.wm.get_xdg_surface(c.compositor.create_surface()).get_popup(parent, positioner)
        _, layer = c.layer_surface()
        layer.get_popup(xdg_popup)
    elif mode == "role":
        surface = c.compositor.create_surface()
        c.wm.get_xdg_surface(surface)
        c.shell.get_layer_surface(surface, None, 2, "taken")
    else:
        raise SystemExit("unknown mode " + mode)
    settle(c)
    say("RESULT: " + outcome(c.display))
    sys.stderr.flush()
    # pywayland frees proxies of a dead connection at exit and crashes: leave at once.
    os._exit(0)


def main(mode, arg=None):
    c = Client()
    if mode == "maximized":
        maximized(c, arg or "maximized")
    elif mode == "popup":
        popup(c)
    elif mode == "button":
        button(c)
    elif mode == "remap":
        remap(c)
    elif mode == "last-output":
        last_output(c)
    else:
        misbehave(c, mode)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
