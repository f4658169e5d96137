#!/usr/bin/env python3
"""A fake Scribble recogniser for ScribbleTests, chosen with LODESTONE_SCRIBBLE_RECOGNIZER.

It speaks the helper's protocol (docs/scribble.md): each `recognize ID LANGS STROKES` line is
logged ('request ID STROKES-COUNT') to $SCRIBBLE_FAKE_LOG, and answered as the file
$SCRIBBLE_FAKE_MODE says at that moment:
  answer TEXT   'text ID TEXT'
  crash         exits at once, answering nothing
  hang          answers nothing and never reads again
  garbage       a line that is not an answer, then bytes that are not UTF-8
  control       'text ID' with a newline-like control character in the text"""
import os
import sys
import time


def log(line):
    with open(os.environ["SCRIBBLE_FAKE_LOG"], "a") as f:
        f.write(line + "\n")


def main():
    log("started %d" % os.getpid())
    for line in sys.stdin:
        words = line.rstrip("\n").split(" ", 3)
        request_id = words[1]
        strokes = words[3].split(";") if len(words) > 3 and words[3] else []
        log("request %s %d %s" % (request_id, len(strokes), words[2]))
        mode = open(os.environ["SCRIBBLE_FAKE_MODE"]).read().strip()
        if mode.startswith("answer "):
            sys.stdout.write("text %s %s\n" % (request_id, mode[len("answer "):]))
        elif mode == "crash":
            os._exit(3)
        elif mode == "hang":
            while True:
                time.sleep(60)
        elif mode == "garbage":
            sys.stdout.buffer.write(b"\xff\xfe garbage \x00\n")
        elif mode == "control":
            sys.stdout.write("text %s a\x1bb\n" % request_id)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
