#!/usr/bin/env python3
"""A task bar for Lodestone's foreign toplevel tests (ForeignToplevelTests), in pywayland.

Usage: taskbar_client.py COMMANDS_FILE        a task bar driven by the test
       taskbar_client.py bad-rectangle TITLE  set_rectangle on TITLE's handle with a negative
                                              width (error invalid_rectangle); a RESULT line
       taskbar_client.py closed-handle TITLE  close TITLE through its handle, then send every
                                              request to the closed handle (ignored); a RESULT line
(WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the compositor.)

The task bar binds zwlr_foreign_toplevel_manager_v1 (version 3), ext_foreign_toplevel_list_v1
and every wl_output, prints 'ready', then runs each line appended to COMMANDS_FILE, after a
round trip, and answers 'ok N' (N counts the commands):
  list            one line per open wlr handle: 'window TITLE|APP_ID|STATES|OUTPUTS|PARENT'
                  (STATES: comma-separated names; OUTPUTS: wl_output names; PARENT: the parent
                  handle's title or '-'), then one per open ext handle: 'ext IDENTIFIER|TITLE|APP_ID'
  activate|close|minimize|unminimize|maximize|unmaximize|fullscreen|unfullscreen TITLE
                  the request on the first handle whose title contains TITLE
  stop            stop on the manager and the list
It prints 'closed TITLE' (wlr) and 'ext-closed TITLE' as handles close, 'finished wlr' and
'finished ext' when the manager and the list finish.

The bindings are generated at start-up from protocols/wlr-foreign-toplevel-management-unstable-v1.xml
and protocols/ext-foreign-toplevel-list-v1.xml with pywayland's scanner (pywayland_bindings.py).
"""
import errno
import os
import select
import sys
import pywayland_bindings

STATES = {0: "maximized", 1: "minimized", 2: "activated", 3: "fullscreen"}


def say(*words):
    print(*words, flush=True)


def bindings():
    return pywayland_bindings.generate("taskbar_protocols",
                                       [pywayland_bindings.core(),
                                        pywayland_bindings.repository("wlr-foreign-toplevel-management-unstable-v1.xml"),
                                        pywayland_bindings.repository("ext-foreign-toplevel-list-v1.xml")],
                                       ["wayland", "wlr_foreign_toplevel_management_unstable_v1", "ext_foreign_toplevel_list_v1"])

class Handle:
    def __init__(self, proxy):
        self.proxy = proxy
        self.title, self.app_id, self.states, self.outputs, self.parent = "", "", [], [], None
        self.closed = False


