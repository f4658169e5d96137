#!/usr/bin/env python3
"""A window that drags and takes drops through wl_data_device (version 3), written with
pywayland, for Lodestone's drag-and-drop tests (DragAndDropTests).

Usage: drag_client.py TITLE RRGGBB [OPTIONS]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Maps a 200×150 window TITLE of one colour. Every window is a drop target; with --source
it also starts a drag on its first button press.

Source options:
  --source               start a drag on the first press, with a wl_data_source offering
                         text/plain and application/x-lodestone-test (PAYLOAD, below)
  --no-data              start it with no source (a drag within the client)
  --source-actions A     the source's actions (set_actions), e.g. copy,move (default copy,move)
  --bad-serial           start the drag with a serial that is not the press's
  --text STRING          offer STRING (UTF-8) as the data instead of PAYLOAD
  --icon                 a 40×30 icon of ICON_COLOUR, its hotspot at (10, 10) (wl_surface.offset)
  --touch                start the drag on the first touch down instead, with its serial
  --touch-late           start it when that finger lifts, with the down's serial (stale by then)
Target options:
  --accept MIME          accept MIME when it is offered (default text/plain); 'none' refuses
  --actions A            the target's actions (set_actions; default copy,move)
  --preferred A          its preferred action (default copy)
  --answer A             after a drop whose action is ask, choose A (set_actions) before finishing
  --exit-on-drop         exit at the drop, neither reading nor finishing (a target that dies)

Lines printed (flushed): 'mapped'; 'payload LEN SHA256' (a source); 'press SERIAL';
'started'; source events 'target MIME|none', 'action N', 'dnd_drop_performed',
'dnd_finished', 'cancelled'; target events 'enter TITLE-OF-SOURCE? X Y MIMES',
'offer_action N', 'motion X Y', 'leave', 'drop', 'received MIME LEN SHA256'; 'pointer
enter'/'pointer leave'/'key CODE STATE'; with --touch or --touch-late 'touch down SERIAL',
'touch motion X Y', 'touch up', 'touch cancel'.
"""
import hashlib
import mmap
import os
import sys
import threading

from pywayland import ffi
from pywayland.client import Display
from pywayland.protocol_core.message import Message
from pywayland.protocol.wayland import WlCompositor, WlDataDeviceManager, WlSeat, WlShm
from pywayland.protocol.xdg_shell import XdgWmBase

WIDTH, HEIGHT = 200, 150
ICON_W, ICON_H, ICON_COLOUR = 40, 30, 0xffff00ff
PAYLOAD = b"".join(b"Lodestone drag %05d " % i + bytes(range(256)) for i in range(400))
ACTIONS = {"none": 0, "copy": 1, "move": 2, "ask": 4}


# pywayland 0.4 tests a string argument's union, not its string, for NULL, so a null MIME
# type (wl_data_source.target when nothing is accepted) raised instead of giving None.
_c_to_arguments = Message.c_to_arguments


def c_to_arguments(self, args_ptr):
    if self.name == "target" and args_ptr[0].s == ffi.NULL:
        return [None]
    return _c_to_arguments(self, args_ptr)


Message.c_to_arguments = c_to_arguments


def log(*words):
    print(*words, flush=True)


def actions(text):
    return sum(ACTIONS[a] for a in text.split(",") if a)


def option(name, default=None):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


