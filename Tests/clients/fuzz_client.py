#!/usr/bin/env python3
"""A random request-stream fuzzer for Lodestone (issue 17, 2b), written with pywayland.

Usage: fuzz_client.py SECONDS SEED CORPUS_DIR [--session-lock]
       fuzz_client.py --replay FILE          (one stream from the corpus)
(WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor.)

Until SECONDS have passed, it opens connections one after another. Each stream binds
globals, sends 20 to 200 valid-looking and invalid requests with extreme arguments
(0, ±1, INT32_MIN, INT32_MAX, ...), then disconnects cleanly or just closes its socket.
After each stream a fresh connection makes a round trip: if it cannot, the compositor is
gone, and the stream's seed is written to CORPUS_DIR/crash-SEED.txt (replay it with
--replay). Every stream's seed goes to CORPUS_DIR/last.txt before it runs, so a stream
that hangs the compositor is known too.

With --session-lock, streams also lock the session (ext_session_lock_v1: lock, lock
surfaces on any surface and output, acks with any serial, commits of any size, unlock and
destroy in any order); a stream that dies leaves the session locked, so only a test that
unlocks it afterwards (SessionLockTests) passes it. Without it the streams are as before.

Prints 'streams N crashes C fds leaked F (of S open at the start)' last. Exits 1 when C > 0,
2 when the fuzzer itself failed (its traceback and the stream's seed above), 3 when it leaked
more than 16 fds.
"""
import mmap
import os
import random
import socket
import sys
import time
import traceback

from pywayland.client import Display
from pywayland.protocol.wayland import WlCompositor, WlDataDeviceManager, WlSeat, WlShm, WlSubcompositor
from pywayland.protocol.xdg_shell import XdgWmBase
from pywayland.protocol.ext_session_lock_v1 import ExtSessionLockManagerV1
from pywayland.protocol.wayland import WlOutput
from pywayland.protocol.ext_idle_notify_v1 import ExtIdleNotifierV1
from pywayland.protocol.ext_foreign_toplevel_list_v1 import ExtForeignToplevelListV1
from pywayland.protocol.linux_dmabuf_unstable_v1 import ZwpLinuxDmabufV1

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ime_protocols  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import layer_client
    LAYER_SHELL = layer_client.bindings()[2]
except Exception as error:  # no pkg-config or scanner: the streams leave the layer shell out
    print("no layer shell bindings:", error, file=sys.stderr)
    LAYER_SHELL = None

INT32_MAX, INT32_MIN = 2**31 - 1, -2**31
KEPT = []
SESSION_LOCK = "--session-lock" in sys.argv
# Text input, input method and virtual keyboard (issue 39): generated once per run.
_, _, TI, IM, VK = ime_protocols.bindings()
EXTREMES = [0, 1, -1, 2, 64, INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1, 1 << 24, -(1 << 24), 65535]


def an_int(rng):
    return rng.choice(EXTREMES) if rng.random() < 0.7 else rng.randint(INT32_MIN, INT32_MAX)


def a_uint(rng):
    return rng.choice([0, 1, 2, 3, 7, 8, 9, 63, 0xFFFFFFFF, 0x7FFFFFFF]) if rng.random() < 0.7 else rng.randint(0, 0xFFFFFFFF)


def a_size(rng):
    return rng.choice([1, 2, 16, 64, 300]) if rng.random() < 0.8 else an_int(rng)


