"""The worker pool: a warm worker that never runs a script itself but forks one worker per run
(docs/design/worker-pool.md). Opt-in: PRECOMPILE_STUDIO_WORKER_POOL names the pool's folder.

``serve`` is called by the C++ worker (``--pool SOCKET``) once torch and the capture machinery are
imported. It returns only in a forked child, with the run's channel descriptor, after the child
has become what a freshly started worker would be: the front end's stdin, stdout, stderr and
channel, its environment, its working folder, a process group of its own. The pool process
itself never returns: it ends with ``os._exit`` once idle.

A request on the socket: one message carrying four descriptors (stdin, stdout, stderr, channel)
as SCM_RIGHTS and a payload of NUL-terminated strings: the working folder, then the environment
(``NAME=value``). The answers are lines of JSON: ``{"pid": N}`` once forked (or ``{"refused":
why}``), then ``{"exit": code}`` or ``{"signal": n}`` with ``"maxrss"`` (KiB) once the worker is
reaped. A connection that ends before its worker does means the front end is gone: the worker's
process group is killed, as PR_SET_PDEATHSIG does for a worker the front end started itself.
"""
from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import socket
import struct
import sys
import tempfile
import time

_HEADER = struct.Struct("<I")
_MAX_REQUEST = 4 << 20
_FDS = 4  # stdin, stdout, stderr, channel
_PR_SET_PDEATHSIG = 1
_REQUEST_SECONDS = 10


class _Refused(Exception):
    """A request the pool does not serve; the front end starts its worker itself."""


def _read_request(conn: socket.socket) -> tuple[list[int], bytes]:
    # One deadline for the whole request: a client sending a byte at a time holds the pool no
    # longer than this.
    deadline = time.monotonic() + _REQUEST_SECONDS
    conn.settimeout(_REQUEST_SECONDS)
    data, fds, _flags, _addr = socket.recv_fds(conn, 64 * 1024, _FDS)

    def recv(size: int) -> bytes:
        left = deadline - time.monotonic()
        if left <= 0:
            raise _Refused("the request took too long")
        conn.settimeout(left)
        return conn.recv(size)

    try:
        if len(fds) != _FDS:
            raise _Refused(f"{len(fds)} descriptors, not {_FDS}")
        while len(data) < _HEADER.size:
            more = recv(_HEADER.size - len(data))
            if not more:
                raise _Refused("the request ended early")
            data += more
        (size,) = _HEADER.unpack_from(data)
        if size > _MAX_REQUEST:
            raise _Refused(f"a request of {size} bytes")
        body = data[_HEADER.size :]
        while len(body) < size:
            more = recv(min(1 << 16, size - len(body)))
            if not more:
                raise _Refused("the request ended early")
            body += more
        return fds, body[:size]
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise


def _become_worker(
    fds: list[int], body: bytes, sockets: list[socket.socket], pool_fds: list[int], pool_pid: int
) -> int:
    """In the forked child: the process a front end would have started. Returns the channel."""
    os.setpgid(0, 0)
    with contextlib.suppress(Exception):  # the worker ends with the pool, as with its front end
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != pool_pid:  # the pool died before the line above
        os._exit(1)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for sock in sockets:  # detached first: no socket object may close a reused number later
        with contextlib.suppress(OSError):
            os.close(sock.detach())
    for fd in pool_fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
        os.close(fd)
    parts = body.split(b"\0")
    cwd, environment = parts[0], [p for p in parts[1:] if p]
    os.environ.clear()  # unsetenv each, so the C library's environment is the request's too
    for entry in environment:
        name, sep, value = entry.partition(b"=")
        if sep and name:
            os.environb[name] = value
    os.chdir(cwd)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
    numpy = sys.modules.get("numpy")
    if numpy is not None:  # a fresh worker's numpy seeds itself from the OS at import
        with contextlib.suppress(Exception):
            numpy.random.seed()
    return fds[3]


def _flush() -> None:
    """Nothing buffered before a fork is written twice: Python's streams and the C library's."""
    sys.stdout.flush()
    sys.stderr.flush()
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).fflush(None)


def _send(conn: socket.socket, message: dict) -> None:
    with contextlib.suppress(OSError):
        conn.sendall((json.dumps(message) + "\n").encode())


