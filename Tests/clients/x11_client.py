#!/usr/bin/env python3
"""A small X11 client (python-xlib) for XwaylandTests: what real apps ask of a window
manager, one request at a time, so each EWMH/ICCCM answer can be checked.

  x11_client.py window --title T [--geometry WxH+X+Y] [--undecorated] [--state fullscreen]
                       [--moveresize DIRECTION]
      Maps a window filled with one colour and prints every ConfigureNotify it gets as
      "configure X Y W H". --undecorated sets _MOTIF_WM_HINTS decorations 0 (as GTK's
      client-side decorated windows do); --state puts _NET_WM_STATE_<STATE> in the property
      before mapping; --moveresize sends _NET_WM_MOVERESIZE with DIRECTION (EWMH: 0-7 edges,
      8 move) on a button press, as a client-side title bar or resize handle does.
      WM_DELETE_WINDOW ends it.
  x11_client.py state --title T add|remove|toggle STATE...
      Sends the _NET_WM_STATE ClientMessage (STATE: maximized_vert, fullscreen, ...).
  x11_client.py iconify --title T
      Sends WM_CHANGE_STATE IconicState.
  x11_client.py get (--title T | --root) PROPERTY
      Prints an atom-list property as names, any other format-32 property as numbers.
"""
import argparse
import re
import sys

from Xlib import X, Xatom, display
from Xlib.protocol import event


def find(d, title):
    for child in d.screen().root.query_tree().children:
        name = child.get_full_property(d.intern_atom("_NET_WM_NAME"), 0) or child.get_full_property(Xatom.WM_NAME, 0)
        if name is not None and name.value.decode() == title:
            return child
    sys.exit(f"no window titled {title}")


def send_to_root(d, window, type_name, data):
    root = d.screen().root
    message = event.ClientMessage(window=window, client_type=d.intern_atom(type_name), data=(32, (data + [0] * 5)[:5]))
    root.send_event(message, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)
    d.flush()


def run_window(d, args):
    screen = d.screen()
    m = re.fullmatch(r"(\d+)x(\d+)\+(\d+)\+(\d+)", args.geometry)
    w, h, x, y = (int(v) for v in m.groups())
    window = screen.root.create_window(x, y, w, h, 0, screen.root_depth, X.InputOutput, X.CopyFromParent,
                                       background_pixel=0x2E8B57,
                                       event_mask=X.StructureNotifyMask | X.ExposureMask | X.ButtonPressMask)
    window.set_wm_name(args.title)
    window.change_property(d.intern_atom("_NET_WM_NAME"), d.intern_atom("UTF8_STRING"), 8, args.title.encode())
    window.set_wm_class("x11-client", "X11Client")
    window.set_wm_normal_hints(flags=1, x=x, y=y)  # USPosition: the test chose it
    delete = d.intern_atom("WM_DELETE_WINDOW")
    window.set_wm_protocols([delete])
    if args.undecorated:
        hints = d.intern_atom("_MOTIF_WM_HINTS")
        window.change_property(hints, hints, 32, [2, 0, 0, 0, 0])  # MWM_HINTS_DECORATIONS, none
    if args.state:
        states = [d.intern_atom("_NET_WM_STATE_" + s.upper()) for s in args.state]
        window.change_property(d.intern_atom("_NET_WM_STATE"), Xatom.ATOM, 32, states)
    window.map()
    d.flush()
    print("mapped", flush=True)
    while True:
        e = d.next_event()
        if e.type == X.ConfigureNotify:
            print(f"configure {e.x} {e.y} {e.width} {e.height}", flush=True)
        elif e.type == X.ButtonPress and args.moveresize is not None:
            # EWMH: the client gives up its pointer grab, then asks the window manager.
            d.ungrab_pointer(X.CurrentTime)
            send_to_root(d, window, "_NET_WM_MOVERESIZE", [e.root_x, e.root_y, args.moveresize, e.detail, 1])
            print("moveresize", args.moveresize, flush=True)
        elif e.type == X.ClientMessage and e.data[1][0] == delete:
            print("deleted", flush=True)
            return


def main():
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    w = commands.add_parser("window")
    w.add_argument("--title", required=True)
    w.add_argument("--geometry", default="300x200+100+100")
    w.add_argument("--undecorated", action="store_true")
    w.add_argument("--state", action="append", default=[])
    w.add_argument("--moveresize", type=int)
    s = commands.add_parser("state")
    s.add_argument("--title", required=True)
    s.add_argument("action", choices=["remove", "add", "toggle"])
    s.add_argument("states", nargs="+")
    i = commands.add_parser("iconify")
    i.add_argument("--title", required=True)
    g = commands.add_parser("get")
    g.add_argument("--title")
    g.add_argument("--root", action="store_true")
    g.add_argument("property")
    args = parser.parse_args()
    d = display.Display()
    if args.command == "window":
        run_window(d, args)
    elif args.command == "state":
        states = [d.intern_atom("_NET_WM_STATE_" + s.upper()) for s in args.states] + [0]
        action = ["remove", "add", "toggle"].index(args.action)
        send_to_root(d, find(d, args.title), "_NET_WM_STATE", [action, states[0], states[1], 1])
    elif args.command == "iconify":
        send_to_root(d, find(d, args.title), "WM_CHANGE_STATE", [3])
    else:
        window = d.screen().root if args.root else find(d, args.title)
        value = window.get_full_property(d.intern_atom(args.property), X.AnyPropertyType)
        if value is None:
            print("none")
        elif value.property_type == Xatom.ATOM:
            print(" ".join(d.get_atom_name(a) for a in value.value))
        else:
            print(" ".join(str(v) for v in value.value))
    # A round trip before hanging up, as Xlib's XCloseDisplay does (XSync): python-xlib's
    # close() only flushes, and an X server that sees the hang-up (EPOLLHUP) before it has
    # read the last requests closes the client without reading them. Without it, about one
    # message in three to five sent just before exiting was never delivered.
    d.sync()
    d.close()


if __name__ == "__main__":
    main()