class Stream:
    def __init__(self, rng):
        self.rng = rng
        self.d = Display()
        self.d.connect()
        try:
            self.bind()
        except Exception:
            # Half built: its proxies must not outlive the connection in the collector.
            self.end()
            raise

    def end(self):
        """Disconnects, and keeps the proxies: pywayland's finalizers touch a dead connection."""
        self.d.disconnect()
        KEPT.append(self)

    def bind(self):
        self.globals = {}
        registry = self.d.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, (name, version))
        self.d.roundtrip()
        self.compositor = registry.bind(self.globals["wl_compositor"][0], WlCompositor, 5)
        self.sub = registry.bind(self.globals["wl_subcompositor"][0], WlSubcompositor, 1)
        self.wm = registry.bind(self.globals["xdg_wm_base"][0], XdgWmBase, 3)
        self.shm = registry.bind(self.globals["wl_shm"][0], WlShm, 1)
        self.seat = registry.bind(self.globals["wl_seat"][0], WlSeat, 5)
        self.ddm = registry.bind(self.globals["wl_data_device_manager"][0], WlDataDeviceManager, 3)
        self.serials = [0]
        self.wm.dispatcher["ping"] = lambda wm, serial: wm.pong(serial)
        self.surfaces, self.regions, self.subs, self.xdgs, self.toplevels = [], [], [], [], []
        self.positioners, self.popups, self.buffers, self.sources = [], [], [], []
        self.pointer = self.seat.get_pointer()
        self.pointer.dispatcher["enter"] = lambda p, serial, s, x, y: self.serials.append(serial)
        self.pointer.dispatcher["button"] = lambda p, serial, t, b, st: self.serials.append(serial)
        self.device = self.ddm.get_data_device(self.seat)
        self.registry = registry
        self.notifier, self.notifications, self.toplevel_list, self.handles = None, [], None, []
        self.dmabuf, self.dmabuf_version, self.dmabuf_params = None, 0, []
        self.grabs, self.feedbacks = [], []
        self.text_input = registry.bind(self.globals["zwp_text_input_manager_v3"][0], TI.ZwpTextInputManagerV3, 1).get_text_input(self.seat)
        self.input_method = registry.bind(self.globals["zwp_input_method_manager_v2"][0], IM.ZwpInputMethodManagerV2, 1).get_input_method(self.seat)
        self.virtual_keyboard = registry.bind(self.globals["zwp_virtual_keyboard_manager_v1"][0], VK.ZwpVirtualKeyboardManagerV1, 1).create_virtual_keyboard(self.seat)
        # zwlr_layer_shell_v1, not in pywayland: bindings generated from protocols/ (layer_client.py).
        self.layers = []
        self.layer_shell = None
        if LAYER_SHELL and "zwlr_layer_shell_v1" in self.globals:
            self.layer_shell = registry.bind(self.globals["zwlr_layer_shell_v1"][0], LAYER_SHELL.ZwlrLayerShellV1, 4)
        self.locks, self.lock_surfaces, self.outputs = [], [], []
        if SESSION_LOCK:
            self.lock_manager = registry.bind(self.globals["ext_session_lock_manager_v1"][0], ExtSessionLockManagerV1, 1)
            self.outputs.append(registry.bind(self.globals["wl_output"][0], WlOutput, 1))

    def pick(self, items):
        return self.rng.choice(items) if items else None

    def buffer(self):
        w, h = self.rng.choice([(1, 1), (4, 4), (64, 48), (2, 6)])
        size = w * h * 4
        fd = os.memfd_create("fuzz", 0)
        os.ftruncate(fd, size)
        pool = self.shm.create_pool(fd, size)
        stride = w * 4 if self.rng.random() < 0.9 else a_size(self.rng)
        offset = 0 if self.rng.random() < 0.9 else an_int(self.rng)
        buf = pool.create_buffer(offset, w, h, stride, self.rng.choice([0, 1]))
        if self.rng.random() < 0.1:
            os.ftruncate(fd, 0)
        pool.destroy()
        os.close(fd)
        self.buffers.append(buf)
        return buf

    def action(self):
        r = self.rng
        s = self.pick(self.surfaces)
        # linux-dmabuf's one, then the session lock's four last (--session-lock), after everything else.
        self.dmabuf_choice = 39 if self.layer_shell else 35
        self.base = self.dmabuf_choice + 1
        choice = r.randrange(self.base + 4 if SESSION_LOCK else self.base)
        if choice < 3 or s is None:
            self.surfaces.append(self.compositor.create_surface())
        elif choice == 3:
            s.attach(self.pick(self.buffers) or self.buffer(), 0, 0)
        elif choice == 4:
            # Mostly no offset: on version 5 any other is an error that ends the stream.
            s.attach(self.buffer(), *((an_int(r), an_int(r)) if r.random() < 0.1 else (0, 0)))
        elif choice == 5:
            s.damage(an_int(r), an_int(r), an_int(r), an_int(r))
        elif choice == 6:
            s.damage_buffer(an_int(r), an_int(r), an_int(r), an_int(r))
        elif choice == 7:
            s.offset(an_int(r), an_int(r))
        elif choice == 8:
            s.set_buffer_scale(r.choice([1, 2, 3, INT32_MAX, 0, -1]))
        elif choice == 9:
            s.set_buffer_transform(r.choice([0, 1, 2, 3, 4, 5, 6, 7, 8, -1]))
        elif choice == 10:
            s.frame()
        elif choice in (11, 12, 13):
            s.commit()
        elif choice == 14:
            region = self.compositor.create_region()
            for _ in range(r.randrange(5)):
                (region.add if r.random() < 0.7 else region.subtract)(an_int(r), an_int(r), an_int(r), an_int(r))
            self.regions.append(region)
            (s.set_input_region if r.random() < 0.5 else s.set_opaque_region)(region if r.random() < 0.9 else None)
        elif choice == 15:
            parent = self.pick(self.surfaces)
            self.subs.append(self.sub.get_subsurface(s, parent))
        elif choice == 16 and self.subs:
            sub = self.pick(self.subs)
            which = r.randrange(5)
            if which == 0:
                sub.set_position(an_int(r), an_int(r))
            elif which == 1:
                sub.place_above(self.pick(self.surfaces))
            elif which == 2:
                sub.place_below(self.pick(self.surfaces))
            elif which == 3:
                sub.set_desync()
            else:
                sub.set_sync()
        elif choice == 17:
            xdg = self.wm.get_xdg_surface(s)
            xdg.dispatcher["configure"] = lambda x, serial: x.ack_configure(serial) if r.random() < 0.9 else None
            self.xdgs.append(xdg)
        elif choice == 18 and self.xdgs:
            t = self.pick(self.xdgs).get_toplevel()
            self.toplevels.append(t)
        elif choice == 19 and self.toplevels:
            t = self.pick(self.toplevels)
            which = r.randrange(8)
            if which == 0:
                t.set_min_size(an_int(r), an_int(r))
            elif which == 1:
                t.set_max_size(an_int(r), an_int(r))
            elif which == 2:
                t.set_maximized()
            elif which == 3:
                t.set_fullscreen(None)
            elif which == 4:
                t.move(self.seat, self.pick(self.serials))
            elif which == 5:
                t.resize(self.seat, self.pick(self.serials), a_uint(r))
            elif which == 6:
                t.set_parent(self.pick(self.toplevels))
            else:
                t.set_title("x" * r.choice([0, 1, 300, 5000]))
        elif choice == 20 and self.xdgs:
            self.pick(self.xdgs).set_window_geometry(an_int(r), an_int(r), an_int(r), an_int(r))
        elif choice == 21:
            p = self.wm.create_positioner()
            p.set_size(a_size(r), a_size(r))
            p.set_anchor_rect(an_int(r), an_int(r), a_size(r), a_size(r))
            p.set_offset(an_int(r), an_int(r))
            p.set_anchor(r.randrange(10))
            p.set_gravity(r.randrange(10))
            p.set_constraint_adjustment(a_uint(r) & 63)
            self.positioners.append(p)
        elif choice == 22 and self.xdgs and self.positioners:
            popup = self.pick(self.xdgs).get_popup(self.pick(self.xdgs + [None]), self.pick(self.positioners))
            if r.random() < 0.5:
                popup.grab(self.seat, self.pick(self.serials) if r.random() < 0.5 else a_uint(r))
            self.popups.append(popup)
        elif choice == 23 and self.popups and self.positioners:
            self.pick(self.popups).reposition(self.pick(self.positioners), a_uint(r))
        elif choice == 24:
            src = self.ddm.create_data_source()
            src.dispatcher["send"] = lambda source, mime, fd: os.close(fd)
            src.offer("text/plain")
            self.sources.append(src)
            self.device.set_selection(src if r.random() < 0.8 else None, self.pick(self.serials) if r.random() < 0.5 else a_uint(r))
        elif choice == 25:
            self.pointer.set_cursor(self.pick(self.serials), s if r.random() < 0.8 else None, an_int(r), an_int(r))
        elif choice == 26:
            # Destroy something, in any order.
            pools = [self.surfaces, self.subs, self.xdgs, self.toplevels, self.popups, self.regions, self.buffers, self.positioners]
            items = r.choice(pools)
            if items:
                items.pop(r.randrange(len(items))).destroy()
        elif choice == 27:
            self.d.roundtrip()
        elif choice == 30 and "ext_idle_notifier_v1" in self.globals:
            # Idle notifications with any timeout, destroyed in any order with their notifier.
            if self.notifier is None:
                self.notifier = self.registry.bind(self.globals["ext_idle_notifier_v1"][0], ExtIdleNotifierV1, 1)
            which = r.randrange(4)
            if which < 2:
                self.notifications.append(self.notifier.get_idle_notification(a_uint(r), self.seat))
            elif which == 2 and self.notifications:
                self.notifications.pop(r.randrange(len(self.notifications))).destroy()
            else:
                self.notifier.destroy()
                self.notifier = None
        elif choice == 31 and "ext_foreign_toplevel_list_v1" in self.globals:
            # A toplevel list: its handles destroyed while their windows live, stop, destroy.
            if self.toplevel_list is None:
                self.toplevel_list = self.registry.bind(self.globals["ext_foreign_toplevel_list_v1"][0], ExtForeignToplevelListV1, 1)
                self.toplevel_list.dispatcher["toplevel"] = lambda l, handle: self.handles.append(handle)
            which = r.randrange(4)
            if which == 0 and self.handles:
                self.handles.pop(r.randrange(len(self.handles))).destroy()
            elif which == 1:
                self.toplevel_list.stop()
            elif which == 2:
                self.toplevel_list.destroy()
                self.toplevel_list = None
            else:
                self.d.roundtrip()
        elif choice == 32:
            t = self.text_input
            which = r.randrange(6)
            if which == 0:
                (t.enable if r.random() < 0.7 else t.disable)()
            elif which == 1:
                t.set_surrounding_text("あ" * r.choice([0, 1, 100, 1300]), an_int(r), an_int(r))
            elif which == 2:
                t.set_content_type(a_uint(r), a_uint(r))
            elif which == 3:
                t.set_cursor_rectangle(an_int(r), an_int(r), an_int(r), an_int(r))
            elif which == 4:
                t.set_text_change_cause(a_uint(r))
            t.commit()
        elif choice == 33:
            m = self.input_method
            which = r.randrange(5)
            if which == 0:
                m.set_preedit_string("に" * r.choice([0, 1, 100, 1300]), an_int(r), an_int(r))
            elif which == 1:
                m.commit_string("日" * r.choice([0, 1, 1300]))
            elif which == 2:
                m.delete_surrounding_text(a_uint(r), a_uint(r))
            elif which == 3:
                m.get_input_popup_surface(s)
            elif r.random() < 0.5:
                # The grab's keymap comes as an fd: close it, or a long run runs out of fds.
                grab = m.grab_keyboard()
                grab.dispatcher["keymap"] = lambda g, fmt, fd, size: os.close(fd)
                self.grabs.append(grab)
            m.commit(a_uint(r) if r.random() < 0.5 else r.randrange(4))
        elif choice == 34:
            k = self.virtual_keyboard
            if r.random() < 0.3:
                fd = os.memfd_create("fuzz-keymap", 0)
                os.write(fd, r.choice([b"xkb_keymap { };\0", b"garbage", b""]))
                k.keymap(r.choice([0, 1, 2]), fd, a_uint(r) if r.random() < 0.5 else 16)
                os.close(fd)
            elif r.random() < 0.5:
                k.key(a_uint(r), a_uint(r), r.choice([0, 1, 2]))
            else:
                k.modifiers(a_uint(r), a_uint(r), a_uint(r), a_uint(r))
        elif choice == self.dmabuf_choice:
            # linux-dmabuf params from memfds (no dmabuf: at best `failed`): any plane index,
            # offset, stride and modifier, created at any size and format, twice, or destroyed.
            if "zwp_linux_dmabuf_v1" not in self.globals:
                return
            if self.dmabuf is None:
                self.dmabuf_version = r.choice([1, 3, 4])
                self.dmabuf = self.registry.bind(self.globals["zwp_linux_dmabuf_v1"][0], ZwpLinuxDmabufV1, self.dmabuf_version)
            which = r.randrange(5)
            if which == 0 or not self.dmabuf_params:
                self.dmabuf_params.append(self.dmabuf.create_params())
            elif which == 1:
                fd = os.memfd_create("fuzz-dmabuf", 0)
                os.ftruncate(fd, r.choice([0, 4096, 1 << 20]))
                self.pick(self.dmabuf_params).add(fd, r.choice([0, 1, 3, 4, a_uint(r)]), a_uint(r), a_uint(r),
                                                  r.choice([0, 0x00FFFFFF, a_uint(r)]), r.choice([0, 0xFFFFFFFF, a_uint(r)]))
                os.close(fd)
            elif which == 2:
                fourcc = r.choice([0x34325258, 0x34325241, 0x3231564E, a_uint(r)])
                p = self.pick(self.dmabuf_params)
                if r.random() < 0.5 and self.dmabuf_version >= 2:
                    self.buffers.append(p.create_immed(a_size(r), a_size(r), fourcc, r.choice([0, 1, 2, a_uint(r)])))
                else:
                    p.dispatcher["created"] = lambda params, buffer: self.buffers.append(buffer)
                    p.create(a_size(r), a_size(r), fourcc, r.choice([0, 1, 2, a_uint(r)]))
            elif which == 3:
                self.dmabuf_params.pop(r.randrange(len(self.dmabuf_params))).destroy()
            elif self.dmabuf_version >= 4:
                feedback = self.dmabuf.get_default_feedback()
                feedback.dispatcher["format_table"] = lambda f, fd, size: os.close(fd)
                self.feedbacks.append(feedback)
            else:
                self.d.roundtrip()
        elif choice == 35:
            layer = self.layer_shell.get_layer_surface(s, None, r.choice([0, 1, 2, 3, 3, 4, a_uint(r)]), "fuzz")
            layer.dispatcher["configure"] = lambda l, serial, w, h: l.ack_configure(serial if r.random() < 0.9 else a_uint(r))
            self.layers.append(layer)
        elif choice == 36 and self.layers:
            layer = self.pick(self.layers)
            which = r.randrange(6)
            if which == 0:
                layer.set_size(a_uint(r) if r.random() < 0.3 else r.choice([0, 1, 30, 300]), a_uint(r) if r.random() < 0.3 else r.choice([0, 1, 30]))
            elif which == 1:
                layer.set_anchor(r.randrange(16) if r.random() < 0.9 else a_uint(r))
            elif which == 2:
                layer.set_exclusive_zone(an_int(r))
            elif which == 3:
                layer.set_margin(an_int(r), an_int(r), an_int(r), an_int(r))
            elif which == 4:
                layer.set_keyboard_interactivity(r.choice([0, 1, 2, 3]))
            else:
                layer.set_layer(r.choice([0, 1, 2, 3, 4]))
        elif choice == 37 and self.layers and self.popups:
            self.pick(self.layers).get_popup(self.pick(self.popups))
        elif choice == 38 and self.layers:
            self.layers.pop(r.randrange(len(self.layers))).destroy()
        elif choice >= self.base:
            self.lock_action(choice - self.base + 30, s)
        else:
            s.commit()

    def lock_action(self, choice, s):
        r = self.rng
        if choice == 30 or not self.locks:
            self.locks.append(self.lock_manager.lock())
        elif choice == 31:
            surface = s if r.random() < 0.7 else self.compositor.create_surface()
            ls = self.pick(self.locks).get_lock_surface(surface, self.pick(self.outputs))

            def on_configure(lock_surface, serial, width, height):
                self.serials.append(serial)
                if r.random() < 0.8:
                    lock_surface.ack_configure(serial)
                if r.random() < 0.5:
                    surface.attach(self.buffer(), 0, 0)
                    surface.commit()
            ls.dispatcher["configure"] = on_configure
            self.lock_surfaces.append(ls)
        elif choice == 32 and self.lock_surfaces:
            self.pick(self.lock_surfaces).ack_configure(self.pick(self.serials) if r.random() < 0.5 else a_uint(r))
        else:
            items = self.lock_surfaces if self.lock_surfaces and r.random() < 0.3 else self.locks
            item = items.pop(r.randrange(len(items)))
            if items is self.locks and r.random() < 0.5:
                item.unlock_and_destroy()
            else:
                item.destroy()

    def run(self, count):
        for i in range(count):
            try:
                self.action()
            except (ValueError, OverflowError, TypeError, KeyError, RuntimeError):
                pass
            if i % 25 == 0:
                try:
                    if self.d.dispatch(block=False) < 0:
                        break
                    self.d.flush()
                except Exception:
                    break
        try:
            self.d.roundtrip()
        except Exception:
            pass


