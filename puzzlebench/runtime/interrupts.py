"""Ctrl-C: what it looks like when it comes out of a solver library, and how it is kept.

Python raises ``KeyboardInterrupt``; PySAT's C module catches the SIGINT inside a solve and
raises its own ``pysolvers.error`` instead, and Exact a ``RuntimeError``: :func:`is_interrupt`
knows each library's form.  A search that releases the GIL is out of Python's reach, so the
extension counts SIGINTs in C (native/interrupt.c, :func:`sigint_count`) and one thread a batch
stops the library through its own call (:class:`CtrlCWatch`, :func:`stop_at_ctrl_c`); where a
raise would go wrong (imports, forks, native batches) it is held until the block ends.  Standard
library only: the command's entry holds Ctrl-C with it before anything heavy is imported.
"""

from __future__ import annotations

import _signal
import contextlib
import functools
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
    """Whether ``exc`` is a Ctrl-C: ``KeyboardInterrupt``, PySAT's or Exact's own error for it,
    or the ``RuntimeError`` Python 3.11 makes of one raised while a class is made ("Error
    calling __set_name__", its cause the ``KeyboardInterrupt``: a module imported lazily, as
    NumPy's ``finfo`` and its cached properties)."""
    return (isinstance(exc, KeyboardInterrupt) or is_pysat_interrupt(exc)
            or (isinstance(exc, RuntimeError)
                and (str(exc) == EXACT_CTRL_C or isinstance(exc.__cause__, KeyboardInterrupt))))


def _python_sigint_handler():
    """Python's SIGINT handler, as ``signal.getsignal`` gives it but for the enum member it
    makes of ``SIG_DFL`` and ``SIG_IGN`` (here the numbers): its lookup of that member fails for
    a function, and cost 5 us, more than the rest of a watched search's set-up."""
    return _signal.getsignal(signal.SIGINT)


@functools.cache
def _extension():
    """The C extension, ``None`` without it (imported once: a look at the count is a call)."""
    try:
        from .. import _native
    except ImportError:
        return None
    return _native if hasattr(_native, "watch_sigints") else None


def ctrl_c_left_to_the_parent() -> bool:
    """Whether this process ignores SIGINT, as a child or a worker does
    (:func:`~.child.leave_ctrl_c_to_the_parent`): a Ctrl-C is its parent's to act on, by ending
    it, and nothing here need look for one."""
    return _python_sigint_handler() == signal.SIG_IGN


def sigint_count() -> int | None:
    """The count of SIGINTs so far, kept by the extension's C handler put in front of Python's
    (native/interrupt.c); ``None`` where none is counted: without the extension, or where SIGINT
    is ignored or left to its default (a worker's or a child's, whose parent decides)."""
    native = _extension()
    if native is None or not callable(_python_sigint_handler()):
        return None
    return native.watch_sigints()


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
    _signal.signal(signal.SIGINT, handler)
    sigint_count()


def run_sigints() -> int | None:
    """The count a run measures its Ctrl-C from (:attr:`~.limits.Deadline.sigints`): the
    command's start inside :func:`ctrl_c_ends_the_command`, else now."""
    now = sigint_count()
    return now if now is None or _command_sigints is None else _command_sigints


def ctrl_c_since(seen: int | None) -> bool:
    """Whether a SIGINT came since :func:`sigint_count` gave ``seen`` (never, where it gave
    ``None``: nothing counted)."""
    if seen is None:
        return False
    return _extension().sigints() != seen


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
            or _python_sigint_handler() is not signal.default_int_handler):
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
"""Seconds between two looks of a :class:`CtrlCWatch` at the count of SIGINTs."""


class CtrlC:
    """What :func:`stop_at_ctrl_c` yields: whether it watches (``seen``, the count it watches
    from: ``None`` where nothing is counted), and whether a Ctrl-C came since."""

    def __init__(self, seen: int | None = None):
        self.seen = seen

    @property
    def watching(self) -> bool:
        return self.seen is not None

    @property
    def pressed(self) -> bool:
        return ctrl_c_since(self.seen)


