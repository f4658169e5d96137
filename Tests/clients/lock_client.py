#!/usr/bin/env python3
"""A session locker (ext_session_lock_v1) in pywayland, for Lodestone's SessionLockTests.

Usage: lock_client.py [--no-surfaces] [--color RRGGBB] [--word WORD]
       (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

It locks the session and, unless --no-surfaces, gives every wl_output (those there at the
start and any advertised later) a lock surface filled with COLOR (default 2060a0) at the size
each configure asks. Typing WORD (default 'unlock', lower-case letters) and Enter on its
keyboard unlocks (unlock_and_destroy, then a round trip) and exits 0.

Prints, each line flushed:
  locked | finished                      the lock's answer
  configure NAME W H                     a lock surface's configure (NAME: the wl_output's name)
  drawn NAME                             its buffer committed
  frame NAME                             its first frame callback after drawing came
  keyboard-enter                         the keyboard entered a lock surface
  key CODE                               a key pressed (evdev code)
  pointer-enter NAME X Y                 the pointer entered the lock surface on NAME
  button CODE                            a button pressed
  unlocked                               after unlock_and_destroy's round trip
"""
import mmap
import os
import sys

from pywayland.client import Display
from pywayland.protocol.ext_session_lock_v1 import ExtSessionLockManagerV1
from pywayland.protocol.wayland import WlCompositor, WlOutput, WlSeat, WlShm

# evdev codes of the lower-case letters (KEY_A...), and Enter.
LETTERS = dict(zip("qwertyuiop", range(16, 26))) | dict(zip("asdfghjkl", range(30, 39))) | dict(zip("zxcvbnm", range(44, 51)))
ENTER = 28


def say(*words):
    print(*words, flush=True)


class Locker:
    def __init__(self, surfaces=True, color=0x2060a0, word="unlock"):
        self.make_surfaces, self.color, self.word = surfaces, color, word
        self.display = Display()
        self.display.connect()
        self.registry = self.display.get_registry()
        self.outputs = {}  # global name -> [wl_output, output name, lock surface parts]
        self.globals = {}
        self.lock = None
        self.typed = ""
        self.done = False
        self.registry.dispatcher["global"] = self.on_global
        self.registry.dispatcher["global_remove"] = self.on_global_remove
        self.display.roundtrip()
        self.compositor = self.bind("wl_compositor", WlCompositor, 4)
        self.shm = self.bind("wl_shm", WlShm, 1)
        seat = self.bind("wl_seat", WlSeat, 5)
        self.keyboard = seat.get_keyboard()
        self.keyboard.dispatcher["enter"] = lambda k, serial, surface, keys: say("keyboard-enter")
        self.keyboard.dispatcher["key"] = self.on_key
        self.pointer = seat.get_pointer()
        self.pointer.dispatcher["enter"] = self.on_pointer_enter
        self.pointer.dispatcher["button"] = lambda p, serial, time, button, state: state == 1 and say("button", button)
        self.manager = self.bind("ext_session_lock_manager_v1", ExtSessionLockManagerV1, 1)
        self.display.roundtrip()  # the outputs' names

    def bind(self, interface, cls, version):
        return self.registry.bind(self.globals[interface][0], cls, version)

    def on_global(self, registry, name, interface, version):
        self.globals[interface] = (name, version)
        if interface == "wl_output":
            output = registry.bind(name, WlOutput, min(version, 4))
            entry = [output, "output-%d" % name, None]
            output.dispatcher["name"] = lambda o, n: entry.__setitem__(1, n)
            self.outputs[name] = entry
            # One advertised while locked gets its lock surface once its name is known.
            if self.lock is not None:
                output.dispatcher["done"] = lambda o: entry[2] is None and self.lock_surface(entry)

    def on_global_remove(self, registry, name):
        entry = self.outputs.pop(name, None)
        if entry and entry[2]:
            entry[2][1].destroy()
            entry[2][0].destroy()

    def start(self):
        self.lock = self.manager.lock()
        self.lock.dispatcher["locked"] = lambda lock: say("locked")
        self.lock.dispatcher["finished"] = self.on_finished
        if self.make_surfaces:
            for entry in list(self.outputs.values()):
                self.lock_surface(entry)

    def on_finished(self, lock):
        say("finished")
        lock.destroy()
        self.display.roundtrip()
        self.done = True

    def lock_surface(self, entry):
        if not self.make_surfaces:
            return
        surface = self.compositor.create_surface()
        lock_surface = self.lock.get_lock_surface(surface, entry[0])
        entry[2] = (surface, lock_surface)
        name = entry[1]

        def on_configure(ls, serial, width, height):
            say("configure", name, width, height)
            ls.ack_configure(serial)
            self.draw(surface, name, width, height)
        lock_surface.dispatcher["configure"] = on_configure

    def draw(self, surface, name, width, height):
        size = width * height * 4
        fd = os.memfd_create("lock-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m.write((0xff000000 | self.color).to_bytes(4, "little") * (width * height))
        pool = self.shm.create_pool(fd, size)
        buffer = pool.create_buffer(0, width, height, width * 4, WlShm.format.xrgb8888.value)
        pool.destroy()
        os.close(fd)
        surface.attach(buffer, 0, 0)
        surface.damage_buffer(0, 0, width, height)
        callback = surface.frame()
        callback.dispatcher["done"] = lambda c, t: say("frame", name)
        surface.commit()
        say("drawn", name)

    def on_pointer_enter(self, pointer, serial, surface, x, y):
        names = [e[1] for e in self.outputs.values() if e[2] and e[2][0] == surface]
        say("pointer-enter", names[0] if names else "?", int(x), int(y))

    def on_key(self, keyboard, serial, time, key, state):
        if state != 1:
            return
        say("key", key)
        if key == ENTER:
            if self.typed == self.word:
                self.unlock()
            self.typed = ""
        else:
            self.typed += next((c for c, code in LETTERS.items() if code == key), "?")

    def unlock(self):
        self.lock.unlock_and_destroy()
        # The protocol asks for a round trip before exiting, or the unlock may be lost.
        self.display.roundtrip()
        say("unlocked")
        self.done = True

    def run(self):
        self.start()
        while not self.done and self.display.dispatch(block=True) >= 0:
            pass


def main(argv):
    surfaces, color, word = True, 0x2060a0, "unlock"
    i = 0
    while i < len(argv):
        if argv[i] == "--no-surfaces":
            surfaces = False
        elif argv[i] == "--color":
            i += 1
            color = int(argv[i], 16)
        elif argv[i] == "--word":
            i += 1
            word = argv[i]
        else:
            print("unknown argument " + argv[i], file=sys.stderr)
            sys.exit(2)
        i += 1
    Locker(surfaces, color, word).run()
    # pywayland's finalizers touch proxies of a closed connection; skip them.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
