#!/usr/bin/python3
"""The text fields of one app over AT-SPI, as JSON on stdout: ScribbleTests reads back what
the pen wrote into real apps with it, and finds where their fields are.

    atspi_text.py PID

Each field (roles text, entry, password text, document text, editbar, terminal): its role,
name, states ('focused', 'editable', 'showing', 'visible', 'sensitive', 'enabled'), its text, its
selection (start and end offsets, or null), its first and last characters' extents (null without
text), its extents in the coordinates the
toolkit reports (GTK 4 and Qt on Wayland: the window's) and its frame's."""
import json
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

ROLES = {"text", "entry", "password text", "document text", "editbar", "terminal", "document web"}


def main():
    pid = int(sys.argv[1])
    desktop = Atspi.get_desktop(0)
    out = []
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None or app.get_process_id() != pid:
            continue
        for f in range(app.get_child_count()):
            frame = app.get_child_at_index(f)
            if frame is None:
                continue
            try:
                fe = frame.get_extents(Atspi.CoordType.WINDOW)
            except Exception:
                continue
            stack, seen = [frame], 0
            while stack and seen < 20000:
                node = stack.pop()
                seen += 1
                try:
                    role = node.get_role_name()
                    count = node.get_child_count()
                except Exception:
                    continue
                if role in ROLES:
                    s = node.get_state_set()
                    states = [n for st, n in ((Atspi.StateType.FOCUSED, "focused"), (Atspi.StateType.EDITABLE, "editable"),
                                              (Atspi.StateType.SHOWING, "showing"), (Atspi.StateType.VISIBLE, "visible"),
                                              (Atspi.StateType.SENSITIVE, "sensitive"), (Atspi.StateType.ENABLED, "enabled")) if s.contains(st)]
                    text, selection, chars = "", None, None
                    try:
                        t = node.get_text_iface()
                        if t is not None:
                            n = t.get_character_count()
                            text = t.get_text(0, min(n, 2000))
                            if t.get_n_selections() > 0:
                                r = t.get_selection(0)
                                selection = [r.start_offset, r.end_offset]
                            if n > 0:
                                boxes = [t.get_character_extents(k, Atspi.CoordType.WINDOW) for k in (0, n - 1)]
                                chars = [[b.x, b.y, b.width, b.height] for b in boxes]
                    except Exception:
                        pass
                    e = node.get_extents(Atspi.CoordType.WINDOW)
                    out.append({"role": role, "name": node.get_name() or "", "states": states, "text": text,
                                "selection": selection, "chars": chars,
                                "extents": [e.x, e.y, e.width, e.height], "frame": [fe.x, fe.y, fe.width, fe.height],
                                "frameName": frame.get_name() or ""})
                for k in reversed(range(min(count, 2000))):
                    try:
                        c = node.get_child_at_index(k)
                    except Exception:
                        c = None
                    if c is not None:
                        stack.append(c)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