class CtrlCWatch:
    """One thread that calls the stop call of the search running now when a Ctrl-C comes, for
    every search of a batch or a command: :func:`stop_at_ctrl_c` arms it with a search's stop
    call and disarms it after.  A thread a search cost more than the search itself (a 9x9 by
    PySAT: its start and its join waited on locks for 0.23 s of 0.72 s a profile spent); armed,
    a watch costs a lock taken twice.  Its thread starts at the first search armed, looks at
    the count every :data:`CTRL_C_POLL` seconds, and ends with :meth:`close` (or the ``with``
    block).  A stop call never reaches a search after it was disarmed: both hold one lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._armed: tuple | None = None   # (stop, the count it watches from)
        self._closed = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "CtrlCWatch":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def arm(self, stop, seen: int) -> None:
        with self._lock:
            self._armed = (stop, seen)
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="ctrl-c", daemon=True)
            # started with SIGINT blocked, which it keeps: the kernel gives a process's signal
            # to any thread that does not block it, and a library's handler run here (PySAT's,
            # which jumps out of a solve) would jump onto the main thread's stack
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                self._thread.start()
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def disarm(self) -> None:
        with self._lock:
            self._armed = None

    def _watch(self) -> None:
        native = _extension()
        while not self._closed.wait(CTRL_C_POLL):
            with self._lock:
                # no name bound to the armed search here: a reference this thread dropped
                # after the search was disarmed could be the last one, its library's objects
                # then freed here while the main thread used the library (Z3, whose reference
                # counts are not thread-safe: SIGSEGV within seconds)
                if self._armed is not None and native.sigints() != self._armed[1]:
                    # at every look until the search is disarmed: a stop call before the
                    # library's search has begun (CP-SAT's) or between two of its calls (Z3's)
                    # does nothing
                    self._armed[0]()

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join()


@contextlib.contextmanager
def stop_at_ctrl_c(stop, since: int | None = None, watch: CtrlCWatch | None = None):
    """Call ``stop()`` (a library's own stop call: CP-SAT's ``stop_search``, Z3's
    ``Context.interrupt``) when a Ctrl-C comes during the block, from ``watch`` (the batch's
    :class:`CtrlCWatch`; ``None``: one of the block's own), and raise ``KeyboardInterrupt``
    after it.  A library's search that releases the GIL is out of reach of Python's handler,
    which runs only between bytecodes (and whose KeyboardInterrupt is lost when it lands in a
    ``__del__``: Z3's models): the count of SIGINTs kept by the extension's C handler
    (:func:`sigint_count`) is looked at instead, from ``since`` (the run's or the command's
    start, :attr:`Deadline.sigints`: one that came before the search raises at once) or else
    from the block's start.  Yields a :class:`CtrlC`: ``watching`` is False where nothing is
    counted (the library keeps its own ways); ``pressed``, for a loop of many calls.
    ``stop`` ``None``: nothing to call, and no thread: a loop of calls that take the SIGINT
    themselves (PySAT's plain ``solve``) looks at ``pressed`` between two."""
    seen = sigint_count()
    if seen is None:
        yield CtrlC()
        return
    if since is not None:
        seen = since
    if ctrl_c_since(seen):
        raise KeyboardInterrupt
    if stop is None:
        yield CtrlC(seen)
    else:
        own = watch is None
        if own:
            watch = CtrlCWatch()
        watch.arm(stop, seen)
        try:
            yield CtrlC(seen)
        finally:
            watch.disarm()
            if own:
                watch.close()
    if ctrl_c_since(seen):
        raise KeyboardInterrupt


def reinstate_sigint_handler() -> None:
    """Put Python's SIGINT handler back in the operating system's table.  OR-Tools (``cpsat``,
    ``cpmpy:ortools``) installs its own for a solve and leaves the default action behind it,
    so the next Ctrl-C between two solves killed the process outright: no "interrupted", the
    answers finished so far never printed.  Main thread only (where handlers are set)."""
    if threading.current_thread() is threading.main_thread():
        handler = _python_sigint_handler()
        if handler is not None:   # None: not set from Python, nothing of ours to put back
            _set_python_handler(handler)
