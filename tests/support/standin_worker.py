"""The worker of a stand-in studio on the test sshd's host (bench_remote, RemoteRunTest): it
speaks the worker protocol (frames on fd 3) and, instead of capturing anything, writes one
artifact whose cache is as large as the script it is sent says (a line `cache_mib = N`), so that
artifact transfer can be tested and timed without a model that large. The caller writes it as
bin/precompile-studio-worker beside a copy of the real front end (whose `remote serve` is the
product's relay), with a shebang naming the studio's Python."""

import hashlib
import json
import os
import re
import struct
import sys


def send(obj):
    data = json.dumps(obj).encode()
    os.write(3, struct.pack("<I", len(data)))
    view = memoryview(data)
    while view:
        view = view[os.write(3, view) :]


def receive():
    head = b""
    while len(head) < 4:
        got = os.read(3, 4 - len(head))
        if not got:
            sys.exit(0)
        head += got
    size = struct.unpack("<I", head)[0]
    body = b""
    while len(body) < size:
        body += os.read(3, size - len(body))
    return json.loads(body)


send({"type": "hello", "python": "3", "torch": "stand-in", "pid": os.getpid(), "devices": []})
request = receive()
with open(request["script"]) as script:
    mib = int(re.search(r"cache_mib\s*=\s*(\d+)", script.read()).group(1))
out = request["out_dir"]
code = b"# python_code of a stand-in\n"
block = hashlib.sha256(b"seed").digest() * (1 << 15)  # 1 MiB, not all one byte
cache_sha = hashlib.sha256()
with open(os.path.join(out, "capture-0.cache"), "wb") as f:
    for i in range(mib):
        chunk = bytes([i & 255]) + block[1:]
        f.write(chunk)
        cache_sha.update(chunk)
with open(os.path.join(out, "capture-0.py"), "wb") as f:
    f.write(code)
artifact = {
    "python_code_sha256": hashlib.sha256(code).hexdigest(),
    "cache_sha256": cache_sha.hexdigest(),
    "python_code_bytes": len(code),
    "cache_bytes": mib << 20,
}
capture = {"name": "big", "status": "ok", "backend": "eager", "tracer": "make_fx", "artifact": artifact}
report = {"schema": 1, "script": request["script"], "status": "ok", "message": "1 capture ok", "captures": [capture]}
send({"type": "result", "report": report})
receive()
