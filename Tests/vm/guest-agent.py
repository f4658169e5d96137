#!/usr/bin/env python3
"""The guest's half of make test-tty: one JSON request a line on the virtio serial port,
one JSON answer a line. {"run": "shell command", "timeout": s} answers
{"status": n, "out": "..."}; {"spawn": "shell command", "log": path} starts it in the
background, its own session, output to the log, and answers {"pid": n}; {"wait": pid,
"timeout": s} answers {"status": n} (null while it still runs). As PID 1 it also reaps
every orphan."""
import json, os, subprocess, sys, time

port = os.open(sys.argv[1], os.O_RDWR)
children = {}
statuses = {}


def reap():
    while True:
        try:
            pid, raw = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        statuses[pid] = os.waitstatus_to_exitcode(raw)
        children.pop(pid, None)


def answer(request):
    if "run" in request:
        try:
            done = subprocess.run(request["run"], shell=True, capture_output=True, text=True,
                                  timeout=request.get("timeout", 30))
            return {"status": done.returncode, "out": done.stdout + done.stderr}
        except subprocess.TimeoutExpired as e:
            return {"status": None, "out": "timed out"}
    if "spawn" in request:
        log = open(request.get("log", "/dev/null"), "ab")
        child = subprocess.Popen(request["spawn"], shell=True, stdout=log, stderr=log,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        children[child.pid] = child
        return {"pid": child.pid}
    if "wait" in request:
        pid, deadline = request["wait"], time.monotonic() + request.get("timeout", 0)
        while True:
            reap()
            if pid in statuses or time.monotonic() >= deadline:
                return {"status": statuses.get(pid)}
            time.sleep(0.05)
    return {"error": "unknown request"}


buffer = b""
while True:
    chunk = os.read(port, 4096)
    if not chunk:
        time.sleep(0.05)
        continue
    buffer += chunk
    while b"\n" in buffer:
        line, buffer = buffer.split(b"\n", 1)
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        except Exception as e:  # a bad request must not end PID 1
            reply = {"error": repr(e)}
        reap()
        os.write(port, json.dumps(reply).encode() + b"\n")
