"""Ctrl-C: what it looks like when it comes out of a solver library, and how it is kept.

Python raises ``KeyboardInterrupt``; PySAT's C module catches the SIGINT inside a solve and
raises its own ``pysolvers.error`` instead, and Exact a ``RuntimeError``: :func:`is_interrupt`
knows each library's form.  A search that releases the GIL is out of Python's reach, so the
extension counts SIGINTs in C (native/interrupt.c, :func:`sigint_count`) and a thread stops the
library through its own call (:func:`stop_at_ctrl_c`); where a raise would go wrong (imports,
forks, native batches) it is held until the block ends.  Standard library only: the command's
entry holds Ctrl-C with it before anything heavy is imported.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading


def is_pysat_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C caught inside a PySAT solver: its C module turns the pending
    KeyboardInterrupt into its own ``pysolvers.error("Caught keyboard interrupt")``, which the
    commands must treat as the interruption it is."""
    return type(exc).__module__ == "pysolvers" and "keyboard interrupt" in str(exc).lower()


EXACT_CTRL_C = "Program interrupted by user."
"""Exact's error (a ``RuntimeError``) for a SIGINT its own handler caught inside a solve."""


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C: ``KeyboardInterrupt``, or PySAT's or Exact's own error for it."""
    return (isinstance(exc, KeyboardInterrupt) or is_pysat_interrupt(exc)
            or (isinstance(exc, RuntimeError) and str(exc) == EXACT_CTRL_C))


def sigint_count() -> int | None:
    """The count of SIGINTs so far, kept by the extension's C handler put in front of Python's
    (native/interrupt.c); ``None`` where none is counted: without the extension, or where SIGINT
    is ignored or left to its default (a worker's or a child's, whose parent decides)."""
    if signal.getsignal(signal.SIGINT) in (signal.SIG_IGN, signal.SIG_DFL, None):
        return None
    try:
        from .. import _native
        return _native.watch_sigints()
    except (ImportError, AttributeError):
        return None


_command_sigints: int | None = None
"""The count of SIGINTs when the running command began (:func:`ctrl_c_ends_the_command`);
process-wide, as the signal and its count are."""


@contextlib.contextmanager
def ctrl_c_ends_the_command():
    """For the command line, where a Ctrl-C always ends the command: each run's search counts
    SIGINTs from the command's start (:func:`run_sigints`), not from its own, so that one Python
    lost between two runs (its KeyboardInterrupt raised in a ``__del__`` as the last run's Z3
    objects were freed) still stops the next search."""
    global _command_sigints
    outer, outer_hook = _command_sigints, sys.unraisablehook
    _command_sigints = sigint_count()

    def unraisable(info):   # that lost KeyboardInterrupt is counted: not a traceback on stderr
        if not isinstance(info.exc_value, KeyboardInterrupt):
            outer_hook(info)

    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        _command_sigints, sys.unraisablehook = outer, outer_hook


def _set_python_handler(handler) -> None:
    """``signal.signal(SIGINT, handler)``, and the extension's counter back in front of it:
    ``signal.signal`` takes it out of the operating system's table, and a Ctrl-C Python then
    lost went uncounted."""
    signal.signal(signal.SIGINT, handler)
    sigint_count()


def run_sigints() -> int | None:
    """The count a run measures its Ctrl-C from (:attr:`~.base.Deadline.sigints`): the
    command's start inside :func:`ctrl_c_ends_the_command`, else now."""
    now = sigint_count()
    return now if now is None or _command_sigints is None else _command_sigints


def ctrl_c_since(seen: int | None) -> bool:
    """Whether a SIGINT came since :func:`sigint_count` gave ``seen`` (never, where it gave
    ``None``: nothing counted)."""
    if seen is None:
        return False
    from .. import _native
    return _native.sigints() != seen


class _Deferred:
    hit = False


