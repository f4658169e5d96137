#!/usr/bin/env python3
"""An X11 drop target, or drag source, speaking XDND version 5, written with python-xlib,
for Lodestone's Xwayland drag-and-drop tests (XwaylandDragTests).

Usage: xdnd_client.py TITLE [--accept TARGET [--die-on-drop] | --source]   (DISPLAY selects the X server)

Maps a 200x150 window TITLE that is XdndAware. It accepts a drag offering TARGET (an atom
name, default STRING) with XdndActionCopy, refuses others, and on XdndDrop converts
XdndSelection to TARGET and answers XdndFinished (with --die-on-drop it exits instead).

Lines printed (flushed): 'mapped'; 'enter TYPE,TYPE,...' (the atoms' names, XdndTypeList
read when there are more than three); 'position X Y' (the first of each enter); 'leave';
'drop'; 'received TARGET LEN SHA256'.

With --source it is a drag source instead: a press in its window starts a drag of PAYLOAD
(below) offered as UTF8_STRING, STRING, TEXT and application/x-lodestone-test (four, so
in XdndTypeList); each motion finds the top-level window under the pointer and, if it is
XdndAware, sends it XdndEnter and XdndPosition; the release drops (XdndDrop) where the
last XdndStatus accepted, or leaves. It serves XdndSelection and prints 'payload LEN
SHA256', 'target WINDOW' (each new XdndAware window), 'status ACCEPTED ACTION' (the first
from each target, then each change), 'drop', 'leave', 'served TARGET', 'finished SUCCESS
ACTION'.
"""
import hashlib
import sys

from Xlib import X, display
from Xlib.protocol import event


def out(line):
    print(line, flush=True)


PAYLOAD = b"".join(b"dragged from X11, line %05d\n" % i for i in range(2000))
TYPES = ["UTF8_STRING", "STRING", "TEXT", "application/x-lodestone-test"]


def drag_source(d, title):
    atom = d.intern_atom
    screen = d.screen()
    root = screen.root
    window = root.create_window(0, 0, 200, 150, 0, screen.root_depth, background_pixel=0xcc6633,
                                event_mask=X.StructureNotifyMask | X.ButtonPressMask | X.ButtonReleaseMask | X.PointerMotionMask)
    window.set_wm_name(title)
    types = [atom(t) for t in TYPES]
    window.change_property(atom("XdndTypeList"), atom("ATOM"), 32, types)
    window.map()
    d.flush()
    out("payload %d %s" % (len(PAYLOAD), hashlib.sha256(PAYLOAD).hexdigest()))
    pressed, target, accepted = False, 0, False

    def message(to, kind, data):
        e = event.ClientMessage(window=to, client_type=atom(kind), data=(32, data))
        d.create_resource_object("window", to).send_event(e, event_mask=0)
        d.flush()

    while True:
        e = d.next_event()
        if e.type == X.MapNotify:
            out("mapped")
        elif e.type == X.ButtonPress:
            pressed = True
            window.set_selection_owner(atom("XdndSelection"), e.time)
            d.flush()
        elif e.type == X.MotionNotify and pressed:
            child = root.translate_coords(root, e.root_x, e.root_y).child
            child = getattr(child, "id", child) or 0
            aware = None
            if child and child != window.id:
                aware = d.create_resource_object("window", child).get_full_property(atom("XdndAware"), X.AnyPropertyType)
            under = child if aware else 0
            if under != target:
                if target:
                    message(target, "XdndLeave", [window.id, 0, 0, 0, 0])
                target, accepted = under, None
                if target:
                    out("target %d" % target)
                    message(target, "XdndEnter", [window.id, 5 << 24 | 1, types[0], types[1], types[2]])
            if target:
                message(target, "XdndPosition", [window.id, 0, e.root_x << 16 | e.root_y, e.time, atom("XdndActionCopy")])
        elif e.type == X.ButtonRelease and pressed:
            pressed = False
            if target and accepted:
                out("drop")
                message(target, "XdndDrop", [window.id, 0, e.time, 0, 0])
            elif target:
                out("leave")
                message(target, "XdndLeave", [window.id, 0, 0, 0, 0])
        elif e.type == X.ClientMessage:
            kind, data = d.get_atom_name(e.client_type), e.data[1]
            if kind == "XdndStatus" and data[0] == target:
                now = data[1] & 1 != 0
                if now != accepted:
                    out("status %d %s" % (now, d.get_atom_name(data[4]) if data[4] else "none"))
                accepted = now
            elif kind == "XdndFinished":
                out("finished %d %s" % (data[1] & 1, d.get_atom_name(data[2]) if data[2] else "none"))
        elif e.type == X.SelectionRequest:
            name = d.get_atom_name(e.target)
            requestor = e.requestor
            if name == "TARGETS":
                requestor.change_property(e.property, atom("ATOM"), 32, [atom("TARGETS")] + types)
            else:
                requestor.change_property(e.property, e.target, 8, PAYLOAD)
                out("served " + name)
            notify = event.SelectionNotify(time=e.time, requestor=requestor.id, selection=e.selection, target=e.target, property=e.property)
            requestor.send_event(notify, event_mask=0)
            d.flush()


