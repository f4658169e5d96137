#!/usr/bin/env python3
"""A misbehaving Wayland client, written with pywayland, for Lodestone's tests.

Usage: bad_client.py MODE   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  disconnect-mid-frame    map a window, ask for a frame callback, commit, and vanish
  destroy-attached-buffer attach a buffer, destroy it, commit; then again after commit
  truncate-pool           commit a buffer from a pool whose file was truncated to 0
  short-sealed-pool       a pool whose file is sealed against shrinking but shorter than the
                          pool and its buffer (a nested Lodestone must not share it with its
                          parent: the parent would fault on it); the buffer committed
  truncate-shown-pool     map a window, then truncate the pool of the buffer it shows and
                          damage it (the compositor reads buffers in place); prints 'shown'
  huge-buffer N           map an N×N xrgb window (never written), print 'mapped', stay
  shm-past-pool           wl_shm_pool.create_buffer reaching past its 64-byte pool (an error
                          libwayland posts itself, not Lodestone)
  invalid-scale           wl_surface.set_buffer_scale(0)
  invalid-transform       wl_surface.set_buffer_transform(42)
  bad-ack                 xdg_surface.ack_configure with a serial never sent
  buffer-before-configure commit a buffer on an xdg_surface before any configure
  start-drag              start a drag-and-drop with a serial of no press (the source must be cancelled)
  drag-error KIND         break wl_data_device drag-and-drop: actions-twice (set_actions twice),
                          bad-actions (set_actions(8)), actions-after-selection (set_actions on a
                          source given to set_selection), selection-then-drag (start_drag with it)
  cursor-reentry N        map a window and set the same cursor surface after each of N
                          wl_pointer.enter events (the test moves the pointer in and out);
                          prints 'enter K' after each, flushed
  cursor-pool-grows       GTK 4's cursor pattern (a valid client, issue 23): on enter, a
                          24×24 cursor from a 2304-byte pool, shown until its frame callback
                          comes; then wl_shm_pool.resize(6912) and a second 24×24 buffer at
                          offset 2304 in the same pool, made the cursor; prints 'cursor 1'
                          and 'cursor 2'
  cursor-then-xdg         set a cursor surface on enter, then make it an xdg_surface
  subsurface-as-cursor    set a surface that is a subsurface as the cursor on enter
  oversized               map a 1600×1000 window, follow the configure that asks it to fit,
                          print 'resized W H', then stay until disconnected
  frame-flood             2,000 wl_surface.frame requests without a commit
  frame-flood-unmapped    2,000 commits of a never-mapped surface, each asking for a frame
  same-role-again         destroy a subsurface and an xdg_surface and give their surfaces
                          the same role again (legal: a role is for life, not per object)

Integers at the edge of int32 (issue 17: each of these once trapped the compositor):
  positioner-extreme      popups from positioners with sizes, anchor rects and offsets near
                          INT32_MAX and INT32_MIN, with every constraint adjustment
  offset-twice            wl_surface.offset(INT32_MAX, INT32_MAX) twice, then commit
  attach-offset-twice     wl_surface.attach(buffer, INT32_MAX, INT32_MAX) twice (version 4)
  huge-scale-damage       set_buffer_scale(INT32_MAX) and damage_buffer(0, 0, INT32_MAX, INT32_MAX)
  subsurface-far          a subsurface with a buffer at set_position(INT32_MAX - 1, INT32_MAX - 1)
  geometry-min            set_window_geometry(INT32_MIN, INT32_MIN, 10, 10) on a mapped window
  cursor-extreme          on enter: a cursor with hotspot (INT32_MIN, INT32_MIN), then
                          wl_surface.offset(INT32_MIN, INT32_MIN) twice on it; prints 'cursor set'
  destroy-surface-first   destroy a subsurface's wl_surface, then the wl_subsurface
  scroll-extreme          map a window with a wl_pointer of version 8; print 'entered', then
                          'value120 V' for the first two axis_value120 events
  deep-subsurfaces N      a chain of N nested subsurfaces, each with a buffer

Trust (issue 17):
  tiny-window             map a 1×1 toplevel, print 'mapped', stay until disconnected
  selection-serials       set_selection with a bogus serial, then (after the test gives this
                          client the keyboard, takes it back and gives it again) with its
                          first keyboard-enter serial, then with the current one; prints each source's fate, e.g.
                          'selections: bogus=cancelled stale=cancelled current=kept'
  popup-bogus-grab        a popup that grabs with an invented serial; 'popup_done' if dismissed
  popup-own-parent        get_popup naming the popup's own xdg_surface as its parent

Limits (issue 17):
  region-rects N          one wl_region of N disjoint rectangles (a checkerboard row by row)
  damage-flood N          N wl_surface.damage requests, never committed, then one commit
  region-worst N          one wl_region of N rectangles, each a band above all before it;
                          prints 'region N rects T ms' (until a round trip came back)
  subsurface-flood N      N sibling subsurfaces of one window, each with a buffer
  subsurface-destroy N    N sibling subsurfaces of one window, each with a buffer, then every
                          one destroyed (its wl_subsurface, then its wl_surface); prints
                          'subsurfaces N destroyed T ms' (until a round trip came back)
  region-mixed N [BANDS]  one wl_region of N add and subtract pairs: the first BANDS (2,000)
                          each add a band and cut a notch that splits it in two (4,000
                          rectangles), the rest put a notch back and cut it again; then it is
                          set as a surface's input region; prints 'region N pairs T ms'
                          (until a round trip came back)
  request-flood N         N times: create a wl_region, add a rect, destroy it, no round trip

Input methods (issue 39; bindings from ime_protocols.py, on a connection of their own):
  vk-key-before-keymap    zwp_virtual_keyboard_v1.key before any keymap (error no_keymap)
  vk-keymap-format        a keymap of format 0 (no_keymap), not xkb_v1 (error no_keymap)
  vk-keymap-pipe          a keymap fd that is a pipe (cannot be mapped; error no_keymap)
  vk-keymap-short         a keymap claiming 4096 bytes of a 64-byte file (error no_keymap)
  vk-keymap-garbage       a keymap file of text xkbcommon refuses (error no_keymap)
  vk-held-key             press a key with a good keymap and vanish holding it
  ime-popup-role          zwp_input_method_v2.get_input_popup_surface with a surface that
                          already is an xdg_surface (error role)
  ime-stale-commit        commit_string and commit with serials never sent, then destroy
                          (no error: a stale commit changes nothing)
  ti1-odd                 zwp_text_input_v1 (which defines no errors) used oddly: activate a
                          surface without the keyboard, commit_state and reset, deactivate
                          twice; then a mapped window's: activate at keyboard enter, cursor
                          and anchor 2^32-1, hint and purpose 2^32-1, a cursor rectangle of
                          extremes, a 1000-byte language, invoke_action, commit_state(2^32-1);
                          wait for its enter and what an input method sends (printed), then
                          destroy the focused surface while active, commit_state, and vanish
                          (no error)
Session lockers (ext_session_lock_v1; each leaves the session locked, as a dead locker does):
  lock-error KIND         break a lock: destroy-after-locked (destroy after locked:
                          invalid_destroy), unlock-before-locked (unlock_and_destroy before
                          locked: invalid_unlock), role (a lock surface of an xdg_surface's
                          wl_surface), duplicate-output (two lock surfaces on one wl_output),
                          constructed (get_lock_surface on a surface with a buffer attached),
                          commit-before-ack, null-buffer (ack, then commit with no buffer),
                          wrong-size (ack, then commit 64×48), bad-serial (ack a serial never sent)
  lock-no-surface         lock, print 'locked' when it comes, then stay (never draws)

Prints one line, 'RESULT: <what happened>', where what happened is
'protocol-error', 'disconnected' or 'ok'; libwayland logs which error it was
('wl_surface#6: error 0: ...') on stderr.
"""
import errno
import mmap
import os
import sys

