"""A compromised host's studio, for HostileRemoteTest: installed as bin/precompile-studio of a
--remote-studio folder behind the suite's real sshd, it answers `remote serve` as the product's
relay would, then says what an attacker controlling that host would.

    hostile_host.py PROTOCOL SCENARIO

Every scenario says hello with escape sequences and markup in each field, reads the front end's
script and run request, and then:
  liar       completes a run whose every text holds escape sequences, claims to be another
             machine (a `worker` object of its own), names paths outside its folder, and sends
             artifact files that match the hashes its report records (the run is stored)
  mismatch   the same, but the files it sends are not the ones its report hashes
  outside    announces an artifact named ../../escaped.py
  oversized  announces an artifact of 1 TiB
  endless    announces a 1 KiB artifact and sends 4 MiB
  garbage    a frame that is not JSON
  flood      a frame header announcing 4 GiB
"""

import hashlib
import json
import os
import struct
import sys

ESC = "\x1b]0;owned\x07\x1b[2J\x1b[31m<b>bold</b>\u202e"

protocol, scenario = int(sys.argv[1]), sys.argv[2]
out = sys.stdout.buffer


def raw(data: bytes) -> None:
    out.write(struct.pack("<I", len(data)) + data)
    out.flush()


def send(obj) -> None:
    raw(json.dumps(obj).encode())


def receive():
    head = sys.stdin.buffer.read(4)
    if len(head) < 4:
        sys.exit(0)
    body = sys.stdin.buffer.read(struct.unpack("<I", head)[0])
    return body


FOLDER = "/tmp/hostile-host-folder"
send({"type": "remote", "protocol": protocol, "studio": "9.9" + ESC, "hostname": "box" + ESC, "folder": FOLDER})
send({"type": "hello", "python": "3.11" + ESC, "torch": "2.15.0" + ESC, "libtorch": ESC, "pid": 1, "devices": []})

# The front end sends the script's name, its text, then the run request.
request = None
while request is None:
    message = json.loads(receive())
    if message.get("type") == "script":
        receive()  # the script's text
    elif message.get("type") == "run":
        request = message

send({"type": "stage", "stage": "script", "capture": ""})
send({"type": "stage", "stage": "capture", "capture": "cap" + ESC})
send({"type": "output", "stream": 1})
raw(("printed " + ESC + "\n").encode())

if scenario == "outside":
    send({"type": "file", "name": "../../escaped.py", "size": 4})
    send({"type": "chunk"})
    raw(b"evil")
elif scenario == "oversized":
    send({"type": "file", "name": "capture-0.cache", "size": 1 << 40})
    send({"type": "chunk"})
    raw(b"x" * 1024)
elif scenario == "endless":
    send({"type": "file", "name": "capture-0.cache", "size": 1024})
    for _ in range(64):  # far more than announced, and more than one chunk
        send({"type": "chunk"})
        raw(b"x" * 65536)
elif scenario == "garbage":
    raw(b"\x00\xffnot json at all" + ESC.encode())
elif scenario == "flood":
    out.write(struct.pack("<I", 0xFFFFFFFF) + b"{" * 65536)
    out.flush()
elif scenario in ("liar", "mismatch"):
    code, cache = b"# python_code of a hostile host\n", b"cache bytes" * 100
    artifact = {
        "python_code_sha256": hashlib.sha256(code).hexdigest(),
        "cache_sha256": hashlib.sha256(cache).hexdigest(),
        "python_code_bytes": len(code),
        "cache_bytes": len(cache),
    }
    if scenario == "mismatch":
        cache = b"other bytes"
    for name, data in (("capture-0.py", code), ("capture-0.cache", cache)):
        send({"type": "file", "name": name, "size": len(data)})
        send({"type": "chunk"})
        raw(data)
    capture = {
        "name": "cap" + ESC,
        "status": "ok",
        "backend": "eager" + ESC,
        "tracer": "make_fx",
        "artifact": artifact,
        "warnings": ["warned " + ESC],
    }
    report = {
        "schema": 1,
        "script": "/etc/passwd",
        "status": "ok",
        "message": "1 capture ok" + ESC,
        "captures": [capture],
        "worker": {"host": "localhost", "python": ESC, "torch": ESC},
        "stored": True,
        "run_id": 424242,
    }
    send({"type": "result", "report": report})
else:
    raise SystemExit(f"no scenario {scenario}")

send({"type": "exited", "exited": True, "code": 0, "signaled": False, "signal": 0, "peak_kib": 1})
os.close(1)
receive()
