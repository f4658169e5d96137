#!/usr/bin/env python3
"""Clipboard clients for Lodestone's data-control tests (DataControlTests), in pywayland.

Usage: data_control_client.py MODE [TEXT]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  used-source       zwlr_data_control_device_v1.set_selection twice with one source
                    (error used_source)
  offer-after-use   zwlr_data_control_source_v1.offer after set_selection (error invalid_offer)
  paste-window      a regular client: map a window, wait for the keyboard, then paste the
                    wl_data_device selection (text/plain;charset=utf-8); prints 'pasted: TEXT'
  copy-window TEXT  a regular client: map a window, wait for the keyboard, set TEXT as the
                    wl_data_device selection with the keyboard-enter serial; prints 'copied',
                    serves pastes until killed

The error modes print 'RESULT: protocol-error' (libwayland logs 'interface#id: error code: ...'
on stderr) or 'RESULT: ok'. The bindings are generated from
protocols/wlr-data-control-unstable-v1.xml (not in pywayland) with pywayland's scanner at
start-up, with the core protocol and xdg-shell (pywayland_bindings.py).
"""
import errno
import mmap
import os
import sys
import time
import pywayland_bindings

HERE = os.path.dirname(os.path.abspath(__file__))
DATA_CONTROL = os.path.join(HERE, "..", "..", "protocols", "wlr-data-control-unstable-v1.xml")
MIME = "text/plain;charset=utf-8"


def bindings():
    return pywayland_bindings.generate("data_control_protocols",
                                       [pywayland_bindings.core(),
                                        pywayland_bindings.wayland_protocols("stable", "xdg-shell", "xdg-shell.xml"), DATA_CONTROL],
                                       ["wayland", "xdg_shell", "wlr_data_control_unstable_v1"])

def say(*words):
    print(*words, flush=True)


class Client:
    def __init__(self):
        from pywayland.client import Display
        self.wl, self.xdg, self.dc = bindings()
        self.display = Display()
        self.display.connect()
        self.globals = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, (name, version))
        self.display.roundtrip()
        self.registry = registry
        self.seat = self.bind("wl_seat", self.wl.WlSeat, 5)

    def bind(self, name, cls, version):
        return self.registry.bind(self.globals[name][0], cls, version)

    def outcome(self):
        from pywayland import ffi, lib  # noqa: F401
        code = lib.wl_display_get_error(self.display._ptr)
        return "ok" if code == 0 else ("protocol-error" if code == errno.EPROTO else "disconnected")

    def settle(self):
        for _ in range(3):
            if self.display.roundtrip() < 0:
                break

    def focused_window(self):
        """Maps a 64×48 window and waits for the keyboard; returns the enter serial."""
        compositor = self.bind("wl_compositor", self.wl.WlCompositor, 4)
        shm = self.bind("wl_shm", self.wl.WlShm, 1)
        wm = self.bind("xdg_wm_base", self.xdg.XdgWmBase, 2)
        wm.dispatcher["ping"] = lambda w, serial: w.pong(serial)
        keyboard = self.seat.get_keyboard()
        entered = []
        keyboard.dispatcher["enter"] = lambda k, serial, surface, keys: entered.append(serial)
        surface = compositor.create_surface()
        xdg_surface = wm.get_xdg_surface(surface)
        toplevel = xdg_surface.get_toplevel()
        toplevel.set_title("data-control-client")
        configured = []
        xdg_surface.dispatcher["configure"] = lambda x, serial: configured.append(serial)
        surface.commit()
        while not configured and self.display.dispatch(block=True) >= 0:
            pass
        xdg_surface.ack_configure(configured[-1])
        width, height = 64, 48
        fd = os.memfd_create("data-control-client", 0)
        os.ftruncate(fd, width * height * 4)
        with mmap.mmap(fd, width * height * 4) as m:
            m.write(b"\x40\x80\xc0\xff" * (width * height))
        pool = shm.create_pool(fd, width * height * 4)
        buffer = pool.create_buffer(0, width, height, width * 4, 0)  # argb8888
        surface.attach(buffer, 0, 0)
        surface.damage_buffer(0, 0, width, height)
        surface.commit()
        self._keep = (surface, xdg_surface, toplevel, keyboard, pool, buffer)
        while not entered and self.display.dispatch(block=True) >= 0:
            pass
        return entered[0]


def main(mode, arg=None):
    c = Client()
    if mode in ("used-source", "offer-after-use"):
        manager = c.bind("zwlr_data_control_manager_v1", c.dc.ZwlrDataControlManagerV1, 2)
        device = manager.get_data_device(c.seat)
        source = manager.create_data_source()
        source.offer(MIME)
        device.set_selection(source)
        c.settle()
        if mode == "used-source":
            device.set_selection(source)
        else:
            source.offer("text/html")
        c.settle()
        say("RESULT: " + c.outcome())
        # pywayland's proxies crash when collected after a protocol error: end here.
        os._exit(0)
    elif mode == "paste-window":
        manager = c.bind("wl_data_device_manager", c.wl.WlDataDeviceManager, 3)
        device = manager.get_data_device(c.seat)
        mimes = {}
        selection = []
        def on_data_offer(d, offer):
            mimes[offer] = []

            def on_offer(o, mime):
                mimes[o].append(mime)
            offer.dispatcher["offer"] = on_offer

        def on_selection(d, offer):
            selection.append(offer)
        device.dispatcher["data_offer"] = on_data_offer
        device.dispatcher["selection"] = on_selection
        c.focused_window()
        deadline = time.monotonic() + 10
        while not (selection and selection[-1] is not None and MIME in mimes.get(selection[-1], [])):
            if time.monotonic() > deadline or c.display.dispatch(block=True) < 0:
                say("RESULT: no selection offered, " + c.outcome())
                return
        read_end, write_end = os.pipe()
        selection[-1].receive(MIME, write_end)
        c.display.flush()
        os.close(write_end)
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
        say("pasted: " + data.decode())
        os._exit(0)
    elif mode == "copy-window":
        manager = c.bind("wl_data_device_manager", c.wl.WlDataDeviceManager, 3)
        device = manager.get_data_device(c.seat)
        serial = c.focused_window()
        source = manager.create_data_source()
        source.offer(MIME)

        def on_send(s, mime, fd):
            os.write(fd, arg.encode())
            os.close(fd)

        source.dispatcher["send"] = on_send
        source.dispatcher["cancelled"] = lambda s: say("cancelled")
        device.set_selection(source, serial)
        c.settle()
        say("copied")
        while c.display.dispatch(block=True) >= 0:
            pass


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