def serve(path: str, idle_seconds: float, lock: int) -> int:
    """Serves forks on the Unix socket ``path`` until idle for ``idle_seconds``; returns in a
    forked child only (its channel descriptor). ``lock``: ``path.lock``, open and flock()ed by the
    host before the interpreter started (so no second pool of the key imports torch for nothing)."""
    os.ftruncate(lock, 0)
    os.write(lock, f"{os.getpid()}\n".encode())  # which process is this key's pool
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old_umask = os.umask(0o077)
    try:
        listener.bind(path)
    finally:
        os.umask(old_umask)
    listener.listen(16)
    bound = os.stat(path).st_ino
    wake_r, wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_w)
    workers: dict[int, socket.socket] = {}  # pid -> its front end's connection
    last_busy = time.monotonic()
    _flush()

    accepting = True
    while accepting or workers:
        if workers:
            last_busy = time.monotonic()
        elif time.monotonic() - last_busy > idle_seconds:
            break
        if accepting and not _still_named(path, bound):
            # Another pool took the name, or the folder went: no new requests, but the workers
            # running go on to their end (they would die with the pool).
            accepting = False
            listener.close()
        watched = {wake_r: None, **{conn.fileno(): conn for conn in workers.values()}}
        if accepting:
            watched[listener.fileno()] = listener
        poller = select.poll()
        for fd in watched:
            poller.register(fd, select.POLLIN)
        for fd, _events in poller.poll(1000):
            if accepting and fd == listener.fileno():
                child = _accept(listener, workers, [lock, wake_r, wake_w])
                if child is not None:
                    return child  # in the fork only
            elif fd == wake_r:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_r, 512):
                        pass
            else:
                # The front end of a worker closed its end: it is gone, so is the worker.
                for pid, conn in list(workers.items()):
                    if conn.fileno() == fd and not _drain(conn):
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(pid, signal.SIGKILL)
        _reap(workers)

    if accepting and _still_named(path, bound):
        with contextlib.suppress(OSError):
            os.unlink(path)
    os._exit(0)


def _still_named(path: str, bound: int) -> bool:
    """Whether ``path`` is still this pool's socket."""
    try:
        return os.stat(path).st_ino == bound
    except OSError:
        return False


def _drain(conn: socket.socket) -> bool:
    """Reads what a front end sent after its request (nothing is expected); False at its end."""
    try:
        return bool(conn.recv(4096, socket.MSG_DONTWAIT))
    except BlockingIOError:
        return True
    except OSError:
        return False


def _accept(listener: socket.socket, workers: dict[int, socket.socket], pool_fds: list[int]) -> int | None:
    """Serves one request. Nothing a request or the system does ends the pool (every pooled
    worker of the key would die with it): a failure is a refusal, and the front end starts its
    worker itself."""
    try:
        conn, _ = listener.accept()
    except OSError:
        return None
    try:
        creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", creds)
        if uid != os.getuid():
            raise _Refused(f"a request from user {uid}")
        fds, body = _read_request(conn)
    except (_Refused, OSError) as e:
        _send(conn, {"refused": str(e)})
        conn.close()
        return None
    _flush()
    pool_pid = os.getpid()
    try:
        pid = os.fork()
    except OSError as e:
        for fd in fds:
            os.close(fd)
        _send(conn, {"refused": f"fork: {e.strerror}"})
        conn.close()
        return None
    if pid == 0:
        try:
            return _become_worker(fds, body, [*workers.values(), conn, listener], pool_fds, pool_pid)
        except BaseException:  # noqa: BLE001 - a child that cannot become a worker says nothing more
            os._exit(120)
    with contextlib.suppress(OSError):  # as the child does: no kill of its group may miss it
        os.setpgid(pid, pid)
    for fd in fds:
        os.close(fd)
    conn.setblocking(True)
    _send(conn, {"pid": pid})
    workers[pid] = conn
    return None


def _reap(workers: dict[int, socket.socket]) -> None:
    while workers:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        conn = workers.pop(pid, None)
        if conn is None:
            continue
        # What the worker started goes with it, as when its front end reaps it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        ended: dict = {"maxrss": usage.ru_maxrss}
        if os.WIFSIGNALED(status):
            ended["signal"] = os.WTERMSIG(status)
        else:
            ended["exit"] = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 255
        _send(conn, ended)
        conn.close()
