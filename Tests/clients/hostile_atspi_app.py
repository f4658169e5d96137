#!/usr/bin/python3
"""An app on the AT-SPI bus that lies, for Lodestone's tests of its accessibility walk
(issue 24): it registers the way a real app does (org.a11y.Bus.GetAddress on the session
bus, then the registry's Socket.Embed) and maps a Wayland window of its own, then answers
the calls about its accessible objects with MODE's lies.

Usage: /usr/bin/python3 hostile_atspi_app.py MODE
  (DBUS_SESSION_BUS_ADDRESS, WAYLAND_DISPLAY and XDG_RUNTIME_DIR select the buses; Debian's
  python3-gi, so /usr/bin/python3, not a virtual environment's)

The window: this process connects to the compositor itself and hands the connection to
`python3 surface_client.py text-cursor hostile-a11y 400 300` (WAYLAND_SOCKET), so the
compositor sees this process's PID on it, as on the D-Bus connection: Lodestone matches
the two by PID. Its pointer cursor is the text shape.

The tree: the application root, one frame "/w" (400x300 at 0,0, visible), and below it:
  good          a push button "/b" at 20,20 120x40 (so the walk is seen to reach this app)
  wrong-types   100 children, each answering GetRole, GetState, GetExtents, GetChildren,
                ChildCount and GetChildAtIndex with a wrong signature (one of several)
  wrong-root    the root and the frame answer every call with a wrong signature
  absurd        buttons, text and sliders with INT32_MIN/MAX and negative extents, text
                whose line is INT32_MAX tall and whose font size is nan, inf, 1e308 and -5
  absurd-frame  the frame itself at INT32_MIN,INT32_MIN, INT32_MAX x INT32_MAX, a button in it
  cycle         a label whose children are the frame, itself and another label whose
                children are the frame and the first label
  million       1,000,000 children (GetChildren and ChildCount), each a text whose own
                children are 1,000,000 more
  stall         5,000 text children whose GetCharacterExtents and GetDefaultAttributes, and
                every tenth child's GetRole, are never answered
  disconnect    the good tree under 2,000 labels; after 200 calls the app leaves the bus
                (its window stays)
  frames        the good tree, but the root lists 1,000,000 frames, most of them another
                app's (org.freedesktop.DBus's), the rest named with a wrong type
  stall-root    the good tree, but the root's GetChildren is never answered
  flood         the good tree, and BoundsChanged, ChildrenChanged and StateChanged signals
                as fast as the bus takes them, for 20 s
Prints 'registered NAME' once embedded, 'calls N' each second, 'left the bus' (disconnect).
"""
import os
import socket
import subprocess
import sys
import threading
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib

INT_MIN, INT_MAX = -2**31, 2**31 - 1
ROOT = "/org/a11y/atspi/accessible/root"
# AtspiRole and AtspiStateType (at-spi2-core's atspi-constants.h).
APPLICATION, FRAME, LABEL, PUSH_BUTTON, SLIDER, TEXT = 75, 23, 29, 43, 51, 61
# Visible and showing, enabled and sensitive (a control that is not is left to the circle).
VISIBLE_SHOWING = (1 << 30) | (1 << 25) | (1 << 24) | (1 << 8)

mode = sys.argv[1]
calls = 0
lock = threading.Lock()
bus = None
name = None


def say(*words):
    print(*words, flush=True)


def window():
    """Connects to the compositor and lends the connection to a pywayland window."""
    path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    fd = s.detach()
    os.set_inheritable(fd, True)
    client = os.path.join(os.path.dirname(os.path.abspath(__file__)), "surface_client.py")
    env = dict(os.environ, WAYLAND_SOCKET=str(fd))
    child = subprocess.Popen(["python3", client, "text-cursor", "hostile-a11y", "400", "300"], env=env, pass_fds=(fd,))
    os.close(fd)
    return child


# MARK: The objects

def v(signature, *values):
    return GLib.Variant("(" + signature + ")", values)


def children(paths):
    return v("a(so)", [(name, p) for p in paths])


def node(role, extents, kids=()):
    return {"role": role, "extents": extents, "children": list(kids)}


GOOD = {"/b": node(PUSH_BUTTON, (20, 20, 120, 40))}
tree = {ROOT: node(APPLICATION, (0, 0, 0, 0), ["/w"]), "/w": node(FRAME, (0, 0, 400, 300))}
if mode in ("good", "flood", "frames", "stall-root"):
    tree["/w"]["children"] = ["/b"]
    tree.update(GOOD)