@contextlib.contextmanager
def deferred_interrupt():
    """Hold a Ctrl-C until the block ends (``.hit`` says whether one came).  For a native
    batch call: it stops at the Ctrl-C and returns the puzzles answered before it, which the
    ``KeyboardInterrupt`` raised at the first Python line after it would lose.  Only where
    Python's own handler is in place (the main thread; not in a child or worker, which ignores
    SIGINT)."""
    deferred = _Deferred()
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield deferred
        return

    def note(signum, frame):
        deferred.hit = True

    _set_python_handler(note)
    try:
        yield deferred
    finally:
        _set_python_handler(signal.default_int_handler)


@contextlib.contextmanager
def ctrl_c_kept():
    """Raise ``KeyboardInterrupt`` after the block if a Ctrl-C came during it, and never inside
    it.  For imports and forks, where a ``KeyboardInterrupt`` goes wrong: one raised inside
    an at-fork callback or an import lock's callback is printed as "Exception ignored" and
    lost (the command ran on); one an import takes for a missing library (OR-Tools' under
    CPMpy) leaves a half-made module; and one raised inside code run by ``exec`` (every
    dataclass a module defines) makes ``python -m`` die by SIGINT at exit, whatever code the
    command returned (CPython's flag for an unhandled KeyboardInterrupt, which ``exec`` sets).
    Python's raise is held (:func:`deferred_interrupt`) and the extension's count looked at
    (:func:`sigint_count`), for a Ctrl-C Python's handler did not see."""
    with deferred_interrupt() as held:
        seen = sigint_count()
        yield
    if held.hit or ctrl_c_since(seen):
        raise KeyboardInterrupt


CTRL_C_POLL = 0.02
"""Seconds between two looks of :func:`stop_at_ctrl_c`'s thread at the count of SIGINTs."""


class CtrlC:
    """What :func:`stop_at_ctrl_c` yields: whether it watches, and whether a Ctrl-C came."""
    watching = False
    pressed = False


@contextlib.contextmanager
def stop_at_ctrl_c(stop, since: int | None = None):
    """Call ``stop()`` (a library's own stop call: CP-SAT's ``stop_search``, Z3's
    ``Context.interrupt``) from a thread when a Ctrl-C comes during the block, and raise
    ``KeyboardInterrupt`` after it.  A library's search that releases the GIL is out of reach
    of Python's handler, which runs only between bytecodes (and whose KeyboardInterrupt is lost
    when it lands in a ``__del__``: Z3's models): the count of SIGINTs kept by the extension's C
    handler (:func:`sigint_count`) is looked at instead, from ``since`` (the run's or the
    command's start, :attr:`Deadline.sigints`: one that came before the search raises at once)
    or else from the block's start.  Yields a :class:`CtrlC`: ``watching`` is False where nothing is counted
    (the library keeps its own ways); ``pressed``, for a loop of many calls."""
    ctrl_c = CtrlC()
    seen = sigint_count()
    if seen is None:
        yield ctrl_c
        return
    if since is not None:
        seen = since
    if ctrl_c_since(seen):
        raise KeyboardInterrupt
    ctrl_c.watching = True
    done = threading.Event()

    def watch():
        while not done.wait(CTRL_C_POLL):
            if ctrl_c_since(seen):
                ctrl_c.pressed = True
                # at every look until the block ends: a stop call before the library's search
                # has begun (CP-SAT's) or between two of its calls (Z3's) does nothing
                stop()

    watcher = threading.Thread(target=watch, name="ctrl-c", daemon=True)
    try:
        watcher.start()
        yield ctrl_c
    finally:
        done.set()
        if watcher.ident is not None:
            watcher.join()
    if ctrl_c_since(seen):
        raise KeyboardInterrupt


def reinstate_sigint_handler() -> None:
    """Put Python's SIGINT handler back in the operating system's table.  OR-Tools (``cpsat``,
    ``cpmpy:ortools``) installs its own for a solve and leaves the default action behind it,
    so the next Ctrl-C between two solves killed the process outright: no "interrupted", the
    answers finished so far never printed.  Main thread only (where handlers are set)."""
    if threading.current_thread() is threading.main_thread():
        handler = signal.getsignal(signal.SIGINT)
        if handler is not None:   # None: not set from Python, nothing of ours to put back
            _set_python_handler(handler)