def compositor_alive():
    try:
        d = Display()
        d.connect()
        ok = d.roundtrip() >= 0
        d.disconnect()
        return ok
    except Exception:
        return False


def one_stream(seed):
    rng = random.Random(seed)
    try:
        stream = Stream(rng)
    except Exception:
        return
    stream.run(rng.randint(20, 200))
    if rng.random() < 0.5:
        # Abrupt: the connection ends under the compositor without a clean goodbye.
        sock = socket.socket(fileno=os.dup(stream.d.get_fd()))
        sock.shutdown(socket.SHUT_RDWR)
        sock.close()
    stream.end()


def open_fds():
    return len(os.listdir("/proc/self/fd"))


def main():
    if sys.argv[1] == "--replay":
        seed = int(open(sys.argv[2]).read().split()[0])
        one_stream(seed)
        print("replayed %d; compositor %s" % (seed, "alive" if compositor_alive() else "gone"), flush=True)
        os._exit(0)
    args = [a for a in sys.argv[1:] if a != "--session-lock"]
    seconds, base, corpus = float(args[0]), int(args[1]), args[2]
    os.makedirs(corpus, exist_ok=True)
    deadline = time.monotonic() + seconds
    streams = crashes = 0
    fds = open_fds()
    while time.monotonic() < deadline:
        seed = base * 1_000_000 + streams
        with open(os.path.join(corpus, "last.txt"), "w") as f:
            f.write("%d\n" % seed)
        try:
            one_stream(seed)
        except Exception:
            # The fuzzer's own fault, not the compositor's: say which stream, and leave
            # before interpreter shutdown runs pywayland's finalizers (a SIGSEGV or SIGABRT
            # that would hide the traceback).
            traceback.print_exc()
            print("the fuzzer failed in the stream with seed %d" % seed, flush=True)
            os._exit(2)
        streams += 1
        if not compositor_alive():
            crashes += 1
            with open(os.path.join(corpus, "crash-%d.txt" % seed), "w") as f:
                f.write("%d\n" % seed)
            print("crash with seed %d" % seed, flush=True)
            break
    # Every stream closes what it opened and every fd it was sent: a leak ends long runs
    # in EMFILE (a CI run's fuzzer died so, its summary never printed).
    leaked = open_fds() - fds
    print("streams %d crashes %d fds leaked %d (of %d open at the start)" % (streams, crashes, leaked, fds), flush=True)
    os._exit(1 if crashes else 3 if leaked > 16 else 0)


if __name__ == "__main__":
    main()