elif mode == "wrong-types":
    tree["/w"]["children"] = ["/x%d" % k for k in range(100)]
elif mode == "absurd":
    absurd = [(INT_MAX, INT_MAX, INT_MAX, INT_MAX), (INT_MIN, INT_MIN, INT_MAX, INT_MAX), (INT_MIN, 0, INT_MAX, 10),
              (0, 0, -5, -5), (10, 10, 0, INT_MAX), (10, 10, INT_MAX, 1), (-100000, -100000, 200000, 200000),
              (INT_MAX - 1, 5, 2, 2), (5, 5, 2, INT_MIN)]
    kids = []
    for k, extents in enumerate(absurd):
        for role in (PUSH_BUTTON, TEXT, SLIDER):
            tree["/a%d_%d" % (k, role)] = node(role, extents)
            kids.append("/a%d_%d" % (k, role))
    # Text with sane extents, but an absurd line.
    for k in range(4):
        tree["/t%d" % k] = node(TEXT, (30, 30 + 50 * k, 200, 40))
        kids.append("/t%d" % k)
    tree["/w"]["children"] = kids
elif mode == "absurd-frame":
    tree["/w"]["extents"] = (INT_MIN, INT_MIN, INT_MAX, INT_MAX)
    tree["/w"]["children"] = ["/b"]
    tree.update(GOOD)
elif mode == "cycle":
    tree["/w"]["children"] = ["/c1"]
    tree["/c1"] = node(LABEL, (0, 0, 400, 300), ["/w", "/c1", "/c2"])
    tree["/c2"] = node(LABEL, (0, 0, 400, 300), ["/w", "/c1"])
elif mode == "stall":
    tree["/w"]["children"] = ["/s%d" % k for k in range(5000)]
elif mode == "disconnect":
    tree["/w"]["children"] = ["/d%d" % k for k in range(2000)] + ["/b"]
    tree.update(GOOD)

MILLION = None


