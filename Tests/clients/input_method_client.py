#!/usr/bin/env python3
"""An input method and a text field for Lodestone's input-method tests (InputMethodTests), in
pywayland.

Usage: input_method_client.py MODE [ARGS]   (WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor)

Modes:
  ime PREEDIT COMMIT [--popup W H] [--grab] [--delete BEFORE AFTER] [--stay]
        A zwp_input_method_v2. When a text input is activated: set_preedit_string(PREEDIT,
        cursor at its end) and commit; when the app has answered (its next text-input commit
        reaches us as a done) or 1.5 s passed, commit_string(COMMIT) with no preedit, and
        commit. Then, with --stay, it stays (printing what it hears) but composes no more: an
        app that re-enables its text input (gnome-text-editor does) gets one "日本", not two.
        --popup: an input popup surface of W×H, magenta, whose text_input_rectangle events
        are printed. --grab: grab the keyboard; each key pressed is printed, and the A key
        (evdev 30) is committed as 'あ' (nothing else reaches the app). --delete: the commit
        also deletes BEFORE and AFTER bytes around the cursor (delete_surrounding_text).
  second
        A zwp_input_method_v2 while another is there: prints 'unavailable' or 'available'.
  text-field [TITLE] [--purpose P] [--tablet]
        A 200×100 window (titled TITLE, by default 'text-field') with a zwp_text_input_v3: on keyboard enter it enables, describes
        itself (surrounding 'abc' cursor 3, content type hint 0x1 purpose 0, cursor rectangle
        20,30 2×16) and commits; prints every text-input event ('preedit TEXT B E', 'commit
        TEXT', 'delete B A', 'done SERIAL commits N', 'enter', 'leave') and every wl_keyboard
        key ('wl-key CODE STATE') until killed. --purpose: content purpose P instead of 0 (8 is
        password). --tablet: also a tablet seat, printing 'tablet-down', 'tablet-up' and
        'tablet-motion X Y' (ScribbleTests: what of the pen reached the app).
  text-field-v1
        The same window ('text-field-v1') with a zwp_text_input_v1, as Qt 6.4 speaks it: on
        keyboard enter it activates; at the text input's enter it describes itself as above and
        commit_state(the serial it last heard); prints 'enter', 'leave', 'preedit-cursor I',
        'preedit TEXT 'COMMIT' serial S', 'commit TEXT serial S', 'delete INDEX LENGTH'.

Lines are printed as they happen, flushed: 'activate', 'deactivate', 'surrounding TEXT C A',
'content-type H P', 'done N', 'preedit-sent', 'committed', 'rectangle X Y W H', 'keymap SIZE',
'key CODE STATE'.
"""
import mmap
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ime_protocols  # noqa: E402

wl, xdg, ti, im, vk = ime_protocols.bindings()


def say(*words):
    print(*words, flush=True)


class Client:
    def __init__(self):
        from pywayland.client import Display
        self.display = Display()
        self.display.connect()
        self.globals = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: self.globals.__setitem__(interface, (name, version))
        self.display.roundtrip()
        self.registry = registry
        self.seat = self.bind("wl_seat", wl.WlSeat, 5)
        self.compositor = self.bind("wl_compositor", wl.WlCompositor, 4)
        self.shm = self.bind("wl_shm", wl.WlShm, 1)

    def bind(self, name, cls, version):
        return self.registry.bind(self.globals[name][0], cls, version)

    def buffer(self, width, height, pixel=b"\xff\x00\xff\xff"):
        """A width×height argb8888 buffer of one colour (bytes B G R A)."""
        size = width * height * 4
        fd = os.memfd_create("ime-client", 0)
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m.write(pixel * (width * height))
        pool = self.shm.create_pool(fd, size)
        buf = pool.create_buffer(0, width, height, width * 4, wl.WlShm.format.argb8888.value)
        pool.destroy()
        os.close(fd)
        return buf

    def dispatch_for(self, seconds):
        """Dispatches events for up to `seconds`; False when the connection failed."""
        deadline = time.monotonic() + seconds
        fd = self.display.get_fd()
        while True:
            self.display.flush()
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            # Readable: dispatch reads what came without blocking.
            if select.select([fd], [], [], left)[0] and self.display.dispatch(block=True) < 0:
                return False

    def run_forever(self):
        while self.display.dispatch(block=True) >= 0:
            pass