from pywayland import ffi, lib
from pywayland.client import Display
from pywayland.protocol.wayland import WlCompositor, WlDataDeviceManager, WlSeat, WlShm, WlSubcompositor
from pywayland.protocol.xdg_shell import XdgWmBase
from pywayland.protocol.ext_session_lock_v1 import ExtSessionLockManagerV1
from pywayland.protocol.wayland import WlOutput

WIDTH, HEIGHT = 64, 48
INT32_MAX, INT32_MIN = 2**31 - 1, -2**31


def outcome(display):
    """What ended the connection. libwayland itself logs the protocol error
    it received to stderr as 'interface#id: error code: message'."""
    code = lib.wl_display_get_error(display._ptr)
    if code == 0:
        return "ok"
    return "protocol-error" if code == errno.EPROTO else "disconnected"


def settle(display):
    for _ in range(3):
        if display.roundtrip() < 0:
            break


def until_error(display, seconds=5):
    """Round trips until the connection fails or `seconds` pass: buffers are read in place
    when the compositor next draws, not at commit, so an error may come a frame later."""
    import time
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if display.roundtrip() < 0:
            return
        time.sleep(0.02)


class Client:
    def __init__(self):
        self.display = Display()
        self.display.connect()
        self.globals = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = self.on_global
        self.display.roundtrip()
        self.compositor = registry.bind(self.globals["wl_compositor"][0], WlCompositor, 4)
        self.shm = registry.bind(self.globals["wl_shm"][0], WlShm, 1)
        self.wm = registry.bind(self.globals["xdg_wm_base"][0], XdgWmBase, 2)
        self.configure_serial = None

    def compositor5(self):
        """wl_compositor at version 5, for wl_surface.offset."""
        registry = self.display.get_registry()
        return registry.bind(self.globals["wl_compositor"][0], WlCompositor, 5)

    def subcompositor(self):
        registry = self.display.get_registry()
        return registry.bind(self.globals["wl_subcompositor"][0], WlSubcompositor, 1)

    def on_global(self, registry, name, interface, version):
        self.globals[interface] = (name, version)

    def pool(self, size):
        fd = os.memfd_create("bad-client", 0)
        os.ftruncate(fd, size)
        return fd, self.shm.create_pool(fd, size)

    def buffer(self, width=WIDTH, height=HEIGHT):
        fd, pool = self.pool(width * height * 4)
        with mmap.mmap(fd, width * height * 4) as m:
            m.write(b"\x40\x80\xc0\xff" * (width * height))
        buf = pool.create_buffer(0, width, height, width * 4, WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def window(self, title="bad-client"):
        surface = self.compositor.create_surface()
        xdg = self.wm.get_xdg_surface(surface)
        toplevel = xdg.get_toplevel()
        toplevel.set_title(title)

        def on_configure(xdg_surface, serial):
            self.configure_serial = serial

        xdg.dispatcher["configure"] = on_configure
        surface.commit()
        self.display.roundtrip()
        return surface, xdg, toplevel

    def mapped_window(self):
        surface, xdg, toplevel = self.window()
        xdg.ack_configure(self.configure_serial)
        surface.attach(self.buffer(), 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        self.display.roundtrip()
        return surface, xdg, toplevel


def pointer_of(c):
    registry = c.display.get_registry()
    seat = registry.bind(c.globals["wl_seat"][0], WlSeat, 5)
    return seat.get_pointer()


def wait_for_enter(c, pointer, then):
    """Dispatches until the pointer enters our surface; calls then(serial)."""
    entered = []
    pointer.dispatcher["enter"] = lambda p, serial, surface, x, y: [entered.append(serial), then(serial)] and None
    while not entered and c.display.dispatch(block=True) >= 0:
        pass


def input_method_mode(mode):
    """The input-method modes, on a connection with the generated bindings (ime_protocols.py)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import ime_protocols
    wl, xdg, _, im, vk = ime_protocols.bindings()
    d = Display()
    d.connect()
    found = {}
    registry = d.get_registry()
    registry.dispatcher["global"] = lambda r, name, interface, version: found.__setitem__(interface, name)
    d.roundtrip()
    seat = registry.bind(found["wl_seat"], wl.WlSeat, 5)
    if mode.startswith("vk-"):
        keyboard = registry.bind(found["zwp_virtual_keyboard_manager_v1"], vk.ZwpVirtualKeyboardManagerV1, 1).create_virtual_keyboard(seat)
        if mode == "vk-key-before-keymap":
            keyboard.key(0, 30, 1)
        elif mode == "vk-keymap-format":
            fd = os.memfd_create("vk", 0)
            os.write(fd, b"x" * 64)
            keyboard.keymap(0, fd, 64)
            os.close(fd)
        elif mode == "vk-keymap-pipe":
            r, w = os.pipe()
            os.write(w, b"xkb_keymap { };\0")
            keyboard.keymap(1, r, 16)
            os.close(r)
            os.close(w)
        elif mode in ("vk-keymap-short", "vk-keymap-garbage"):
            fd = os.memfd_create("vk", 0)
            if mode == "vk-keymap-short":
                os.write(fd, b"x" * 64)
                keyboard.keymap(1, fd, 4096)
            else:
                text = b"this is not a keymap\0"
                os.write(fd, text)
                keyboard.keymap(1, fd, len(text))
            os.close(fd)
        elif mode == "vk-held-key":
            keymap = (b"xkb_keymap { xkb_keycodes { include \"evdev\" }; xkb_types { include \"complete\" }; "
                      b"xkb_compat { include \"complete\" }; xkb_symbols { include \"pc+us\" }; };\0")
            fd = os.memfd_create("vk", 0)
            os.write(fd, keymap)
            keyboard.keymap(1, fd, len(keymap))
            os.close(fd)
            keyboard.key(0, 42, 1)  # Shift
            keyboard.key(0, 30, 1)  # A
            d.roundtrip()
            print("RESULT: vanished", flush=True)
            os._exit(0)  # holding both: the compositor releases them
    elif mode == "ime-popup-role":
        compositor = registry.bind(found["wl_compositor"], wl.WlCompositor, 4)
        wm = registry.bind(found["xdg_wm_base"], xdg.XdgWmBase, 2)
        surface = compositor.create_surface()
        wm.get_xdg_surface(surface)
        method = registry.bind(found["zwp_input_method_manager_v2"], im.ZwpInputMethodManagerV2, 1).get_input_method(seat)
        method.get_input_popup_surface(surface)
    elif mode == "ime-stale-commit":
        method = registry.bind(found["zwp_input_method_manager_v2"], im.ZwpInputMethodManagerV2, 1).get_input_method(seat)
        for serial in (7, 2**32 - 1):
            method.set_preedit_string("stale", -1, -1)
            method.commit_string("stale")
            method.delete_surrounding_text(2**32 - 1, 2**32 - 1)
            method.commit(serial)
        method.destroy()
    elif mode == "ti1-odd":
        text_input_v1_odd(d, registry, found, seat, wl, xdg, ime_protocols.text_input_v1())
    settle(d)
    until_error(d, 1)
    print("RESULT: " + outcome(d), flush=True)
    sys.stderr.flush()
    os._exit(0)


def text_input_v1_odd(d, registry, found, seat, wl, xdg, ti1):
    """The ti1-odd mode (see the usage)."""
    compositor = registry.bind(found["wl_compositor"], wl.WlCompositor, 4)
    wm = registry.bind(found["xdg_wm_base"], xdg.XdgWmBase, 2)
    wm.dispatcher["ping"] = lambda w, serial: w.pong(serial)
    text_input = registry.bind(found["zwp_text_input_manager_v1"], ti1.ZwpTextInputManagerV1, 1).create_text_input()
    heard = []
    for event in ["enter", "leave", "preedit_string", "commit_string", "preedit_cursor", "delete_surrounding_text"]:
        text_input.dispatcher[event] = lambda t, *a, event=event: heard.append(event) or print("heard", event, *a, flush=True)
    # Unfocused: nothing is entered, nothing is served.
    loose = compositor.create_surface()
    text_input.commit_state(5)
    text_input.activate(seat, loose)
    text_input.reset()
    text_input.commit_state(2**32 - 1)
    text_input.deactivate(seat)
    text_input.deactivate(seat)
    d.roundtrip()
    # A mapped window: the keyboard enters it (a new toplevel gets the focus).
    surface = compositor.create_surface()
    xdg_surface = wm.get_xdg_surface(surface)
    xdg_surface.get_toplevel().set_title("ti1-odd")
    xdg_surface.dispatcher["configure"] = lambda x, serial: x.ack_configure(serial)
    keyboard = seat.get_keyboard()
    entered = []
    keyboard.dispatcher["keymap"] = lambda k, fmt, fd, size: os.close(fd)
    keyboard.dispatcher["enter"] = lambda k, serial, s, keys: entered.append(s)
    surface.commit()
    d.roundtrip()
    size = WIDTH * HEIGHT * 4
    fd = os.memfd_create("ti1", 0)
    os.ftruncate(fd, size)
    pool = registry.bind(found["wl_shm"], wl.WlShm, 1).create_pool(fd, size)
    surface.attach(pool.create_buffer(0, WIDTH, HEIGHT, WIDTH * 4, 0), 0, 0)
    os.close(fd)
    surface.commit()
    import time
    deadline = time.monotonic() + 5
    while not entered and time.monotonic() < deadline and d.roundtrip() >= 0:
        time.sleep(0.02)
    text_input.activate(seat, surface)
    text_input.set_surrounding_text("x", 2**32 - 1, 2**32 - 1)
    text_input.set_content_type(2**32 - 1, 2**32 - 1)
    text_input.set_cursor_rectangle(INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX)
    text_input.set_preferred_language("x" * 1000)
    text_input.invoke_action(2**32 - 1, 2**32 - 1)
    text_input.show_input_panel()
    text_input.commit_state(2**32 - 1)
    # An input method, if one runs, composes at activation.
    deadline = time.monotonic() + 3
    while "commit_string" not in heard and time.monotonic() < deadline and d.roundtrip() >= 0:
        time.sleep(0.02)
    surface.destroy()
    text_input.commit_state(1)
    d.roundtrip()
def session_lock(c):
    """Binds the lock manager and the first wl_output; locks and waits for locked (or finished)."""
    registry = c.display.get_registry()
    manager = registry.bind(c.globals["ext_session_lock_manager_v1"][0], ExtSessionLockManagerV1, 1)
    output = registry.bind(c.globals["wl_output"][0], WlOutput, 1)
    lock = manager.lock()
    answers = []
    lock.dispatcher["locked"] = lambda l: answers.append("locked")
    lock.dispatcher["finished"] = lambda l: answers.append("finished")
    return lock, output, answers


def wait_for(c, answers):
    while not answers and c.display.dispatch(block=True) >= 0:
        pass


def lock_error(c, kind):
    lock, output, answers = session_lock(c)
    if kind == "unlock-before-locked":
        # In the same batch as lock: locked waits for a composed frame, so it cannot have come.
        lock.unlock_and_destroy()
        return
    wait_for(c, answers)
    if kind == "destroy-after-locked":
        lock.destroy()
        return
    surface = c.compositor.create_surface()
    if kind == "role":
        c.wm.get_xdg_surface(surface)
    elif kind == "constructed":
        surface.attach(c.buffer(), 0, 0)
    lock_surface = lock.get_lock_surface(surface, output)
    if kind in ("role", "constructed"):
        return
    if kind == "duplicate-output":
        lock.get_lock_surface(c.compositor.create_surface(), output)
        return
    configures = []
    lock_surface.dispatcher["configure"] = lambda ls, serial, w, h: configures.append((serial, w, h))
    c.display.roundtrip()
    serial, width, height = configures[-1]
    if kind == "commit-before-ack":
        surface.attach(c.buffer(width, height), 0, 0)
        surface.commit()
        return
    if kind == "bad-serial":
        lock_surface.ack_configure(serial + 1000)
        return
    lock_surface.ack_configure(serial)
    if kind == "wrong-size":
        surface.attach(c.buffer(), 0, 0)
    elif kind != "null-buffer":
        raise SystemExit("unknown lock-error kind " + kind)
    surface.commit()


def main(mode, arg=None):
    if mode.startswith(("vk-", "ime-", "ti1-")):
        input_method_mode(mode)
    c = Client()
    d = c.display
    if mode == "disconnect-mid-frame":
        surface, _, _ = c.mapped_window()
        surface.frame()
        surface.attach(c.buffer(), 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        d.flush()
        print("RESULT: vanished", flush=True)
        os._exit(0)  # no clean disconnect: the socket just closes
    elif mode == "destroy-attached-buffer":
        surface, _, _ = c.mapped_window()
        buf = c.buffer()
        surface.attach(buf, 0, 0)
        buf.destroy()  # destroyed while attached, before the commit
        surface.commit()
        settle(d)
        buf2 = c.buffer()
        surface.attach(buf2, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        buf2.destroy()  # and after the commit
        surface.frame()
        surface.commit()
        settle(d)
    elif mode == "truncate-pool":
        surface, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial)
        size = WIDTH * HEIGHT * 4
        fd, pool = c.pool(size)
        buf = pool.create_buffer(0, WIDTH, HEIGHT, WIDTH * 4, WlShm.format.argb8888.value)
        os.ftruncate(fd, 0)  # the compositor's mapping now faults
        surface.attach(buf, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        until_error(d)
    elif mode == "short-sealed-pool":
        surface, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial)
        size = WIDTH * HEIGHT * 4
        fd = os.memfd_create("bad-client", os.MFD_ALLOW_SEALING)
        os.ftruncate(fd, 4096)  # shorter than the pool it is given as
        import fcntl
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK)
        pool = c.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, WIDTH, HEIGHT, WIDTH * 4, WlShm.format.argb8888.value)
        surface.attach(buf, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        until_error(d)
    elif mode == "truncate-shown-pool":
        surface, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial)
        size = WIDTH * HEIGHT * 4
        fd, pool = c.pool(size)
        buf = pool.create_buffer(0, WIDTH, HEIGHT, WIDTH * 4, WlShm.format.argb8888.value)
        surface.attach(buf, 0, 0)
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        settle(d)
        print("shown", flush=True)
        os.ftruncate(fd, 0)  # the buffer on screen: the next repaint reads a hole
        surface.damage_buffer(0, 0, WIDTH, HEIGHT)
        surface.commit()
        until_error(d)
    elif mode == "huge-buffer":
        # An N×N xrgb window (16384: 1 GiB), never written: the compositor reads it in place.
        n = int(arg or 16384)
        surface, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial)
        fd, pool = c.pool(n * n * 4)
        buf = pool.create_buffer(0, n, n, n * 4, WlShm.format.xrgb8888.value)
        surface.attach(buf, 0, 0)
        surface.damage_buffer(0, 0, n, n)
        surface.commit()
        settle(d)
        print("mapped", flush=True)
        while d.dispatch(block=True) >= 0:
            pass
        print("RESULT: disconnected", flush=True)
        os._exit(0)
    elif mode == "shm-past-pool":
        fd, pool = c.pool(64)
        pool.create_buffer(0, 100, 100, 400, WlShm.format.argb8888.value)
        settle(d)
    elif mode == "invalid-scale":
        surface = c.compositor.create_surface()
        surface.set_buffer_scale(0)
        settle(d)
    elif mode == "invalid-transform":
        surface = c.compositor.create_surface()
        surface.set_buffer_transform(42)
        settle(d)
    elif mode == "bad-ack":
        _, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial + 1000)
        settle(d)
    elif mode == "buffer-before-configure":
        surface = c.compositor.create_surface()
        xdg = c.wm.get_xdg_surface(surface)
        xdg.get_toplevel()
        surface.attach(c.buffer(), 0, 0)
        surface.commit()
        settle(d)
    elif mode == "start-drag":
        surface, _, _ = c.mapped_window()
        registry = d.get_registry()
        manager_name = c.globals["wl_data_device_manager"][0]
        seat_name = c.globals["wl_seat"][0]
        manager = registry.bind(manager_name, WlDataDeviceManager, 3)
        seat = registry.bind(seat_name, WlSeat, 5)
        source = manager.create_data_source()
        source.offer("text/plain")
        cancelled = []
        source.dispatcher["cancelled"] = lambda s: cancelled.append(True)
        device = manager.get_data_device(seat)
        device.start_drag(source, surface, None, 1)
        settle(d)
        if not cancelled:
            print("RESULT: drag source was never cancelled", flush=True)
            os._exit(0)
    elif mode == "drag-error":
        surface, _, _ = c.mapped_window()
        registry = d.get_registry()
        manager = registry.bind(c.globals["wl_data_device_manager"][0], WlDataDeviceManager, 3)
        seat = registry.bind(c.globals["wl_seat"][0], WlSeat, 5)
        device = manager.get_data_device(seat)
        source = manager.create_data_source()
        source.offer("text/plain")
        if arg == "actions-twice":
            source.set_actions(1)
            source.set_actions(1)
        elif arg == "bad-actions":
            source.set_actions(8)
        elif arg in ("actions-after-selection", "selection-then-drag"):
            # Refused (serial 0 is of no input of ours), but given to set_selection all the same.
            device.set_selection(source, 0)
            settle(d)
            if arg == "actions-after-selection":
                source.set_actions(1)
            else:
                device.start_drag(source, surface, None, 0)
        settle(d)
    elif mode == "cursor-reentry":
        c.mapped_window()
        pointer = pointer_of(c)
        cursor = c.compositor.create_surface()
        cursor.attach(c.buffer(), 0, 0)
        cursor.commit()
        enters = []

        def on_enter(p, serial, surface, x, y):
            enters.append(serial)
            # What every toolkit does: the same cursor surface, again, on every enter.
            p.set_cursor(serial, cursor, 2, 2)
            d.flush()
            print("enter %d" % len(enters), flush=True)

        pointer.dispatcher["enter"] = on_enter
        while len(enters) < int(arg) and d.dispatch(block=True) >= 0:
            pass
        settle(d)
    elif mode == "cursor-pool-grows":
        c.mapped_window()
        pointer = pointer_of(c)
        cursor = c.compositor.create_surface()
        size = 24 * 24 * 4
        fd = os.memfd_create("cursor-pool", 0)
        os.ftruncate(fd, size)
        pool = c.shm.create_pool(fd, size)
        os.pwrite(fd, b"\x00\x00\x00\xff" * (24 * 24), 0)
        first = pool.create_buffer(0, 24, 24, 24 * 4, WlShm.format.argb8888.value)
        drawn = []
        serials = []

        def on_enter(p, serial, surface, x, y):
            serials.append(serial)
            cursor.attach(first, 0, 0)
            cursor.damage_buffer(0, 0, 24, 24)
            cursor.frame().dispatcher["done"] = lambda cb, t: drawn.append(t)
            cursor.commit()
            p.set_cursor(serial, cursor, 12, 12)
            d.flush()
            print("cursor 1", flush=True)

        pointer.dispatcher["enter"] = on_enter
        while not serials and d.dispatch(block=True) >= 0:
            pass
        # Shown for a frame: the compositor has read the first image.
        while not drawn and d.dispatch(block=True) >= 0:
            pass
        # The second image: the pool grows to three images, the next one after the first.
        os.ftruncate(fd, 3 * size)
        pool.resize(3 * size)
        os.pwrite(fd, b"\xff\xff\xff\xff" * (24 * 24), size)
        second = pool.create_buffer(size, 24, 24, 24 * 4, WlShm.format.argb8888.value)
        cursor.attach(second, 0, 0)
        cursor.damage_buffer(0, 0, 24, 24)
        cursor.commit()
        settle(d)
        if lib.wl_display_get_error(d._ptr) == 0:
            print("cursor 2", flush=True)
        settle(d)
    elif mode == "cursor-then-xdg":
        c.mapped_window()
        pointer = pointer_of(c)
        cursor = c.compositor.create_surface()
        wait_for_enter(c, pointer, lambda serial: pointer.set_cursor(serial, cursor, 0, 0))
        settle(d)
        c.wm.get_xdg_surface(cursor)
        settle(d)
    elif mode == "subsurface-as-cursor":
        parent, _, _ = c.mapped_window()
        sub_surface = c.compositor.create_surface()
        registry = d.get_registry()
        subcompositor = registry.bind(c.globals["wl_subcompositor"][0], WlSubcompositor, 1)
        subcompositor.get_subsurface(sub_surface, parent)
        pointer = pointer_of(c)
        wait_for_enter(c, pointer, lambda serial: pointer.set_cursor(serial, sub_surface, 0, 0))
        settle(d)
    elif mode == "oversized":
        sizes = []
        surface, xdg, toplevel = c.window("oversized")
        toplevel.dispatcher["configure"] = lambda t, w, h, states: sizes.append((w, h))
        xdg.ack_configure(c.configure_serial)
        surface.attach(c.buffer(1600, 1000), 0, 0)
        surface.commit()
        while not any(w > 0 for w, h in sizes) and d.dispatch(block=True) >= 0:
            pass
        w, h = next((w, h) for w, h in sizes if w > 0)
        xdg.ack_configure(c.configure_serial)
        surface.attach(c.buffer(w, h), 0, 0)
        surface.damage_buffer(0, 0, w, h)
        surface.commit()
        d.roundtrip()
        print("resized %d %d" % (w, h), flush=True)
        while d.dispatch(block=True) >= 0:
            pass
    elif mode == "frame-flood":
        surface = c.compositor.create_surface()
        for _ in range(2000):
            surface.frame()
        settle(d)
    elif mode == "frame-flood-unmapped":
        surface = c.compositor.create_surface()
        for _ in range(2000):
            surface.frame()
            surface.commit()
        settle(d)
    elif mode == "same-role-again":
        parent, _, _ = c.mapped_window()
        registry = d.get_registry()
        subcompositor = registry.bind(c.globals["wl_subcompositor"][0], WlSubcompositor, 1)
        child = c.compositor.create_surface()
        for _ in range(3):
            sub = subcompositor.get_subsurface(child, parent)
            child.attach(c.buffer(), 0, 0)
            child.commit()
            parent.commit()
            settle(d)
            sub.destroy()
            settle(d)
        # A window unmapped with a null buffer, its role objects destroyed,
        # then made a window again from the same wl_surface.
        surface, xdg, toplevel = c.window("again")
        for _ in range(2):
            toplevel.destroy()
            xdg.destroy()
            settle(d)
            xdg = c.wm.get_xdg_surface(surface)
            toplevel = xdg.get_toplevel()
            xdg.dispatcher["configure"] = lambda x, serial: setattr(c, "configure_serial", serial)
            surface.commit()
            settle(d)
    elif mode == "positioner-extreme":
        parent, parent_xdg, _ = c.mapped_window()
        wm3 = d.get_registry().bind(c.globals["xdg_wm_base"][0], XdgWmBase, 3)  # for reposition
        cases = [
            ((INT32_MAX, INT32_MAX), (INT32_MAX - 1, INT32_MAX - 1, INT32_MAX, INT32_MAX), (INT32_MAX, INT32_MAX)),
            ((INT32_MAX, INT32_MAX), (INT32_MIN, INT32_MIN, INT32_MAX, INT32_MAX), (INT32_MIN, INT32_MIN)),
            ((1, 1), (INT32_MAX, INT32_MAX, 0, 0), (INT32_MAX, INT32_MIN)),
        ]
        for size, rect, offset in cases:
            for anchor, gravity in ((8, 8), (5, 5), (0, 0), (4, 3)):
                positioner = wm3.create_positioner()
                positioner.set_size(*size)
                positioner.set_anchor_rect(*rect)
                positioner.set_offset(*offset)
                positioner.set_anchor(anchor)
                positioner.set_gravity(gravity)
                positioner.set_constraint_adjustment(63)
                surface = c.compositor.create_surface()
                xdg = wm3.get_xdg_surface(surface)
                popup = xdg.get_popup(parent_xdg, positioner)
                surface.commit()
                settle(d)
                popup.reposition(positioner, 7)
                settle(d)
                popup.destroy()
                xdg.destroy()
                surface.destroy()
                positioner.destroy()
        settle(d)
    elif mode == "offset-twice":
        surface, _, _ = c.mapped_window()
        surface = c.compositor5().create_surface()
        surface.offset(INT32_MAX, INT32_MAX)
        surface.offset(INT32_MAX, INT32_MAX)
        surface.commit()
        surface.offset(INT32_MIN, INT32_MIN)
        surface.offset(INT32_MIN, INT32_MIN)
        surface.commit()
        settle(d)
    elif mode == "attach-offset-twice":
        surface = c.compositor.create_surface()
        buf = c.buffer()
        surface.attach(buf, INT32_MAX, INT32_MAX)
        surface.attach(buf, INT32_MAX, INT32_MAX)
        surface.commit()
        surface.attach(buf, INT32_MIN, INT32_MIN)
        surface.attach(buf, INT32_MIN, INT32_MIN)
        surface.commit()
        settle(d)
    elif mode == "huge-scale-damage":
        surface, _, _ = c.mapped_window()
        surface.set_buffer_scale(INT32_MAX)
        surface.damage_buffer(0, 0, INT32_MAX, INT32_MAX)
        surface.damage(0, 0, INT32_MAX, INT32_MAX)
        surface.commit()
        settle(d)
    elif mode == "subsurface-far":
        parent, _, _ = c.mapped_window()
        subcompositor = c.subcompositor()
        for x, y in ((INT32_MAX - 1, INT32_MAX - 1), (INT32_MIN, INT32_MIN)):
            child = c.compositor.create_surface()
            sub = subcompositor.get_subsurface(child, parent)
            sub.set_position(x, y)
            child.attach(c.buffer(), 0, 0)
            child.damage(0, 0, INT32_MAX, INT32_MAX)
            child.commit()
            parent.commit()
            settle(d)
    elif mode == "geometry-min":
        surface, xdg, _ = c.mapped_window()
        xdg.set_window_geometry(INT32_MIN, INT32_MIN, 10, 10)
        surface.commit()
        settle(d)
        xdg.set_window_geometry(INT32_MAX, INT32_MAX, INT32_MAX, INT32_MAX)
        surface.damage(0, 0, WIDTH, HEIGHT)
        surface.commit()
        settle(d)
    elif mode == "cursor-extreme":
        c.mapped_window()
        pointer = pointer_of(c)
        cursor = c.compositor5().create_surface()
        cursor.attach(c.buffer(), 0, 0)
        cursor.commit()

        def set_cursor(serial):
            pointer.set_cursor(serial, cursor, INT32_MIN, INT32_MIN)
            for dx in (INT32_MIN, INT32_MIN, INT32_MAX):
                cursor.offset(dx, dx)
                cursor.damage(0, 0, WIDTH, HEIGHT)
                cursor.commit()

        wait_for_enter(c, pointer, set_cursor)
        settle(d)
        print("cursor set", flush=True)
        for _ in range(20):
            if d.roundtrip() < 0:
                break
    elif mode == "scroll-extreme":
        c.mapped_window()
        registry = d.get_registry()
        seat = registry.bind(c.globals["wl_seat"][0], WlSeat, min(8, c.globals["wl_seat"][1]))
        pointer = seat.get_pointer()
        steps = []

        def on_value120(p, axis, value):
            steps.append(value)
            print("value120 %d" % value, flush=True)

        pointer.dispatcher["axis_value120"] = on_value120
        wait_for_enter(c, pointer, lambda serial: print("entered", flush=True))
        while len(steps) < 2 and d.dispatch(block=True) >= 0:
            pass
    elif mode == "destroy-surface-first":
        parent, _, _ = c.mapped_window()
        subcompositor = c.subcompositor()
        child = c.compositor.create_surface()
        sub = subcompositor.get_subsurface(child, parent)
        child.attach(c.buffer(), 0, 0)
        child.commit()
        parent.commit()
        settle(d)
        child.destroy()
        settle(d)
        sub.set_position(5, 5)
        sub.place_above(parent)
        sub.set_desync()
        parent.commit()
        settle(d)
        sub.destroy()
        parent.commit()
        settle(d)
    elif mode == "deep-subsurfaces":
        root, _, _ = c.mapped_window()
        parent = root
        subcompositor = c.subcompositor()
        buf = c.buffer(1, 1)
        for i in range(int(arg)):
            child = c.compositor.create_surface()
            subcompositor.get_subsurface(child, parent)
            child.attach(buf, 0, 0)
            child.commit()
            parent = child
            if d.roundtrip() < 0:  # stop at the first error, so it is the one reported
                break
        settle(d)
        root.commit()  # applies the whole chain (every level is synchronized)
        settle(d)
    elif mode == "tiny-window":
        surface, xdg, _ = c.window()
        xdg.ack_configure(c.configure_serial)
        surface.attach(c.buffer(1, 1), 0, 0)
        surface.commit()
        d.roundtrip()
        print("mapped", flush=True)
        while d.dispatch(block=True) >= 0:
            pass
    elif mode == "selection-serials":
        c.mapped_window()
        registry = d.get_registry()
        seat = registry.bind(c.globals["wl_seat"][0], WlSeat, 5)
        keyboard = seat.get_keyboard()
        events = []
        keyboard.dispatcher["enter"] = lambda k, serial, surface, keys: events.append(("enter", serial))
        keyboard.dispatcher["leave"] = lambda k, serial, surface: events.append(("leave", serial))
        manager = registry.bind(c.globals["wl_data_device_manager"][0], WlDataDeviceManager, 3)
        device = manager.get_data_device(seat)
        fates = {}

        def select(name, serial):
            source = manager.create_data_source()
            source.offer("text/plain")
            fates[name] = "kept"
            source.dispatcher["cancelled"] = lambda s: fates.__setitem__(name, "cancelled")
            device.set_selection(source, serial)
            settle(d)

        def wait_for(kind, count):
            while sum(1 for e in events if e[0] == kind) < count and d.dispatch(block=True) >= 0:
                pass

        settle(d)
        select("bogus", 0x7FFFFFF0)
        print("waiting for the keyboard", flush=True)
        wait_for("enter", 1)
        stale = [s for k, s in events if k == "enter"][0]
        print("focused", flush=True)
        wait_for("leave", 1)
        print("waiting for the keyboard again", flush=True)
        wait_for("enter", 2)
        select("stale", stale)  # it has the keyboard again, but this serial is from before
        select("current", [s for k, s in events if k == "enter"][1])
        print("selections: " + " ".join("%s=%s" % (k, fates[k]) for k in ("bogus", "stale", "current")), flush=True)
    elif mode == "popup-bogus-grab":
        parent, parent_xdg, _ = c.mapped_window()
        seat = d.get_registry().bind(c.globals["wl_seat"][0], WlSeat, 5)
        positioner = c.wm.create_positioner()
        positioner.set_size(20, 20)
        positioner.set_anchor_rect(0, 0, 10, 10)
        surface = c.compositor.create_surface()
        xdg = c.wm.get_xdg_surface(surface)
        popup = xdg.get_popup(parent_xdg, positioner)
        done = []
        popup.dispatcher["popup_done"] = lambda p: done.append(True)
        popup.grab(seat, 0x12345)
        surface.commit()
        settle(d)
        print("popup_done" if done else "popup kept", flush=True)
    elif mode == "popup-own-parent":
        c.mapped_window()
        positioner = c.wm.create_positioner()
        positioner.set_size(20, 20)
        positioner.set_anchor_rect(0, 0, 10, 10)
        surface = c.compositor.create_surface()
        xdg = c.wm.get_xdg_surface(surface)
        xdg.get_popup(xdg, positioner)
        settle(d)
    elif mode == "region-rects":
        region = c.compositor.create_region()
        for i in range(int(arg)):
            region.add((i % 200) * 4, (i // 200) * 4, 2, 2)
            if i % 100 == 0 and d.roundtrip() < 0:  # stop soon after an error
                break
        settle(d)
    elif mode == "damage-flood":
        surface, _, _ = c.mapped_window()
        for i in range(int(arg)):
            surface.damage(i % 997, i % 991, 1, 1)
            if i % 5000 == 0 and d.roundtrip() < 0:
                break
        settle(d)
        print("flooded", flush=True)
        surface.commit()
        settle(d)
    elif mode == "region-worst":
        # N rectangles, each a band of its own above every band before it (no append fast
        # path, nothing to coalesce): every union walks the whole region. Prints the time
        # from the first request until a round trip after the last came back.
        import time
        n = int(arg)
        region = c.compositor.create_region()
        start = time.monotonic()
        for i in range(n):
            region.add((i * 7) % 512, 2 * (n - i), 3 + i % 5, 1)
        d.roundtrip()
        print("region %d rects %.1f ms" % (n, (time.monotonic() - start) * 1000), flush=True)
        settle(d)
    elif mode == "subsurface-flood":
        # N sibling subsurfaces of one window, each with a buffer of its own.
        parent, _, _ = c.mapped_window()
        subcompositor = c.subcompositor()
        fd, pool = c.pool(16 * 16 * 4)
        buf = pool.create_buffer(0, 16, 16, 64, WlShm.format.argb8888.value)
        keep = []
        for i in range(int(arg)):
            child = c.compositor.create_surface()
            sub = subcompositor.get_subsurface(child, parent)
            sub.set_position((i * 13) % 300, (i * 7) % 200)
            child.attach(buf, 0, 0)
            child.damage(0, 0, 16, 16)
            child.commit()
            keep.append((child, sub))
            if i % 200 == 0 and d.roundtrip() < 0:
                break
        parent.commit()
        settle(d)
    elif mode == "subsurface-destroy":
        # What subsurface-flood builds, then torn down as a toolkit does, no round trip
        # between the destroys.
        import time
        parent, _, _ = c.mapped_window()
        subcompositor = c.subcompositor()
        fd, pool = c.pool(16 * 16 * 4)
        buf = pool.create_buffer(0, 16, 16, 64, WlShm.format.argb8888.value)
        subs = []
        for i in range(int(arg)):
            child = c.compositor.create_surface()
            sub = subcompositor.get_subsurface(child, parent)
            sub.set_position((i * 13) % 300, (i * 7) % 200)
            child.attach(buf, 0, 0)
            child.damage(0, 0, 16, 16)
            child.commit()
            subs.append((child, sub))
            if i % 200 == 0 and d.roundtrip() < 0:
                break
        parent.commit()
        settle(d)
        start = time.monotonic()
        for child, sub in subs:
            sub.destroy()
            child.destroy()
        d.roundtrip()
        print("subsurfaces %d destroyed %.1f ms" % (len(subs), (time.monotonic() - start) * 1000), flush=True)
        parent.commit()
        settle(d)
    elif mode == "region-mixed":
        # Adds and subtracts alternating, so no two requests in a row are alike: the first
        # BANDS pairs grow the region to 2 × BANDS rectangles (a band each, a notch splitting
        # it in two), the rest put a notch back and cut it again, keeping it that size.
        import time
        n = int(arg)
        bands = min(n, int(sys.argv[3]) if len(sys.argv) > 3 else 2000)
        region = c.compositor.create_region()
        start = time.monotonic()
        for i in range(n):
            band = i % bands
            x, y = (band * 7) % 512, 2 * (bands - band)
            if i < bands:
                region.add(x, y, 40 + band % 5, 1)
            else:
                region.add(x + 20, y, 1, 1)
            region.subtract(x + 20, y, 1, 1)
        c.compositor.create_surface().set_input_region(region)  # read: whatever waits joins now
        d.roundtrip()
        print("region %d pairs %.1f ms" % (n, (time.monotonic() - start) * 1000), flush=True)
        settle(d)
    elif mode == "lock-error":
        lock_error(c, arg)
        until_error(d)
    elif mode == "lock-no-surface":
        _, _, answers = session_lock(c)
        wait_for(c, answers)
        print(answers[0], flush=True)
        while d.dispatch(block=True) >= 0:
            pass
    elif mode == "request-flood":
        # N cheap requests (a region made, grown and destroyed) written as fast as the socket
        # takes them, no round trip until the end.
        for i in range(int(arg)):
            region = c.compositor.create_region()
            region.add(i % 100, i % 50, 10, 10)
            region.destroy()
            if i % 2000 == 0:
                d.flush()
        settle(d)
    else:
        print("unknown mode " + mode, file=sys.stderr)
        sys.exit(2)
    print("RESULT: " + outcome(d), flush=True)
    sys.stderr.flush()
    # pywayland's finalizers touch proxies of a dead connection; skip them.
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