class TaskBar:
    def __init__(self, destroy_closed=True):
        from pywayland.client import Display
        self.destroy_closed = destroy_closed
        self.wl, self.wlr, self.ext = bindings()
        self.display = Display()
        self.display.connect()
        found = {}
        registry = self.display.get_registry()
        registry.dispatcher["global"] = lambda r, name, interface, version: found.setdefault(interface, []).append(name)
        self.display.roundtrip()
        self.registry, self.found = registry, found
        self.seat = registry.bind(found["wl_seat"][0], self.wl.WlSeat, 1)
        self.output_names = {}
        for name in found.get("wl_output", []):
            output = registry.bind(name, self.wl.WlOutput, 4)
            output.dispatcher["name"] = lambda o, n: self.output_names.__setitem__(o, n)
        self.handles, self.ext_handles = [], []
        self.manager = registry.bind(found["zwlr_foreign_toplevel_manager_v1"][0], self.wlr.ZwlrForeignToplevelManagerV1, 3)
        self.manager.dispatcher["toplevel"] = self.on_toplevel
        self.manager.dispatcher["finished"] = lambda m: say("finished wlr")
        self.list = registry.bind(found["ext_foreign_toplevel_list_v1"][0], self.ext.ExtForeignToplevelListV1, 1)
        self.list.dispatcher["toplevel"] = self.on_ext_toplevel
        self.list.dispatcher["finished"] = lambda m: say("finished ext")
        self.display.roundtrip()
        self.display.roundtrip()

    def on_toplevel(self, manager, proxy):
        h = Handle(proxy)
        self.handles.append(h)
        proxy.dispatcher["title"] = lambda p, t: setattr(h, "title", t)
        proxy.dispatcher["app_id"] = lambda p, a: setattr(h, "app_id", a)
        proxy.dispatcher["state"] = lambda p, s: setattr(h, "states", [STATES.get(v, str(v)) for v in memoryview(bytes(s)).cast("I")])
        proxy.dispatcher["output_enter"] = lambda p, o: h.outputs.append(o)
        proxy.dispatcher["output_leave"] = lambda p, o: h.outputs.remove(o)
        proxy.dispatcher["parent"] = lambda p, parent: setattr(h, "parent", parent)
        proxy.dispatcher["done"] = lambda p: None

        def closed(p):
            h.closed = True
            say("closed", h.title)
            if self.destroy_closed:
                p.destroy()
        proxy.dispatcher["closed"] = closed

    def on_ext_toplevel(self, manager, proxy):
        h = Handle(proxy)
        h.identifier = None
        self.ext_handles.append(h)
        proxy.dispatcher["identifier"] = lambda p, i: setattr(h, "identifier", i)
        proxy.dispatcher["title"] = lambda p, t: setattr(h, "title", t)
        proxy.dispatcher["app_id"] = lambda p, a: setattr(h, "app_id", a)
        proxy.dispatcher["done"] = lambda p: None

        def closed(p):
            h.closed = True
            say("ext-closed", h.title)
            p.destroy()
        proxy.dispatcher["closed"] = closed

    def find(self, title):
        return next(h for h in self.handles if not h.closed and title in h.title)

    def parent_title(self, h):
        return next((p.title for p in self.handles if h.parent is not None and p.proxy == h.parent), "-")

    def run(self, command):
        verb, _, arg = command.partition(" ")
        if verb == "list":
            for h in self.handles:
                if not h.closed:
                    outputs = ",".join(sorted(self.output_names.get(o, "?") for o in h.outputs))
                    say(f"window {h.title}|{h.app_id}|{','.join(h.states)}|{outputs}|{self.parent_title(h)}")
            for h in self.ext_handles:
                if not h.closed:
                    say(f"ext {h.identifier}|{h.title}|{h.app_id}")
        elif verb == "stop":
            self.manager.stop()
            self.list.stop()
        elif verb == "activate":
            self.find(arg).proxy.activate(self.seat)
        elif verb in ("close", "unminimize", "maximize", "unmaximize", "unfullscreen"):
            name = {"unminimize": "unset_minimized", "maximize": "set_maximized", "unmaximize": "unset_maximized",
                    "unfullscreen": "unset_fullscreen"}.get(verb, verb)
            getattr(self.find(arg).proxy, name)()
        elif verb == "minimize":
            self.find(arg).proxy.set_minimized()
        elif verb == "fullscreen":
            self.find(arg).proxy.set_fullscreen(None)
        else:
            say("unknown command", command)

    def outcome(self):
        from pywayland import lib
        code = lib.wl_display_get_error(self.display._ptr)
        return "ok" if code == 0 else ("protocol-error" if code == errno.EPROTO else "disconnected")


def drive(commands_file):
    bar = TaskBar()
    say("ready")
    done, count = 0, 0
    fd = bar.display.get_fd()
    while True:
        bar.display.flush()
        readable, _, _ = select.select([fd], [], [], 0.05)
        if readable and bar.display.dispatch(block=True) < 0:
            say("disconnected")
            return 1
        lines = open(commands_file).read().splitlines() if os.path.exists(commands_file) else []
        for line in lines[done:]:
            done += 1
            if bar.display.roundtrip() < 0:
                say("disconnected")
                return 1
            bar.run(line)
            bar.display.roundtrip()
            count += 1
            say("ok", count)


def main(mode, title=None):
    if mode in ("bad-rectangle", "closed-handle"):
        bar = TaskBar(destroy_closed=False)
        h = bar.find(title)
        if mode == "bad-rectangle":
            surface = bar.registry.bind(bar.found["wl_compositor"][0], bar.wl.WlCompositor, 4).create_surface()
            h.proxy.set_rectangle(surface, 0, 0, 10, 10)
            h.proxy.set_rectangle(surface, 0, 0, 0, 0)
            h.proxy.set_rectangle(surface, 0, 0, -5, 10)
        else:
            h.proxy.close()
            while not h.closed and bar.display.dispatch(block=True) >= 0:
                pass
            # Every request to the closed handle: ignored, not an error.
            for name in ("set_maximized", "unset_maximized", "set_minimized", "unset_minimized", "close",
                         "unset_fullscreen"):
                getattr(h.proxy, name)()
            h.proxy.activate(bar.seat)
            h.proxy.set_fullscreen(None)
            h.proxy.destroy()
        for _ in range(3):
            if bar.display.roundtrip() < 0:
                break
        say("RESULT:", bar.outcome())
        # Not through the interpreter's teardown: pywayland's proxies outliving the broken
        # connection crash it there.
        os._exit(0)
    return drive(mode)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
