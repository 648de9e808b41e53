"""Forked worker processes die with the process that forked them, and never hold what it holds.

The indexer forks parser and resolver processes. Two things went wrong when the parent was
killed (``kill -9``): the workers lived on (parent pid 1, blocked on their task pipe), and
because a fork copies every file descriptor they kept the parent's writer lock (an ``flock``
belongs to the open file, not to the process) and its PostgreSQL socket (the server then kept
the dead run's session, its transaction and its advisory lock). So, in every forked child:

* descriptors registered with :func:`parent_only` (writer locks, database sockets) are pointed
  at ``/dev/null`` at once: the lock and the session stay the parent's alone and end with it.
  ``dup2`` rather than ``close`` so the number stays taken and no later ``open`` in the child
  can land on a descriptor some inherited object still thinks is its socket;
* on Linux the kernel sends the child SIGKILL when its parent dies (``PR_SET_PDEATHSIG``);
  elsewhere, or if ``prctl`` is unavailable, a watchdog thread reads a pipe whose write end
  only the parent holds and exits when it reads end-of-file.

Registered once, for every ``os.fork`` in the process (multiprocessing's "fork" start method
included); exec'd children (``subprocess``) inherit none of these descriptors anyway (PEP 446).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading

_PR_SET_PDEATHSIG = 1
_held: set[int] = set()  # descriptors a forked child must not keep
_guard = threading.Lock()
_state: dict[str, object] = {}  # parent pid, forking thread, watchdog pipe (set before fork)


def parent_only(fd: int) -> None:
    """Mark ``fd`` as this process's alone: a forked child drops it on start."""
    with _guard:
        _held.add(fd)


def release(fd: int) -> None:
    """Forget ``fd`` (call before closing it)."""
    with _guard:
        _held.discard(fd)


def _watchdog_pipe() -> int:
    """The read end of the watchdog pipe, created once; its write end stays in this process."""
    read = _state.get("pipe_read")
    if read is None or _state.get("pipe_owner") != os.getpid():
        r, w = os.pipe()  # non-inheritable across exec (PEP 446): only forks share it
        _state.update(pipe_read=r, pipe_write=w, pipe_owner=os.getpid())
        read = r
    return int(read)  # type: ignore[call-overload]


def _before_fork() -> None:
    _state["parent"] = os.getpid()
    # PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process: use it only
    # for forks from the main thread (the indexer's pools), the watchdog otherwise
    _state["from_main"] = threading.current_thread() is threading.main_thread()
    _watchdog_pipe()


def _after_fork_in_child() -> None:
    _drop_inherited()
    parent = int(_state.get("parent", 0))  # type: ignore[call-overload]
    if not (_state.get("from_main") and _set_parent_death_signal()):
        _start_watchdog()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)


def _drop_inherited() -> None:
    with _guard:
        held = list(_held)
        _held.clear()
    if held:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in held:
            with contextlib.suppress(OSError):
                os.dup2(null, fd)
        os.close(null)
    write = _state.get("pipe_write")
    if write is not None:
        with contextlib.suppress(OSError):
            os.close(int(write))  # type: ignore[call-overload]
        _state["pipe_write"] = None


def _set_parent_death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _start_watchdog() -> None:
    read = _state.get("pipe_read")
    if read is None:
        return

    def watch() -> None:
        try:
            while os.read(int(read), 1):  # type: ignore[call-overload]
                pass
        except OSError:
            pass
        os._exit(1)  # end-of-file: every holder of the write end, the parent, is gone

    threading.Thread(target=watch, name="astrag-parent-watchdog", daemon=True).start()


os.register_at_fork(before=_before_fork, after_in_child=_after_fork_in_child)