def main():
    title = sys.argv[1]
    wanted = sys.argv[sys.argv.index("--accept") + 1] if "--accept" in sys.argv else "STRING"
    d = display.Display()
    if "--source" in sys.argv:
        return drag_source(d, title)
    atom = d.intern_atom
    screen = d.screen()
    window = screen.root.create_window(0, 0, 200, 150, 0, screen.root_depth, background_pixel=0x3366cc,
                                       event_mask=X.StructureNotifyMask | X.PropertyChangeMask)
    window.set_wm_name(title)
    window.change_property(atom("XdndAware"), atom("ATOM"), 32, [5])
    window.map()
    d.flush()
    source, types, positioned, data_property = 0, [], False, atom("LODESTONE_XDND")
    while True:
        e = d.next_event()
        if e.type == X.MapNotify:
            out("mapped")
        elif e.type == X.ClientMessage:
            kind, data = d.get_atom_name(e.client_type), e.data[1]
            if kind == "XdndEnter":
                source = data[0]
                if data[1] & 1:
                    listed = d.create_resource_object("window", source).get_full_property(atom("XdndTypeList"), X.AnyPropertyType)
                    types = [d.get_atom_name(a) for a in (listed.value if listed else [])]
                else:
                    types = [d.get_atom_name(a) for a in data[2:5] if a]
                positioned = False
                out("enter " + ",".join(types))
            elif kind == "XdndPosition":
                if not positioned:
                    out("position %d %d" % (data[2] >> 16, data[2] & 0xffff))
                    positioned = True
                accepts = wanted in types
                status = event.ClientMessage(window=source, client_type=atom("XdndStatus"),
                                             data=(32, [window.id, 1 if accepts else 0, 0, 0, atom("XdndActionCopy") if accepts else 0]))
                d.create_resource_object("window", source).send_event(status, event_mask=0)
                d.flush()
            elif kind == "XdndLeave":
                out("leave")
            elif kind == "XdndDrop":
                out("drop")
                if "--die-on-drop" in sys.argv:
                    sys.exit(0)
                window.convert_selection(atom("XdndSelection"), atom(wanted), data_property, data[2])
                d.flush()
        elif e.type == X.SelectionNotify and e.property != X.NONE:
            value = window.get_full_property(data_property, X.AnyPropertyType, sizehint=1 << 24)
            data = bytes(value.value) if value else b""
            out("received %s %d %s" % (wanted, len(data), hashlib.sha256(data).hexdigest()))
            finished = event.ClientMessage(window=source, client_type=atom("XdndFinished"),
                                           data=(32, [window.id, 1, atom("XdndActionCopy"), 0, 0]))
            d.create_resource_object("window", source).send_event(finished, event_mask=0)
            d.flush()
        elif e.type == X.SelectionNotify:
            out("received nothing")


if __name__ == "__main__":
    main()