def run_ime(preedit, commit, popup=None, grab=False, stay=False, delete=None):
    c = Client()
    manager = c.bind("zwp_input_method_manager_v2", im.ZwpInputMethodManagerV2, 1)
    method = manager.get_input_method(c.seat)
    state = {"dones": 0, "active": False, "pending_active": False, "phase": "idle", "sent_at": 0.0, "finished": False}

    def on_activate(m):
        state["pending_active"] = True
        say("activate")

    def on_deactivate(m):
        state["pending_active"] = False
        say("deactivate")

    def on_done(m):
        state["dones"] += 1
        was_active = state["active"]
        state["active"] = state["pending_active"]
        say("done", state["dones"])
        if state["active"] and not was_active:
            state["phase"] = "activated"
        elif state["phase"] == "preedit":
            state["phase"] = "answered"  # the app committed after our preedit

    method.dispatcher["activate"] = on_activate
    method.dispatcher["deactivate"] = on_deactivate
    method.dispatcher["surrounding_text"] = lambda m, text, cursor, anchor: say("surrounding", repr(text), cursor, anchor)
    method.dispatcher["content_type"] = lambda m, hint, purpose: say("content-type", hint, purpose)
    method.dispatcher["text_change_cause"] = lambda m, cause: say("change-cause", cause)
    method.dispatcher["done"] = on_done

    def on_unavailable(m):
        say("unavailable")
        os._exit(3)

    method.dispatcher["unavailable"] = on_unavailable

    if popup:
        surface = c.compositor.create_surface()
        popup_surface = method.get_input_popup_surface(surface)
        popup_surface.dispatcher["text_input_rectangle"] = lambda p, x, y, w, h: say("rectangle", x, y, w, h)
        surface.attach(c.buffer(*popup), 0, 0)
        surface.damage_buffer(0, 0, *popup)
        surface.commit()
    if grab:
        keyboard = method.grab_keyboard()

        def on_keymap(k, fmt, fd, size):
            say("keymap", size)
            os.close(fd)

        keyboard.dispatcher["keymap"] = on_keymap
        keyboard.dispatcher["repeat_info"] = lambda k, rate, delay: None
        keyboard.dispatcher["modifiers"] = lambda k, *a: None

        def on_key(k, serial, t, key, key_state):
            say("key", key, key_state)
            if key == 30 and key_state == 1:
                method.commit_string("あ")
                method.commit(state["dones"])
                c.display.flush()

        keyboard.dispatcher["key"] = on_key
    c.display.roundtrip()
    say("ready")

    while c.dispatch_for(0.05):
        if state["phase"] == "activated":
            length = len(preedit.encode())
            method.set_preedit_string(preedit, length, length)
            method.commit(state["dones"])
            state["phase"], state["sent_at"] = "preedit", time.monotonic()
            say("preedit-sent")
        elif state["phase"] == "answered" or (state["phase"] == "preedit" and time.monotonic() - state["sent_at"] > 1.5):
            if delete:
                method.delete_surrounding_text(*delete)
            method.commit_string(commit)
            method.commit(state["dones"])
            c.display.flush()
            state["phase"] = "done"
            say("committed")
            if not stay:
                c.display.roundtrip()
                os._exit(0)
    say("disconnected")
    os._exit(1)


def run_second():
    c = Client()
    manager = c.bind("zwp_input_method_manager_v2", im.ZwpInputMethodManagerV2, 1)
    method = manager.get_input_method(c.seat)
    events = []
    for name in ["activate", "deactivate", "done", "unavailable"]:
        method.dispatcher[name] = lambda m, name=name: events.append(name)
    c.display.roundtrip()
    c.display.roundtrip()
    say("unavailable" if events == ["unavailable"] else "available " + " ".join(events))
    os._exit(0)


def listen_to_tablet(c):
    """Prints what of the pen reaches this client."""
    tab = ime_protocols.tablet_v2()
    seat = c.bind("zwp_tablet_manager_v2", tab.ZwpTabletManagerV2, 1).get_tablet_seat(c.seat)
    tools = []

    def tool_added(s, tool):
        tools.append(tool)
        tool.dispatcher["down"] = lambda t, serial: say("tablet-down")
        tool.dispatcher["up"] = lambda t: say("tablet-up")
        tool.dispatcher["motion"] = lambda t, x, y: say("tablet-motion", round(x), round(y))

    seat.dispatcher["tool_added"] = tool_added
    return seat, tools


