#!/usr/bin/env python3
"""A random and adversarial X11 client (python-xlib) for the window manager Lodestone runs in
Xwayland (XwaylandFuzzTests): windows created, mapped, reconfigured and destroyed; the
properties the window manager reads (WM_NAME, _NET_WM_NAME, WM_CLASS, WM_HINTS,
WM_NORMAL_HINTS, _MOTIF_WM_HINTS, WM_PROTOCOLS, _NET_WM_STATE, WM_TRANSIENT_FOR) set with
wrong types and formats, zero and huge lengths and bogus atoms, transients pointing at
themselves, in cycles and at destroyed windows; ClientMessages (_NET_WM_STATE,
_NET_WM_MOVERESIZE, WM_CHANGE_STATE, _NET_ACTIVE_WINDOW, WL_SURFACE_ID) with bogus data;
and selection traffic both ways: X owners that answer, refuse, lie about TARGETS, send INCR
honestly, lie about its size, stall, or disconnect mid-INCR, while wl-paste pastes; and X
requestors of a wl-copy selection that never delete the property or vanish mid-INCR.

  x11_fuzz.py --seed N --seconds S [--log FILE] [--clients K]
      Runs for S seconds from seed N. Every decision comes from the seed, so a failure is
      replayed with the same seed (X events' timing aside); --log gets one line per action.
  x11_fuzz.py --case NAME
      One adversarial case, deterministic (the regression tests of what the fuzzer found);
      --list names them.

Prints "seed N" first and "done N actions, E X errors" at the end (X errors are expected:
the fuzzer asks for things X refuses). Needs DISPLAY; WAYLAND_DISPLAY (with wl-copy and
wl-paste on PATH) adds the Wayland side of the selections.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import time

from Xlib import X, Xatom, display, error
from Xlib.protocol import event

# Property values stay below python-xlib's largest request (no BIG-REQUESTS: 256 KiB);
# appends grow a property past it.
MAX_CHUNK = 200_000
INTERESTING = ["WM_NAME", "_NET_WM_NAME", "WM_CLASS", "WM_HINTS", "WM_NORMAL_HINTS", "_MOTIF_WM_HINTS", "WM_PROTOCOLS",
               "_NET_WM_STATE", "WM_TRANSIENT_FOR", "WM_STATE", "_NET_FRAME_EXTENTS", "_NET_WM_WINDOW_TYPE"]
TYPES = ["STRING", "UTF8_STRING", "ATOM", "CARDINAL", "WINDOW", "INTEGER", "WM_SIZE_HINTS", "WM_HINTS", "_MOTIF_WM_HINTS",
         "INCR", "TARGETS"]
STATES = ["_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ", "_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_HIDDEN",
          "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_MODAL"]
MESSAGES = ["_NET_WM_STATE", "_NET_WM_MOVERESIZE", "WM_CHANGE_STATE", "_NET_ACTIVE_WINDOW", "WL_SURFACE_ID", "WM_PROTOCOLS",
            "_NET_CLOSE_WINDOW", "_NET_WM_PING"]
# What an X selection owner does with a request.
OWNER_BEHAVIOURS = ["good", "refuse", "silent", "bogus-targets", "huge-targets", "wrong-format", "incr", "incr-lie",
                    "incr-stall", "incr-disconnect", "incr-endless", "wrong-property", "huge"]
# What an X requestor of Wayland's selection does with an INCR transfer.
REQUESTOR_BEHAVIOURS = ["good", "stall", "destroy", "disconnect"]


def wid(w):
    """A window id from an event field (python-xlib gives Window objects)."""
    return w.id if hasattr(w, "id") else int(w)


class Client:
    """One X connection and the windows it made (its own and others' ids are fair game)."""

    def __init__(self, fuzzer, index):
        self.fuzzer, self.index = fuzzer, index
        self.d = display.Display()
        self.d.set_error_handler(fuzzer.x_error)
        self.screen = self.d.screen()
        self.root = self.screen.root
        self.windows = []
        self.atoms = {}
        # Selection ownership: atom -> (window, behaviour); INCR transfers going out.
        self.owned = {}
        self.incr = []
        # Our conversions of Wayland's selection: property -> (window, behaviour).
        self.requests = {}

    def atom(self, name):
        if name not in self.atoms:
            self.atoms[name] = self.d.intern_atom(name)
        return self.atoms[name]


class Fuzzer:
    def __init__(self, seed, seconds, log, clients):
        self.seed, self.seconds, self.clients_wanted = seed, seconds, clients
        self.rng = random.Random(seed)
        self.log = open(log, "w") if log else None
        self.errors = 0
        self.actions = 0
        self.clients = []
        self.destroyed = []  # ids of windows we destroyed: transients point at them
        self.children = []  # wl-copy and wl-paste
        self.wayland = bool(os.environ.get("WAYLAND_DISPLAY")) and shutil.which("wl-paste") and shutil.which("wl-copy")

    # MARK: Bookkeeping

    def x_error(self, err, request):
        self.errors += 1

    def note(self, *words):
        self.actions += 1
        if self.log:
            self.log.write(f"{self.actions} {time.monotonic() - self.start:.3f} " + " ".join(str(w) for w in words) + "\n")
            self.log.flush()

    def client(self):
        while len(self.clients) < self.clients_wanted:
            self.clients.append(Client(self, len(self.clients)))
        return self.rng.choice(self.clients)

    def window_id(self, c):
        """A window to aim at: usually one of ours, sometimes another client's, a destroyed
        one, the root, None or nonsense."""
        r = self.rng.random()
        mine = [w.id for w in c.windows]
        everyone = [w.id for k in self.clients for w in k.windows]
        if r < 0.6 and mine:
            return self.rng.choice(mine)
        if r < 0.75 and everyone:
            return self.rng.choice(everyone)
        if r < 0.85 and self.destroyed:
            return self.rng.choice(self.destroyed)
        return self.rng.choice([0, c.root.id, 0xFFFFFFFF, 0x1FFFFFFF, self.rng.getrandbits(32), c.root.id + 1])

    def atom(self, c, names):
        r = self.rng.random()
        if r < 0.8:
            return c.atom(self.rng.choice(names))
        if r < 0.9:
            return self.rng.choice([0, 1, 68, 69, 0xFFFF, 0x1FFFFFFF, 0xFFFFFFFF])  # None, predefined, bogus
        return c.atom(f"_FUZZ_{self.rng.getrandbits(16)}")

    def data(self, format):
        """Property data for `format`: empty, short, typical, random or huge."""
        unit = format // 8
        r = self.rng.random()
        if r < 0.15:
            n = 0
        elif r < 0.5:
            n = self.rng.randint(1, 12)
        elif r < 0.9:
            n = self.rng.randint(1, 400)
        else:
            n = self.rng.randint(1, MAX_CHUNK // unit)
        if format == 8:
            kind = self.rng.random()
            if kind < 0.3:
                return bytes(self.rng.getrandbits(8) for _ in range(min(n, 4096))) * max(1, n // 4096)
            if kind < 0.5:
                return ("é\u2603\U0001F600" * (n // 3 + 1)).encode()[:n]
            if kind < 0.6:
                return b"\0" * n
            return b"A" * n
        top = (1 << format) - 1
        choices = [0, 1, 2, 3, 8, 16, 32, 0x7FFF, top, top - 1, top >> 1]
        return [self.rng.choice(choices) if self.rng.random() < 0.7 else self.rng.getrandbits(format) for _ in range(n)]

    # MARK: Windows

    def create(self, c):
        override = self.rng.random() < 0.2
        parent = c.root
        if c.windows and self.rng.random() < 0.1:
            parent = self.rng.choice(c.windows)  # a child: not the window manager's business
        x, y = self.rng.choice([0, -100, 100, 32767, -32768, self.rng.randint(-2000, 4000)]), self.rng.randint(-500, 2000)
        w, h = (self.rng.choice([1, 2, 10, 300, 4000, 32767, 65535]) for _ in range(2))
        if self.rng.random() < 0.6:
            w, h = self.rng.randint(1, 800), self.rng.randint(1, 600)
        window = parent.create_window(x, y, w, h, self.rng.choice([0, 0, 5]), self.screen_depth(c), X.InputOutput, X.CopyFromParent,
                                      background_pixel=self.rng.getrandbits(24), override_redirect=override,
                                      event_mask=X.StructureNotifyMask | X.PropertyChangeMask)
        c.windows.append(window)
        self.note("create", c.index, hex(window.id), "parent", hex(parent.id), x, y, w, h, "override" if override else "")
        if self.rng.random() < 0.5:
            window.set_wm_name(f"fuzz {self.seed} {window.id:x}")
        if self.rng.random() < 0.5:
            window.map()
            self.note("map", hex(window.id))

    def screen_depth(self, c):
        return c.screen.root_depth

    def mine(self, c):
        return self.rng.choice(c.windows) if c.windows else None

    def map_unmap(self, c):
        w = self.mine(c)
        if w is None:
            return
        if self.rng.random() < 0.6:
            w.map()
            self.note("map", hex(w.id))
        else:
            w.unmap()
            self.note("unmap", hex(w.id))

    def configure(self, c):
        w = self.mine(c)
        if w is None:
            return
        values = {}
        for key in ["x", "y", "width", "height", "border_width", "stack_mode"]:
            if self.rng.random() < 0.5:
                if key in ("x", "y"):
                    values[key] = self.rng.choice([0, -1, 32767, -32768, self.rng.randint(-3000, 3000)])
                elif key == "stack_mode":
                    values[key] = self.rng.choice([X.Above, X.Below, X.TopIf, X.BottomIf, X.Opposite])
                else:
                    values[key] = self.rng.choice([1, 32767, 16384, self.rng.randint(1, 2000)])  # python-xlib: at most 32767
        w.configure(**values)
        self.note("configure", hex(w.id), values)

    def destroy(self, c):
        w = self.mine(c)
        if w is None:
            return
        c.windows.remove(w)
        self.destroyed.append(w.id)
        self.destroyed = self.destroyed[-50:]
        w.destroy()
        self.note("destroy", hex(w.id))

    def reconnect(self, c):
        """A client hangs up, every window of its going with it (mid-INCR or not)."""
        self.note("disconnect", c.index, "windows", len(c.windows))
        self.hang_up(c)

    def hang_up(self, c):
        self.destroyed += [w.id for w in c.windows]
        self.destroyed = self.destroyed[-50:]
        self.clients.remove(c)
        try:
            c.d.sync()
        except Exception:
            pass
        c.d.close()

    # MARK: Properties

    def property(self, c):
        w = self.mine(c)
        if w is None:
            return
        name = self.rng.choice(INTERESTING)
        prop = c.atom(name) if self.rng.random() < 0.9 else self.atom(c, INTERESTING)
        r = self.rng.random()
        if r < 0.1:
            w.delete_property(prop)
            self.note("delete-property", hex(w.id), name)
            return
        if name == "WM_TRANSIENT_FOR" and r < 0.7:
            return self.transient(c, w)
        type = self.atom(c, TYPES)
        format = self.rng.choice([8, 16, 32, 32])
        data = self.data(format)
        mode = X.PropModeReplace if self.rng.random() < 0.7 else self.rng.choice([X.PropModeAppend, X.PropModePrepend])
        w.change_property(prop, type, format, data, mode)
        self.note("property", hex(w.id), name, prop, "type", type, "format", format, "length", len(data), "mode", mode)

    def transient(self, c, w):
        """WM_TRANSIENT_FOR at itself, another window, a destroyed one, or a cycle."""
        r = self.rng.random()
        if r < 0.2:
            target = w.id
        elif r < 0.5 and len(c.windows) > 1:
            # A cycle: w -> other -> w (or longer).
            ring = self.rng.sample(c.windows, min(len(c.windows), self.rng.randint(2, 4)))
            for a, b in zip(ring, ring[1:] + ring[:1]):
                a.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [b.id])
            self.note("transient-cycle", [hex(a.id) for a in ring])
            return
        else:
            target = self.window_id(c)
        w.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [target])
        self.note("transient", hex(w.id), hex(target))

    # MARK: ClientMessages

    def message(self, c):
        name = self.rng.choice(MESSAGES)
        target = self.window_id(c)
        data = [self.rng.choice([0, 1, 2, 3, 7, 8, 9, 10, 11, 12, 0xFFFFFFFF, self.rng.getrandbits(32)]) for _ in range(5)]
        if name == "_NET_WM_STATE" and self.rng.random() < 0.7:
            data[1] = c.atom(self.rng.choice(STATES))
            data[2] = c.atom(self.rng.choice(STATES)) if self.rng.random() < 0.5 else data[2]
        if name in ("_NET_WM_MOVERESIZE", "WL_SURFACE_ID") and self.rng.random() < 0.5:
            data[2 if name == "_NET_WM_MOVERESIZE" else 0] = self.rng.randint(0, 12)
        format = 32 if self.rng.random() < 0.85 else self.rng.choice([8, 16])
        payload = {32: data, 16: [v & 0xFFFF for v in data] * 2, 8: bytes(v & 0xFF for v in data) * 4}[format]
        type = c.atom(name) if self.rng.random() < 0.9 else self.atom(c, MESSAGES)
        message = event.ClientMessage(window=target, client_type=type, data=(format, payload))
        mask = self.rng.choice([X.SubstructureRedirectMask | X.SubstructureNotifyMask, X.SubstructureRedirectMask, X.NoEventMask])
        destination = c.root if self.rng.random() < 0.9 else self.d_window(c, target)
        destination.send_event(message, event_mask=mask)
        self.note("message", name, "to", hex(target), "format", format, data)

    def d_window(self, c, id):
        return c.d.create_resource_object("window", id)

    # MARK: Selections

    def own(self, c):
        """Takes CLIPBOARD or PRIMARY with a behaviour for the requests that follow."""
        w = self.mine(c)
        if w is None:
            return
        selection = c.atom(self.rng.choice(["CLIPBOARD", "PRIMARY"]))
        behaviour = self.rng.choice(OWNER_BEHAVIOURS)
        w.set_selection_owner(selection, X.CurrentTime)
        c.owned[selection] = (w.id, behaviour)
        self.note("own", hex(w.id), "selection", selection, behaviour)

    def paste(self, c):
        """wl-paste of the X selection (into a pipe read slowly, or not at all)."""
        if not self.wayland or len(self.children) > 12:
            return
        args = ["wl-paste", "--no-newline"]
        if self.rng.random() < 0.4:
            args.append("--primary")
        if self.rng.random() < 0.3:
            args += ["--type", self.rng.choice(["text/plain", "text/plain;charset=utf-8", "text/html", "image/png"])]
        reads = self.rng.random() < 0.7
        p = subprocess.Popen(["timeout", str(self.rng.choice([2, 5, 10])), *args], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL if reads else subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.children.append(p)
        self.note("wl-paste", args, "reads" if reads else "never reads")

    def copy(self, c):
        """wl-copy: Wayland takes the selection, X requestors come next."""
        if not self.wayland or len(self.children) > 12:
            return
        size = self.rng.choice([0, 5, 1000, 300_000, 1_200_000])
        args = ["wl-copy", "--foreground"]
        if self.rng.random() < 0.4:
            args.append("--primary")
        if self.rng.random() < 0.3:
            args += ["--type", self.rng.choice(["text/plain", "text/html", "application/x-fuzz"])]
        p = subprocess.Popen(["timeout", str(self.rng.choice([3, 8, 20])), *args], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            p.stdin.write(b"x" * size)
            p.stdin.close()
        except BrokenPipeError:
            pass
        self.children.append(p)
        self.note("wl-copy", args, size)

    def convert(self, c):
        """An X requestor asks for the selection (Wayland's when wl-copy has it)."""
        w = self.mine(c)
        if w is None:
            return
        selection = c.atom(self.rng.choice(["CLIPBOARD", "PRIMARY"]))
        target = self.atom(c, ["UTF8_STRING", "STRING", "TEXT", "TARGETS", "text/html", "application/x-fuzz", "TIMESTAMP"])
        prop = c.atom(f"_FUZZ_PASTE_{self.rng.randint(0, 3)}") if self.rng.random() < 0.9 else 0
        behaviour = self.rng.choice(REQUESTOR_BEHAVIOURS)
        requestor = w if self.rng.random() < 0.9 else self.d_window(c, self.window_id(c))
        requestor.convert_selection(selection, target, prop, X.CurrentTime)
        if prop:
            c.requests[(requestor.id, prop)] = behaviour
        self.note("convert", hex(requestor.id), "selection", selection, "target", target, "property", prop, behaviour)

    def pump(self, c):
        """Answers what came: SelectionRequests by the owner's behaviour, INCR both ways."""
        try:
            while c.d.pending_events():
                e = c.d.next_event()
                if e.type == X.SelectionRequest:
                    self.selection_request(c, e)
                elif e.type == X.SelectionNotify:
                    self.selection_notify(c, e)
                elif e.type == X.PropertyNotify:
                    self.property_notify(c, e)
                elif e.type == X.SelectionClear:
                    c.owned.pop(e.atom, None)
                if c not in self.clients:
                    return
        except error.ConnectionClosedError:
            if c in self.clients:
                self.clients.remove(c)
        except error.XError:
            # A round trip (reading a property) about a window that went: X said so.
            self.errors += 1

    def selection_request(self, c, e):
        owner = c.owned.get(e.selection)
        behaviour = owner[1] if owner else "refuse"
        requestor = self.d_window(c, wid(e.requestor))
        prop = e.property or e.target
        self.note("selection-request", hex(wid(e.requestor)), "target", e.target, behaviour)

        def notify(property):
            requestor.send_event(event.SelectionNotify(time=e.time, requestor=wid(e.requestor), selection=e.selection, target=e.target,
                                                       property=property), event_mask=0)

        if behaviour == "silent":
            return
        if behaviour == "refuse":
            return notify(X.NONE)
        if e.target == c.atom("TARGETS"):
            if behaviour == "bogus-targets":
                targets = [self.rng.choice([0, 0xFFFFFFF, self.rng.getrandbits(32), c.atom("UTF8_STRING"), c.atom("image/png")])
                           for _ in range(self.rng.randint(0, 64))]
            elif behaviour == "huge-targets":
                # Each name a Wayland MIME type must be asked for: thousands of them.
                targets = [self.rng.getrandbits(29) for _ in range(self.rng.choice([5000, 40000]))]
            else:
                targets = [c.atom("TARGETS"), c.atom("UTF8_STRING"), Xatom.STRING, c.atom("text/plain")]
            if behaviour == "wrong-format":
                requestor.change_property(prop, Xatom.ATOM, 8, b"\x01\x02\x03")
            else:
                requestor.change_property(prop, Xatom.ATOM, 32, targets)
            return notify(prop)
        if behaviour == "wrong-property":
            return notify(c.atom("_FUZZ_NOWHERE"))
        if behaviour == "wrong-format":
            requestor.change_property(prop, e.target, 32, [1, 2, 3])
            return notify(prop)
        if behaviour == "huge":
            requestor.change_property(prop, e.target, 8, b"h" * MAX_CHUNK)
            return notify(prop)
        if behaviour.startswith("incr"):
            size = {"incr": 5 * 65536, "incr-lie": self.rng.choice([0, 1, 0xFFFFFFFF]),
                    "incr-stall": 1 << 20, "incr-disconnect": 1 << 20, "incr-endless": 1 << 20}[behaviour]
            # Our PropertyNotify DELETE on the requestor asks for the next chunk.
            requestor.change_attributes(event_mask=X.PropertyChangeMask)
            requestor.change_property(prop, c.atom("INCR"), 32, [size])
            c.incr.append({"requestor": requestor, "property": prop, "type": e.target, "left": 5, "behaviour": behaviour})
            return notify(prop)
        requestor.change_property(prop, e.target, 8, f"fuzz {self.seed}".encode())
        notify(prop)

    def property_notify(self, c, e):
        window = wid(e.window)
        if e.state == X.PropertyDelete:
            for t in c.incr:
                if t["requestor"].id != window or t["property"] != e.atom:
                    continue
                b = t["behaviour"]
                if b == "incr-stall":
                    self.note("incr-stall", hex(window))
                    c.incr.remove(t)
                elif b == "incr-disconnect" and t["left"] < 4:
                    self.note("incr-disconnect", hex(window))
                    self.hang_up(c)
                elif t["left"] == 0 and b != "incr-endless":
                    t["requestor"].change_property(t["property"], t["type"], 8, b"")
                    c.incr.remove(t)
                else:
                    t["left"] -= 1
                    t["requestor"].change_property(t["property"], t["type"], 8, b"i" * 65536)
                return
            return
        # A chunk of Wayland's data for one of our conversions.
        behaviour = c.requests.get((window, e.atom))
        if behaviour is None or e.state != X.PropertyNewValue:
            return
        if behaviour == "stall":
            return
        if behaviour == "destroy":
            for w in c.windows:
                if w.id == window:
                    c.windows.remove(w)
                    w.destroy()
                    self.note("requestor-destroyed", hex(window))
            c.requests.pop((window, e.atom), None)
            return
        if behaviour == "disconnect":
            self.note("requestor-disconnect", hex(window))
            return self.hang_up(c)
        value = self.d_window(c, window).get_property(e.atom, X.AnyPropertyType, 0, 1 << 20, True)
        if value is not None and value.property_type != c.atom("INCR") and len(value.value) == 0:
            c.requests.pop((window, e.atom), None)

    def selection_notify(self, c, e):
        requestor = wid(e.requestor)
        behaviour = c.requests.get((requestor, e.property))
        self.note("selection-notify", hex(requestor), "property", e.property, behaviour)
        if behaviour is None or e.property == X.NONE:
            return
        w = self.d_window(c, requestor)
        w.change_attributes(event_mask=X.StructureNotifyMask | X.PropertyChangeMask)
        if behaviour != "stall":
            # Deleting the INCR property asks for the first chunk.
            w.get_property(e.property, X.AnyPropertyType, 0, 1 << 20, True)

    # MARK: The loop

    ACTIONS = [("create", 10), ("map_unmap", 8), ("configure", 8), ("destroy", 5), ("property", 25), ("message", 15),
               ("own", 3), ("paste", 3), ("copy", 1), ("convert", 3), ("reconnect", 1)]

    def run(self):
        self.start = time.monotonic()
        print(f"seed {self.seed}", flush=True)
        names = [a for a, _ in self.ACTIONS]
        weights = [w for _, w in self.ACTIONS]
        deadline = self.start + self.seconds
        while time.monotonic() < deadline:
            c = self.client()
            action = self.rng.choices(names, weights)[0]
            try:
                if action == "reconnect":
                    if len(self.clients) > 1 or self.rng.random() < 0.3:
                        self.reconnect(c)
                else:
                    getattr(self, action)(c)
                    c.d.flush()
            except error.XError:
                self.errors += 1
            except (error.ConnectionClosedError, BrokenPipeError, ConnectionResetError) as e:
                # Our own request was too much for X (or the connection was closed by it).
                self.note("connection-lost", c.index, type(e).__name__)
                if c in self.clients:
                    self.clients.remove(c)
            for k in list(self.clients):
                self.pump(k)
            # Windows pile up: some go, so a long run stays a mix of new and old.
            for k in self.clients:
                while len(k.windows) > 40:
                    w = k.windows.pop(0)
                    w.destroy()
                    self.destroyed.append(w.id)
            self.destroyed = self.destroyed[-50:]
            if self.actions % 50 == 0:
                for k in list(self.clients):
                    try:
                        k.d.sync()
                    except error.ConnectionClosedError:
                        self.clients.remove(k)
            self.children = [p for p in self.children if p.poll() is None]
            time.sleep(self.rng.choice([0, 0, 0, 0.001, 0.01]))
        self.finish()

    def finish(self):
        for c in list(self.clients):
            self.hang_up(c)
        for p in self.children:
            if p.poll() is None:
                p.kill()
            p.wait()
        print(f"done {self.actions} actions, {self.errors} X errors", flush=True)


# MARK: Deterministic cases (regression tests)

def case_transient_cycle(d):
    """Two windows transient for each other, and one for itself, all mapped."""
    root = d.screen().root
    a, b, s = (root.create_window(100 + 50 * i, 100, 200, 100, 0, d.screen().root_depth, X.InputOutput, X.CopyFromParent,
                                  background_pixel=0x404040) for i in range(3))
    for w, name in ((a, "cycle-a"), (b, "cycle-b"), (s, "cycle-self")):
        w.set_wm_name(name)
    a.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [b.id])
    b.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [a.id])
    s.change_property(Xatom.WM_TRANSIENT_FOR, Xatom.WINDOW, 32, [s.id])
    for w in (a, b, s):
        w.map()
    return [a, b, s]


def owner_case(behaviour, selection="CLIPBOARD"):
    """An X owner of CLIPBOARD that answers every request `behaviour`-wise while it holds on."""
    def case(d, hold):
        fuzzer = Fuzzer(0, hold, None, 1)
        fuzzer.start = time.monotonic()
        c = Client(fuzzer, 0)
        fuzzer.clients.append(c)
        w = c.root.create_window(0, 0, 10, 10, 0, c.screen.root_depth, X.InputOutput, X.CopyFromParent,
                                 event_mask=X.PropertyChangeMask)
        w.set_selection_owner(c.atom(selection), X.CurrentTime)
        c.owned[c.atom(selection)] = (w.id, behaviour)
        c.d.sync()
        print("owner", behaviour, flush=True)
        deadline = time.monotonic() + hold
        while time.monotonic() < deadline and c in fuzzer.clients:
            fuzzer.pump(c)
            if c in fuzzer.clients:
                c.d.flush()
            time.sleep(0.001)
        print("owner done", fuzzer.actions, "actions", flush=True)
        if c in fuzzer.clients:
            fuzzer.hang_up(c)
    case.__doc__ = f"An X owner of {selection} whose answers are '{behaviour}' (--hold: how long it serves)."
    case.owns = True
    return case


def case_surface_id_hijack(d):
    """A window mapped, then WL_SURFACE_ID (Xwayland's message pairing a window with its
    wl_surface) sent by the client itself for wl_surface ids 1-200, naming its window."""
    root = d.screen().root
    victim = root.create_window(100, 100, 200, 100, 0, d.screen().root_depth, X.InputOutput, X.CopyFromParent,
                                background_pixel=0x2E8B57)
    victim.set_wm_name("hijack-victim")
    thief = root.create_window(400, 100, 50, 50, 0, d.screen().root_depth, X.InputOutput, X.CopyFromParent,
                               background_pixel=0x808080, override_redirect=True)
    thief.map()
    type = d.intern_atom("WL_SURFACE_ID")
    for id in range(1, 201):
        message = event.ClientMessage(window=thief, client_type=type, data=(32, [id, 0, 0, 0, 0]))
        root.send_event(message, event_mask=X.SubstructureRedirectMask)
    victim.map()
    d.sync()
    for id in range(1, 201):
        message = event.ClientMessage(window=thief, client_type=type, data=(32, [id, 0, 0, 0, 0]))
        root.send_event(message, event_mask=X.SubstructureRedirectMask)
    return [victim, thief]


def case_incr_to_root(d):
    """A paste of Wayland's selection (wl-copy, 300 kB: INCR) into a property of the root
    window, a requestor any X client may name. Prints whether the root still sends map
    requests to the window manager (SubstructureRedirect among its event masks)."""
    if not os.environ.get("WAYLAND_DISPLAY") or not shutil.which("wl-copy"):
        raise SystemExit("incr-to-root needs WAYLAND_DISPLAY and wl-copy")
    root = d.screen().root
    copy = subprocess.Popen(["timeout", "60", "wl-copy", "--foreground"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    copy.stdin.write(b"x" * 300_000)
    copy.stdin.close()
    clipboard, prop, incr = (d.intern_atom(name) for name in ("CLIPBOARD", "_FUZZ_PASTE_ROOT", "INCR"))
    # The window manager takes X's CLIPBOARD once Wayland's selection is wl-copy's.
    deadline = time.monotonic() + 20
    while wid(d.get_selection_owner(clipboard)) == X.NONE:
        if time.monotonic() > deadline:
            raise SystemExit("the window manager never took CLIPBOARD for wl-copy")
        time.sleep(0.05)
    root.convert_selection(clipboard, d.intern_atom("UTF8_STRING"), prop, X.CurrentTime)
    d.flush()
    # Its answer: type INCR and the size, in the root's property.
    while True:
        value = root.get_full_property(prop, X.AnyPropertyType)
        if value is not None and value.property_type == incr:
            break
        if time.monotonic() > deadline + 20:
            raise SystemExit("no INCR answer in the root's property")
        time.sleep(0.05)
    redirected = root.get_attributes().all_event_masks & X.SubstructureRedirectMask != 0
    print("incr to root; root redirected:", "yes" if redirected else "no", flush=True)
    return [copy]


CASES = {"transient-cycle": case_transient_cycle, "surface-id-hijack": case_surface_id_hijack,
         "incr-to-root": case_incr_to_root}
CASES.update({"owner-" + b: owner_case(b) for b in OWNER_BEHAVIOURS})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--log")
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--case", choices=sorted(CASES))
    parser.add_argument("--hold", type=float, default=0, help="with --case: seconds to stay connected")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    if args.list:
        for name, f in sorted(CASES.items()):
            print(name, "-", f.__doc__)
        return
    if args.case and getattr(CASES[args.case], "owns", False):
        CASES[args.case](None, args.hold)
        return
    if args.case:
        d = display.Display()
        CASES[args.case](d)
        d.sync()
        print("case", args.case, "sent", flush=True)
        time.sleep(args.hold)
        d.sync()
        d.close()
        return
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    Fuzzer(seed, args.seconds, args.log, args.clients).run()


if __name__ == "__main__":
    main()