def lookup(path):
    """The node at path: the tree's, or one of a mode's many."""
    if path in tree:
        return tree[path]
    if mode == "million" and path.startswith("/m"):
        return node(TEXT, (10, 10, 100, 20))
    if mode == "frames" and path.startswith("/f"):
        return node(FRAME, (0, 0, 400, 300), ["/b"])
    if mode == "stall" and path.startswith("/s"):
        k = int(path[2:])
        return node(TEXT, (k % 20 * 20, k // 20 % 15 * 20, 18, 18))
    if mode == "disconnect" and path.startswith("/d"):
        return node(LABEL, (0, 0, 10, 10))
    if mode == "wrong-types" and path.startswith("/x"):
        return node(LABEL, (0, 0, 10, 10))
    return None


WRONG = [v("s", "push button"), v("i", -1), v("(ii)", (1, 2)), v("as", ["a", "b"]), v("dddd", 1.0, 2.0, 3.0, 4.0),
         v("a(ss)", [("x", "y")]), v(""), v("v", GLib.Variant("u", 43)), v("ao", ["/w"]), v("(iiii)(iiii)", (0, 0, 1, 1), (0, 0, 1, 1)),
         v("a{sv}", {"role": GLib.Variant("u", 43)}), v("ay", b"\xff" * 64), v("uuuu", 1, 2, 3, 4), v("a(so)a(so)", [], [])]


def wrong(path, member):
    k = int(path[2:]) if path[2:].isdigit() else 0
    return WRONG[(k + len(member)) % len(WRONG)]


def answer(message):
    """The reply body to a method call, or None for no reply at all."""
    path, interface, member = message.get_path(), message.get_interface(), message.get_member()
    body = message.get_body()
    args = body.unpack() if body is not None else ()
    n = lookup(path)
    if n is None:
        return "unknown"
    if mode == "wrong-types" and path.startswith("/x"):
        return wrong(path, member)
    if mode == "wrong-root" and path in (ROOT, "/w"):
        return wrong(path, member + str(int(time.monotonic())))
    if mode == "stall" and path.startswith("/s"):
        if interface == "org.a11y.atspi.Text" or (member == "GetRole" and int(path[2:]) % 10 == 0):
            return None
    if member == "GetRole":
        return v("u", n["role"])
    if member == "GetState":
        return v("au", [VISIBLE_SHOWING, 0])
    if member == "GetExtents":
        return v("(iiii)", n["extents"])
    if member == "GetChildren":
        if mode == "million" and (path == "/w" or path.startswith("/m")):
            return MILLION
        if mode == "frames" and path == ROOT:
            return MILLION
        if mode == "stall-root" and path == ROOT:
            return None
        return children(n["children"])
    if member == "GetChildAtIndex":
        if mode == "million":
            return v("(so)", (name, "/m%d" % args[0]))
        kids = n["children"]
        return v("(so)", (name, kids[args[0]] if 0 <= args[0] < len(kids) else "/null"))
    if member == "GetCharacterExtents":
        return v("iiii", 0, 0, INT_MAX if mode == "absurd" else 8, INT_MAX if mode == "absurd" else 16)
    if member == "GetDefaultAttributes":
        size = ["nan", "inf", "1e308", "-5"][int(path[2:]) % 4] if mode == "absurd" and path.startswith("/t") else "10"
        return v("a{ss}", {"size": size})
    if member == "GetApplication":
        return v("(so)", (name, ROOT))
    if interface == "org.freedesktop.DBus.Properties" and member == "Get":
        prop = args[1]
        if prop == "ChildCount":
            return v("v", GLib.Variant("i", 1000000 if mode == "million" else len(n["children"])))
        if prop == "Name" and mode == "frames":
            return v("v", GLib.Variant("u", 7))
        if prop == "Name":
            return v("v", GLib.Variant("s", "hostile-a11y" if path == "/w" else ""))
        if prop == "Parent":
            return v("v", GLib.Variant("(so)", (name, ROOT if path == "/w" else "/w")))
        return v("v", GLib.Variant("s", ""))
    if member == "GetInterfaces":
        return v("as", ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"])
    if member == "GetAttributes":
        return v("a{ss}", {})
    return "unknown"


def on_message(connection, message, incoming):
    global calls
    if not incoming or message.get_message_type() != Gio.DBusMessageType.METHOD_CALL:
        return message
    if message.get_interface() in ("org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable"):
        return message
    with lock:
        calls += 1
        count = calls
    if mode == "disconnect" and count >= 200:
        if count == 200:
            GLib.idle_add(leave)
        return None
    try:
        body = answer(message)
    except Exception as e:  # a mistake here must not look like a stall
        say("cannot answer", message.get_path(), message.get_member(), repr(e))
        body = "unknown"
    if body is None:
        return None
    if body == "unknown":
        reply = message.new_method_error_literal("org.freedesktop.DBus.Error.UnknownMethod", "no such object or method")
    else:
        reply = message.new_method_reply()
        reply.set_body(body)
    try:
        connection.send_message(reply, Gio.DBusSendMessageFlags.NONE)
    except GLib.Error:
        pass
    return None


def leave():
    bus.close_sync(None)
    say("left the bus")
    return False


def flood():
    if time.monotonic() > flood.until:
        say("flood over")
        return False
    for member in ("BoundsChanged", "ChildrenChanged", "StateChanged") * 30:
        bus.emit_signal(None, "/b", "org.a11y.atspi.Event.Object", member,
                        GLib.Variant("(siiva{sv})", ("", 0, 0, GLib.Variant("i", 0), {})))
    return True


def report():
    say("calls", calls)
    return True


def main():
    global bus, name, MILLION
    session = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    address = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 10000, None).unpack()[0]
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
    bus.set_exit_on_close(False)
    name = bus.get_unique_name()
    if mode == "million":
        MILLION = children("/m%d" % k for k in range(1000000))
    if mode == "frames":
        MILLION = v("a(so)", [("org.freedesktop.DBus" if k % 2 else name, "/f%d" % k) for k in range(1000000)])
    bus.add_filter(on_message)
    bus.call_sync("org.a11y.atspi.Registry", ROOT, "org.a11y.atspi.Socket", "Embed", v("(so)", (name, ROOT)),
                  GLib.VariantType("((so))"), Gio.DBusCallFlags.NONE, 10000, None)
    child = window()
    say("registered", name)
    if mode == "flood":
        flood.until = time.monotonic() + 20
        GLib.idle_add(flood)
    GLib.timeout_add(1000, report)
    loop = GLib.MainLoop()
    GLib.child_watch_add(GLib.PRIORITY_DEFAULT, child.pid, lambda *a: loop.quit())
    loop.run()


main()