def run_text_field(title="text-field", purpose=0, tablet=False):
    c = Client()
    pen = listen_to_tablet(c) if tablet else None
    wm = c.bind("xdg_wm_base", xdg.XdgWmBase, 2)
    wm.dispatcher["ping"] = lambda w, serial: w.pong(serial)
    manager = c.bind("zwp_text_input_manager_v3", ti.ZwpTextInputManagerV3, 1)
    text_input = manager.get_text_input(c.seat)
    keyboard = c.seat.get_keyboard()
    for event in ["keymap", "enter", "leave", "modifiers", "repeat_info"]:
        keyboard.dispatcher[event] = (lambda k, fmt, fd, size: os.close(fd)) if event == "keymap" else (lambda *a: None)
    keyboard.dispatcher["key"] = lambda k, serial, t, key, key_state: say("wl-key", key, key_state)
    commits = [0]

    def describe():
        text_input.enable()
        text_input.set_surrounding_text("abc", 3, 3)
        text_input.set_content_type(1, purpose)
        text_input.set_cursor_rectangle(20, 30, 2, 16)
        text_input.commit()
        commits[0] += 1

    def on_enter(t, surface):
        say("enter")
        describe()

    def on_leave(t, surface):
        say("leave")
        t.disable()
        t.commit()
        commits[0] += 1

    text_input.dispatcher["enter"] = on_enter
    text_input.dispatcher["leave"] = on_leave
    text_input.dispatcher["preedit_string"] = lambda t, text, b, e: say("preedit", text, b, e)
    text_input.dispatcher["commit_string"] = lambda t, text: say("commit", text)
    text_input.dispatcher["delete_surrounding_text"] = lambda t, b, a: say("delete", b, a)
    text_input.dispatcher["done"] = lambda t, serial: say("done", serial, "commits", commits[0])

    surface = c.compositor.create_surface()
    xdg_surface = wm.get_xdg_surface(surface)
    toplevel = xdg_surface.get_toplevel()
    toplevel.set_title(title)
    configured = []

    def on_configure(x, serial):
        x.ack_configure(serial)
        configured.append(serial)

    xdg_surface.dispatcher["configure"] = on_configure
    surface.commit()
    while not configured and c.display.dispatch(block=True) >= 0:
        pass
    surface.attach(c.buffer(200, 100, b"\xe0\xe0\xe0\xff"), 0, 0)
    surface.damage_buffer(0, 0, 200, 100)
    surface.commit()
    c.display.roundtrip()
    say("mapped")
    c.run_forever()
    say("disconnected")


def run_text_field_v1():
    """A text field speaking text-input v1, as Qt 6.4 does: it activates its text input on its
    surface when the keyboard enters it, describes itself at the text input's `enter` and
    commits the state with the serial it last heard (Qt's way)."""
    ti1 = ime_protocols.text_input_v1()
    c = Client()
    wm = c.bind("xdg_wm_base", xdg.XdgWmBase, 2)
    wm.dispatcher["ping"] = lambda w, serial: w.pong(serial)
    text_input = c.bind("zwp_text_input_manager_v1", ti1.ZwpTextInputManagerV1, 1).create_text_input()
    surface = c.compositor.create_surface()
    keyboard = c.seat.get_keyboard()
    for event in ["keymap", "leave", "modifiers", "repeat_info", "key"]:
        keyboard.dispatcher[event] = (lambda k, fmt, fd, size: os.close(fd)) if event == "keymap" else (lambda *a: None)
    keyboard.dispatcher["enter"] = lambda k, serial, s, keys: text_input.activate(c.seat, surface)
    serial = [0]

    def heard(name, value):
        serial[0] = value
        return name

    def on_enter(t, s):
        say("enter")
        t.set_surrounding_text("abc", 3, 3)
        t.set_content_type(1, 0)
        t.set_cursor_rectangle(20, 30, 2, 16)
        t.commit_state(serial[0])

    text_input.dispatcher["enter"] = on_enter
    text_input.dispatcher["leave"] = lambda t: say("leave")
    text_input.dispatcher["preedit_cursor"] = lambda t, index: say("preedit-cursor", index)
    text_input.dispatcher["preedit_string"] = lambda t, s, text, commit: say(heard("preedit", s), text, repr(commit), "serial", s)
    text_input.dispatcher["commit_string"] = lambda t, s, text: say(heard("commit", s), text, "serial", s)
    text_input.dispatcher["delete_surrounding_text"] = lambda t, index, length: say("delete", index, length)

    xdg_surface = wm.get_xdg_surface(surface)
    toplevel = xdg_surface.get_toplevel()
    toplevel.set_title("text-field-v1")
    configured = []

    def on_configure(x, s):
        x.ack_configure(s)
        configured.append(s)

    xdg_surface.dispatcher["configure"] = on_configure
    surface.commit()
    while not configured and c.display.dispatch(block=True) >= 0:
        pass
    surface.attach(c.buffer(200, 100, b"\xe0\xe0\xe0\xff"), 0, 0)
    surface.damage_buffer(0, 0, 200, 100)
    surface.commit()
    c.display.roundtrip()
    say("mapped")
    c.run_forever()
    say("disconnected")


def main():
    mode = sys.argv[1]
    args = sys.argv[2:]
    if mode == "ime":
        popup = None
        if "--popup" in args:
            i = args.index("--popup")
            popup = (int(args[i + 1]), int(args[i + 2]))
        delete = None
        if "--delete" in args:
            i = args.index("--delete")
            delete = (int(args[i + 1]), int(args[i + 2]))
        run_ime(args[0], args[1], popup=popup, grab="--grab" in args, stay="--stay" in args, delete=delete)
    elif mode == "second":
        run_second()
    elif mode == "text-field-v1":
        run_text_field_v1()
    elif mode == "text-field":
        purpose = int(args[args.index("--purpose") + 1]) if "--purpose" in args else 0
        titles = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] != "--purpose")]
        run_text_field(*titles[:1], purpose=purpose, tablet="--tablet" in args)
    else:
        print("unknown mode " + mode, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
