"""What a Ctrl-C looks like when it comes out of a solver library.

Python raises ``KeyboardInterrupt``; PySAT's C module catches the SIGINT inside a solve and
raises its own ``pysolvers.error`` instead, and Exact a ``RuntimeError``.  Every engine, the generic base and the commands
ask :func:`is_interrupt`, so one place knows each library's form (and none imports the engine
that owns the library to learn it).
"""

from __future__ import annotations


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
