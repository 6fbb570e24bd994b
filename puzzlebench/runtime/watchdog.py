"""The sessions of the solver programs a process started, ended when that process dies.

An external program (``engines/external.py``) runs in a session of its own and dies with the
process that started it (``PR_SET_PDEATHSIG``), but its own children do not: MiniZinc runs
Gecode in a process group of its own, ends it on SIGTERM only at some moments, and a program
started by a wrapper script may not at all.  So each process that starts programs has one
watchdog: a small process in a session of its own (a Ctrl-C of the command's group leaves it
be) that reads on a pipe the sessions started (``+SID``) and ended (``-SID``) and, when the
pipe's far end closes (its writer died, however), SIGKILLs every process of the sessions
still open, until none is left.  It runs on its own (``python -S watchdog.py``), importing
nothing of the package, so that it starts in milliseconds and holds little memory.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

ROUNDS = 50            # looks at the sessions, a kill between them, before giving up
ROUND_SECONDS = 0.02


def session_members(session: int) -> list[int]:
    """The processes of the session ``session`` (Linux: field 6 of ``/proc/PID/stat``; none
    elsewhere)."""
    members = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return members
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:   # gone meanwhile, or not ours to read
            continue
        fields = stat[stat.rfind(b")") + 2:].split()   # the name may hold spaces and brackets
        if len(fields) > 3 and int(fields[3]) == session:
            members.append(int(name))
    return members


def kill_sessions(sessions, rounds: int = ROUNDS) -> None:
    """SIGKILL to every process of ``sessions``, until none is left (or ``rounds`` looks)."""
    for look in range(rounds):
        members = [pid for session in sessions for pid in session_members(session)]
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if look + 1 < rounds:
            time.sleep(ROUND_SECONDS)


class Watchdog:
    """The watchdog of this process (started at its first use, and again in a forked child,
    whose parent's watchdog watches the parent)."""

    def __init__(self) -> None:
        self.owner: int | None = None
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        """Start the watchdog if this process has none running (before a memory cap: a Python
        started under the cap of ``--memory-limit 8`` would not start)."""
        if self.owner == os.getpid() and self.process is not None and self.process.poll() is None:
            return
        try:
            self.process = subprocess.Popen([sys.executable, "-S", os.path.abspath(__file__)],
                                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError:   # no watchdog: the programs still die with this process
            self.process = None
        self.owner = os.getpid()

    def _say(self, text: str) -> None:
        self.start()
        if self.process is None:
            return
        try:
            self.process.stdin.write(text.encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def watch(self, session: int) -> None:
        self._say(f"+{session}\n")

    def release(self, session: int) -> None:
        self._say(f"-{session}\n")


WATCHDOG = Watchdog()


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # a Ctrl-C is the command's; it ends the pipe
    signal.signal(signal.SIGTERM, signal.SIG_IGN)   # as a death does, when it ends the command
    open_sessions: set[int] = set()
    for line in sys.stdin.buffer:
        try:
            session = int(line[1:])
        except ValueError:
            continue
        if line[:1] == b"+":
            open_sessions.add(session)
        else:
            open_sessions.discard(session)
    kill_sessions(open_sessions)


if __name__ == "__main__":
    main()
