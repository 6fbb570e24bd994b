"""The files the commands write, written one way: never over one of the command's own inputs,
whole or not at all, and a failed write said in one line.

A file is written to a temporary file beside it, synced and renamed into place, so that a full
disk or a Ctrl-C leaves the old file (or none) and no temporary; a device or a pipe named as
the output (``/dev/null``, ``/dev/stdout``, a FIFO) is written in place.  A write the system
refuses once the command is at work is :class:`WriteFailed`, which the command line shows as
``puzzlebench: cannot write WHERE: reason`` (exit 1); :func:`guarded_stdout` does the same for
standard output.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import uuid
from typing import IO, Iterable, Iterator, NoReturn

from .errors import UsageError

STANDARD_OUTPUT = "standard output"


class WriteFailed(OSError):
    """A write the system refused while the command was at work (a full disk, a device's error,
    a reader that went away): ``cannot write WHERE: reason``, one line and no traceback."""

    def __init__(self, where: str, error: OSError):
        super().__init__(error.errno, error.strerror or str(error))
        self.where = where

    def __str__(self) -> str:
        return f"cannot write {self.where}: {self.strerror}"


class Guarded:
    """A stream whose failed write or flush is :class:`WriteFailed` naming ``where``; every
    other attribute is the stream's."""

    def __init__(self, stream, where: str) -> None:
        self.stream, self.where, self.failed = stream, where, False

    def write(self, data):
        with self._said():
            return self.stream.write(data)

    def writelines(self, lines) -> None:
        with self._said():
            self.stream.writelines(lines)

    def flush(self) -> None:
        with self._said():
            self.stream.flush()

    def __getattr__(self, name: str):
        return getattr(self.stream, name)

    @contextlib.contextmanager
    def _said(self) -> Iterator[None]:
        try:
            yield
        except WriteFailed:
            raise
        except OSError as exc:
            self.failed = True
            raise WriteFailed(self.where, exc) from None


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Standard output, for the length of a command, as a :class:`Guarded` stream, flushed at
    the end.  After a failed write its descriptor points at ``/dev/null``: what is still
    buffered then goes nowhere, where the interpreter's flush at exit would fail again (the
    advice of Python's documentation for a closed pipe)."""
    stream = sys.stdout
    if stream is None:   # closed (`>&-`): print writes nothing, as Python does
        yield
        return
    guarded = sys.stdout = Guarded(stream, STANDARD_OUTPUT)
    try:
        yield
        guarded.flush()
    finally:
        sys.stdout = stream
        if guarded.failed:
            _point_at_devnull(stream)


def _point_at_devnull(stream) -> None:
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):   # a stream with no descriptor (a test's capture)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)


def check_output(path: str, option: str, inputs: Iterable[str] = ()) -> None:
    """Refuse, before any work, an output that is one of the command's ``inputs``
    (:func:`check_not_input`) or that cannot be written (a folder, a missing folder, a
    read-only file): one :class:`UsageError` line, nothing made."""
    target = _target(path, option, inputs)
    if _written_in_place(target):
        return
    fd, temporary = _temporary(target, path, option)
    os.close(fd)
    os.unlink(temporary)


@contextlib.contextmanager
def open_output(path: str, option: str, inputs: Iterable[str] = (), *, binary: bool = False,
                keep_interrupted: bool = False) -> Iterator[IO]:
    """``path`` open for writing (UTF-8 text, or bytes), as a :class:`Guarded` stream; the file
    is in place, whole, when the block ends.  An exception in the block leaves the old file (or
    none) and no temporary, except a Ctrl-C with ``keep_interrupted``: a stream of whole
    records keeps those finished, as the commands keep the answers printed before it."""
    target = _target(path, option, inputs)
    if _written_in_place(target):
        with _in_place(target, path, option, binary) as stream:
            yield stream
        return
    fd, temporary = _temporary(target, path, option)
    stream = Guarded(os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})), path)
    try:
        _keep_owner_and_mode(fd, target)
        try:
            yield stream
        except KeyboardInterrupt:
            if keep_interrupted:
                _commit(stream, temporary, target)
            raise
        _commit(stream, temporary, target)
    finally:
        _discard(stream, temporary)   # after a commit, nothing to remove