class Client:
    def __init__(self, title, colour):
        self.display = Display()
        self.display.connect()
        globals_ = {}
        # Kept: pywayland finds the display through live registries when it makes the
        # objects events bring (a drag's data_offer), and forgets a collected one.
        self.registry = registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: globals_.__setitem__(interface, name)
        self.display.roundtrip()
        self.compositor = registry.bind(globals_["wl_compositor"], WlCompositor, 4)
        self.shm = registry.bind(globals_["wl_shm"], WlShm, 1)
        self.wm = registry.bind(globals_["xdg_wm_base"], XdgWmBase, 2)
        self.seat = registry.bind(globals_["wl_seat"], WlSeat, 5)
        self.manager = registry.bind(globals_["wl_data_device_manager"], WlDataDeviceManager, 3)
        self.device = self.manager.get_data_device(self.seat)
        self.keep = []
        self.offer = None
        self.offers = {}
        self.dragging = False
        self.dropped = None
        self.surface = self.window(title, colour)
        self.listen()

    def buffer(self, width, height, colour):
        size = width * height * 4
        fd = os.memfd_create("drag-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m[:] = colour.to_bytes(4, "little") * (width * height)
        pool = self.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, width, height, width * 4, WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def window(self, title, colour):
        surface = self.compositor.create_surface()
        xdg = self.wm.get_xdg_surface(surface)
        top = xdg.get_toplevel()
        top.set_title(title)
        serials = []
        def configure(x, serial):
            serials.append(serial)
            x.ack_configure(serial)
        xdg.dispatcher["configure"] = configure
        self.wm.dispatcher["ping"] = lambda wm, serial: wm.pong(serial)
        surface.commit()
        while not serials and self.display.dispatch(block=True) >= 0:
            pass
        buf = self.buffer(WIDTH, HEIGHT, colour)
        surface.attach(buf, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        self.keep += [xdg, top, buf]
        self.display.roundtrip()
        return surface

    def listen(self):
        pointer = self.seat.get_pointer()
        keyboard = self.seat.get_keyboard()
        self.keep += [pointer, keyboard]
        pointer.dispatcher["enter"] = lambda p, serial, s, x, y: log("pointer enter")
        pointer.dispatcher["leave"] = lambda p, serial, s: log("pointer leave")
        pointer.dispatcher["button"] = self.button
        if "--touch" in sys.argv or "--touch-late" in sys.argv:
            touch = self.seat.get_touch()
            self.keep.append(touch)
            touch.dispatcher["down"] = self.touch_down
            touch.dispatcher["motion"] = lambda t, time, id_, x, y: log("touch motion", int(x), int(y))
            touch.dispatcher["up"] = self.touch_up
            touch.dispatcher["cancel"] = lambda t: log("touch cancel")
        keyboard.dispatcher["key"] = lambda k, serial, time, key, state: log("key", key, state)
        d = self.device
        d.dispatcher["data_offer"] = self.data_offer
        d.dispatcher["enter"] = self.enter
        d.dispatcher["leave"] = self.leave
        d.dispatcher["motion"] = lambda dev, time, x, y: log("motion", int(x), int(y))
        d.dispatcher["drop"] = self.drop
        d.dispatcher["selection"] = lambda dev, offer: None

    # The source side

    def button(self, pointer, serial, time, button, state):
        if state != 1 or "--touch" in sys.argv or "--touch-late" in sys.argv:
            return
        log("press", serial)
        self.start_drag(serial)

    def touch_down(self, touch, serial, time, surface, id_, x, y):
        log("touch down", serial)
        self.down_serial = serial
        if "--touch" in sys.argv:
            self.start_drag(serial)

    def touch_up(self, touch, serial, time, id_):
        log("touch up")
        if "--touch-late" in sys.argv:
            self.start_drag(self.down_serial)

    def start_drag(self, serial):
        if self.dragging or "--source" not in sys.argv and "--no-data" not in sys.argv:
            return
        self.dragging = True
        source = None
        if "--source" in sys.argv:
            source = self.manager.create_data_source()
            source.offer("text/plain")
            source.offer("application/x-lodestone-test")
            source.set_actions(actions(option("--source-actions", "copy,move")))
            source.dispatcher["target"] = lambda s, mime: log("target", mime if mime else "none")
            source.dispatcher["send"] = self.send
            source.dispatcher["action"] = lambda s, a: log("action", a)
            source.dispatcher["dnd_drop_performed"] = lambda s: log("dnd_drop_performed")
            source.dispatcher["dnd_finished"] = lambda s: log("dnd_finished")
            source.dispatcher["cancelled"] = lambda s: log("cancelled")
            self.keep.append(source)
        icon = self.compositor.create_surface() if "--icon" in sys.argv else None
        self.device.start_drag(source, self.surface, icon, serial + (1000 if "--bad-serial" in sys.argv else 0))
        if icon is not None:
            # Drawn once it has the role, as weston-dnd does; with wl_compositor version 4
            # the attach offset puts the hotspot at (10, 10).
            buf = self.buffer(ICON_W, ICON_H, ICON_COLOUR)
            icon.attach(buf, -10, -10)
            icon.damage_buffer(0, 0, ICON_W, ICON_H)
            icon.commit()
            self.keep += [icon, buf]
        self.display.roundtrip()
        log("started")

    def send(self, source, mime, fd):
        def write():
            with os.fdopen(fd, "wb") as f:
                f.write(PAYLOAD)
        # A thread: the target may be this client, reading on this thread.
        threading.Thread(target=write, daemon=True).start()

    # The target side

    def data_offer(self, device, offer):
        mimes = []
        self.offers[offer] = mimes
        offer.dispatcher["offer"] = lambda o, mime: mimes.append(mime)
        offer.dispatcher["source_actions"] = lambda o, a: log("source_actions", a)
        offer.dispatcher["action"] = self.offer_action

    def offer_action(self, offer, action):
        log("offer_action", action)
        self.action = action

    def enter(self, device, serial, surface, x, y, offer):
        self.offer, self.action = offer, 0
        mimes = self.offers.get(offer, []) if offer else []
        log("enter", int(x), int(y), ",".join(mimes) if mimes else "-")
        if offer is None:
            return
        want = option("--accept", "text/plain")
        offer.accept(serial, want if want in mimes else None)
        offer.set_actions(actions(option("--actions", "copy,move")), ACTIONS[option("--preferred", "copy")])

    def leave(self, device):
        log("leave")
        # wlroots (sway) sends leave right after drop: a dropped offer stays until it is read.
        if self.offer is not None and self.offer is not self.dropped:
            self.offer.destroy()
        self.offer = None

    def drop(self, device):
        log("drop")
        if "--exit-on-drop" in sys.argv:
            os._exit(0)
        # Read outside the event handler: the source may be this client, whose send event
        # must be dispatched first.
        self.dropped = self.offer

    def read_drop(self):
        offer, self.dropped = self.dropped, None
        if offer is None:
            return
        if self.action == ACTIONS["ask"] and option("--answer"):
            choice = ACTIONS[option("--answer")]
            offer.set_actions(choice, choice)
            self.display.roundtrip()
        mime = option("--accept", "text/plain")
        r, w = os.pipe()
        offer.receive(mime, w)
        os.close(w)
        self.display.roundtrip()
        data = b""
        while True:
            chunk = os.read(r, 65536)
            if not chunk:
                break
            data += chunk
        os.close(r)
        log("received", mime, len(data), hashlib.sha256(data).hexdigest())
        log("text", data[:200].decode(errors="replace"))
        offer.finish()
        offer.destroy()
        self.offer = None
        self.display.flush()


def main():
    global PAYLOAD
    title, colour = sys.argv[1], 0xff000000 | int(sys.argv[2], 16)
    if option("--text"):
        PAYLOAD = option("--text").encode()
    if "--source" in sys.argv:
        log("payload", len(PAYLOAD), hashlib.sha256(PAYLOAD).hexdigest())
    c = Client(title, colour)
    log("mapped")
    while c.display.dispatch(block=True) >= 0:
        c.read_drop()


if __name__ == "__main__":
    main()
