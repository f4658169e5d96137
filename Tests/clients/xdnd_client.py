#!/usr/bin/env python3
"""An X11 drop target speaking XDND version 5, written with python-xlib, for Lodestone's
Xwayland drag-and-drop tests (XwaylandDragTests).

Usage: xdnd_client.py TITLE [--accept TARGET]   (DISPLAY selects the X server)

Maps a 200x150 window TITLE that is XdndAware. It accepts a drag offering TARGET (an atom
name, default STRING) with XdndActionCopy, refuses others, and on XdndDrop converts
XdndSelection to TARGET and answers XdndFinished.

Lines printed (flushed): 'mapped'; 'enter TYPE,TYPE,...' (the atoms' names, XdndTypeList
read when there are more than three); 'position X Y' (the first of each enter); 'leave';
'drop'; 'received TARGET LEN SHA256'.
"""
import hashlib
import sys

from Xlib import X, display
from Xlib.protocol import event


def out(line):
    print(line, flush=True)


def main():
    title = sys.argv[1]
    wanted = sys.argv[sys.argv.index("--accept") + 1] if "--accept" in sys.argv else "STRING"
    d = display.Display()
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