def write_output(path: str, data: str | bytes, option: str, inputs: Iterable[str] = ()) -> None:
    """``data`` written to ``path`` whole, as :func:`open_output` writes."""
    with open_output(path, option, inputs, binary=isinstance(data, bytes)) as stream:
        stream.write(data)


def check_not_input(path: str, option: str, inputs: Iterable[str]) -> None:
    """Refuse an output that is one of the command's ``inputs`` (the same file by any name: a
    symbolic or hard link, another spelling of its path; ``-`` is standard input)."""
    target = os.path.realpath(path)
    for given in inputs:
        if _same_file(target, given):
            shown = "standard input" if given == "-" else given
            raise UsageError(f"{option} {path}: that file is an input of this command ({shown}); "
                             f"name another output")


def _target(path: str, option: str, inputs: Iterable[str]) -> str:
    """The file ``path`` names (through symbolic links: the link is written through, as
    ``open`` writes), refused when it is an input, a folder or a file this process may not
    write (renaming over a read-only file would replace it)."""
    check_not_input(path, option, inputs)
    target = os.path.realpath(path)
    if os.path.isdir(target):
        _refuse(path, option, errno.EISDIR)
    if os.path.exists(target) and not os.access(target, os.W_OK):
        _refuse(path, option, errno.EACCES)
    return target


def _same_file(target: str, given: str) -> bool:
    """Whether the output ``target`` is the input ``given``: the same device and inode, or (an
    input not there yet, a database's ``-wal``) the same resolved path."""
    try:
        here = os.stat(target)
        there = os.fstat(sys.stdin.fileno()) if given == "-" else os.stat(given)
    except (OSError, ValueError, AttributeError):
        return given != "-" and os.path.realpath(given) == target
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _written_in_place(target: str) -> bool:
    """A device, a FIFO or a socket: not a file to replace (renaming over ``/dev/null`` would
    put a file in its place)."""
    try:
        return not stat.S_ISREG(os.stat(target).st_mode)
    except OSError:   # nothing there yet
        return False


@contextlib.contextmanager
def _in_place(target: str, path: str, option: str, binary: bool) -> Iterator[IO]:
    try:
        raw = open(target, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"}))
    except OSError as exc:
        _refuse(path, option, exc.errno)
    stream = Guarded(raw, path)
    try:
        yield stream
        stream.flush()
    finally:
        with contextlib.suppress(OSError):
            raw.close()


def _temporary(target: str, path: str, option: str) -> tuple[int, str]:
    """A new file beside ``target``, made with the mode a new file gets (0666 less the umask)."""
    folder, name = os.path.split(target)
    while True:
        temporary = os.path.join(folder, f".{name}.{uuid.uuid4().hex[:8]}.part")
        try:
            return os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666), temporary
        except FileExistsError:
            continue
        except OSError as exc:
            _refuse(path, option, exc.errno)


def _keep_owner_and_mode(fd: int, target: str) -> None:
    """A file replaced keeps its permissions (and, where this process may, its owner)."""
    try:
        old = os.stat(target)
    except OSError:
        return
    os.fchmod(fd, stat.S_IMODE(old.st_mode))
    if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(OSError):
            os.fchown(fd, old.st_uid, old.st_gid)


def _commit(stream: Guarded, temporary: str, target: str) -> None:
    """The temporary file synced (a full disk may say so only now) and renamed over ``target``."""
    try:
        stream.flush()
        os.fsync(stream.fileno())
        stream.stream.close()
        os.replace(temporary, target)
    except WriteFailed:
        raise
    except OSError as exc:
        raise WriteFailed(stream.where, exc) from None


def _discard(stream: Guarded, temporary: str) -> None:
    with contextlib.suppress(OSError):
        stream.stream.close()
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary)


def _refuse(path: str, option: str, code: int | None) -> NoReturn:
    raise UsageError(f"{option} {path}: cannot write there: {os.strerror(code or errno.EIO)}")
