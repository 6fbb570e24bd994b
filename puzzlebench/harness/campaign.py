"""Campaign files: a whole benchmark stated once, in TOML, and run by one command
(``puzzlebench bench --campaign benchmarks/campaigns/paradigms.toml``; the format: :class:`Campaign`).

A campaign names its puzzle sets, its solvers and the settings of every run, as mzn-bench's
campaigns and benchexec's benchmark definitions do for their tools, so that a benchmark is a
reviewed file rather than a shell script of ``bench`` lines.  Each ``[[set]]`` is one bench,
in the file's order, into the one database; a set's own keys take the place of the
campaign's.  The whole file is checked before anything runs (every key and type, with its
line; every puzzle file read), so that a mistake in the last set stores nothing.  Plain data
out: :class:`Campaign` and its :class:`SetRun` s, which the command turns into
:class:`~.bench.BenchConfig` s.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser as a package
    import tomli as tomllib

from ..errors import PuzzlebenchError, UsageError
from ..models.input_bounds import check_nesting, read_whole
from ..models.kinds import shaped_by_box
from ..options import AMOUNT, COUNT, JOBS, LIMIT, MEMORY, REPEAT, SEED, TIME
from ..runtime.child import check_memory_limit
from ..runtime.limits import check_time_limit
from .bench import DEFAULT_LIMIT, DEFAULT_TIME_LIMIT, resolve_solvers
from .dask_executor import parse_executor_spec
from .inputs import set_name

TEXT, WHOLE, FLAG, LIST = "a text", "a whole number", "true or false", "a list"
DURATION = "a number of seconds or a text with a unit (\"15min\")"
SIZE = "a number of MB (2^20 bytes) or a text with a unit (\"2GiB\")"

TOP_KEYS = {"db": TEXT, "solvers": LIST, "time_limit": DURATION, "memory_limit": SIZE, "limit": WHOLE,
            "repeat": WHOLE, "warmup": WHOLE, "certify": FLAG, "jobs": WHOLE, "executor": TEXT, "seed": WHOLE, "set": LIST}
SET_KEYS = {"file": TEXT, "kind": TEXT, "box": TEXT, "sample": WHOLE, "seed": WHOLE, "scramble": FLAG,
            "time_limit": DURATION, "memory_limit": SIZE, "limit": WHOLE, "repeat": WHOLE, "solvers": LIST}
SOLVER_KEYS = {"spec": TEXT, "options": "a table"}
NUMBERS = {"limit": LIMIT, "seed": SEED, "repeat": REPEAT, "warmup": AMOUNT, "jobs": JOBS, "sample": COUNT, "time_limit": TIME,
           "memory_limit": MEMORY}
"""The numeric settings, checked as the command line's options are (:mod:`puzzlebench.options`)."""
PER_SET = ("time_limit", "memory_limit", "limit", "repeat", "seed")
"""The campaign's settings a ``[[set]]`` may give again, for itself."""


@dataclass(frozen=True)
class SetRun:
    """One ``[[set]]``: a bench of one puzzle file, with every setting resolved."""

    file: str
    kind: str | None
    box: str | None
    sample: int | None
    seed: int
    scramble: bool
    solvers: list[str]
    time_limit: float
    memory_limit_mb: float | None
    limit: int | None   # None: all solutions
    repeat: int


@dataclass(frozen=True)
class Campaign:
    """A campaign file, checked.  Its format::

        db = "bench.sqlite"               # the results database (relative paths: from this file's folder)
        solvers = ["bitboard", "dlx", "sat:minisat22@encoding=minimal",
                   { spec = "cpsat:int", options = { presolve = "off" } }]
        time_limit = 3                    # seconds per puzzle (default 10)
        memory_limit = 2048               # MB above each worker's baseline (default: none)
        limit = 2                         # solutions to look for, 0 = all (default 2)
        repeat = 1                        # runs of each (puzzle, solver) pair (default 1)
        warmup = 1                        # each worker's first K puzzles run first, left out of reports
        certify = true                    # each claim of absence proved and checked (default false)
        jobs = 2                          # local worker processes (default: the cores here)
        executor = "local"                # or "dask-local:4", "dask://HOST:PORT"
        seed = 1                          # of samples and scrambles (default 0)

        [[set]]
        file = "../shared/data/sudoku9_norvig_top95.txt"
        sample = 50                       # a reproducible sample of 50 puzzles
        scramble = true                   # random Sudoku symmetries
        # also: kind, box ("3x4"), seed, and time_limit, memory_limit, limit, repeat, solvers
        # for this set alone
    """
    path: str
    db: str | None
    jobs: int | None
    executor: str | None
    sets: list[SetRun]
    warmup: int = 0
    certify: bool = False


def load_campaign(path: str, engines: Mapping[str, str] | None = None) -> Campaign:
    """The campaign in ``path``, checked; a mistake is a :class:`UsageError` naming its place.
    ``engines``: extra engine families (``bench --engine``) its solvers may name."""
    try:
        with open(path, "rb") as stream:
            text = read_whole(stream, path).decode("utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read the campaign {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: byte {exc.start}: the campaign is not UTF-8 text") from None
    check_nesting(text, path)   # tomllib recurses on nesting, and is quadratic in a dotted key's parts
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(_toml_error(path, text, exc)) from None
    return _Checker(path, text, engines or {}).campaign(data)


def _toml_error(path: str, text: str, exc: Exception) -> str:
    """TOML's message with its place as ``file:line:column``."""
    message = str(exc)
    found = re.match(r"(.*) \(at line (\d+), column (\d+)\)$", message)
    if found:
        return f"{path}:{found[2]}:{found[3]}: {found[1]}"
    found = re.match(r"(.*) \(at end of document\)$", message)
    if found:
        return f"{path}:{text.count(chr(10)) + 1}:1: {found[1]} (at the end of the file)"
    return f"{path}: {message}"


class _Checker:
    """Checks the parsed file key by key, naming each mistake's line (found in the text:
    tomllib keeps no places)."""

    def __init__(self, path: str, text: str, engines: Mapping[str, str]):
        self.path = path
        self.engines = engines
        self.folder = Path(path).parent
        self.places = key_places(text)

    def fail(self, where: tuple, message: str):
        line, column = self.place(where)
        raise UsageError(f"{self.path}:{line}:{column}: {message}")

    def place(self, where: tuple) -> tuple[int, int]:
        """The line and column of a key (``("time_limit",)``, ``("set", 2, "sample")``), or of
        the nearest enclosing one found."""
        while where:
            if where in self.places:
                return self.places[where]
            where = where[:-1]
        return 1, 1

    def campaign(self, data: dict) -> Campaign:
        self.keys(data, TOP_KEYS, (), "the campaign")
        sets = data.get("set")
        if not sets:
            self.fail((), "a campaign needs at least one [[set]] with a file")
        if not all(isinstance(s, dict) for s in sets):
            self.fail(("set",), "set must be an array of tables: [[set]] sections")
        defaults = {key: data[key] for key in PER_SET if key in data}
        solvers = self.solvers(data["solvers"], ("solvers",)) if "solvers" in data else None
        runs = [self.set_run(i, entry, defaults, solvers) for i, entry in enumerate(sets)]
        for i, run in enumerate(runs):   # the same bench twice: its results stored twice as one set's
            same = next((k for k in range(i) if _same_run(runs[k], run)), None)
            if same is not None:
                self.fail(("set", i), f"[[set]] {i + 1} repeats [[set]] {same + 1} (the same file, solvers and "
                                      f"settings): remove it, or give repeat = K for more runs")
        named: dict[str, str] = {}
        for i, run in enumerate(runs):
            # a set is named by its file's name, and its puzzles' ids are ``set:line``: two files
            # of one name would share ids in the one database.  One file in two [[set]]s (other
            # solvers, another sample) is one set, read twice, which is fine.
            first = named.setdefault(set_name(run.file), run.file)
            if Path(first).resolve() != Path(run.file).resolve():
                self.fail(("set", i, "file"), f"{first} and {run.file} would both be the set "
                          f"{set_name(run.file)!r} (a set is named by its file's name): rename one")
        db = self.resolve(data["db"]) if "db" in data else None
        return Campaign(self.path, db, data.get("jobs"), data.get("executor"), runs, data.get("warmup", 0),
                        data.get("certify", False))

    def keys(self, table: dict, known: dict, where: tuple, what: str) -> None:
        for key, value in table.items():
            if key not in known:
                self.fail((*where, key), f"unknown key {key!r} in {what} (known: {', '.join(sorted(known))})")
            self.value(value, known[key], (*where, key))

    def value(self, value, kind: str, where: tuple) -> None:
        key = where[-1]
        fits = {WHOLE: isinstance(value, int) and not isinstance(value, bool),
                DURATION: isinstance(value, (int, float, str)) and not isinstance(value, bool),
                TEXT: isinstance(value, str), FLAG: isinstance(value, bool), LIST: isinstance(value, list),
                "a table": isinstance(value, dict)}[kind if kind != SIZE else DURATION]
        if not fits:
            self.fail(where, f"{key} must be {kind}; got {_shown(value)}")
        check = {"memory_limit": check_memory_limit, "time_limit": check_time_limit,
                 "executor": parse_executor_spec}.get(key) or (NUMBERS[key].check if key in NUMBERS else None)
        if check:
            try:
                check(value, key) if key in NUMBERS else check(value)
            except UsageError as exc:
                self.fail(where, str(exc))

    def set_run(self, index: int, entry: dict, defaults: dict, solvers: list[str] | None) -> SetRun:
        where = ("set", index)
        self.keys(entry, SET_KEYS, where, f"[[set]] {index + 1}")
        if "file" not in entry:
            self.fail(where, f"[[set]] {index + 1} has no file")
        file = self.resolve(entry["file"])
        if not Path(file).is_file():
            self.fail((*where, "file"), f"no puzzle file {entry['file']} (read from {self.folder or '.'})")
        own = self.solvers(entry["solvers"], (*where, "solvers")) if "solvers" in entry else solvers
        if not own:
            self.fail(where, f"[[set]] {index + 1} has no solvers: give solvers = [...] in it or above every [[set]]")
        if "box" in entry and entry.get("kind") is not None and entry["kind"] not in shaped_by_box():
            self.fail((*where, "box"), f"box does not go with kind = {entry['kind']!r}: it is the block shape of "
                                       f"{', '.join(shaped_by_box())}")
        setting = {**defaults, **{key: entry[key] for key in PER_SET if key in entry}}
        limit = setting.get("limit", DEFAULT_LIMIT)
        return SetRun(file=file, kind=entry.get("kind"), box=entry.get("box"), sample=entry.get("sample"),
                      seed=setting.get("seed", 0), scramble=entry.get("scramble", False), solvers=own,
                      time_limit=check_time_limit(setting.get("time_limit", DEFAULT_TIME_LIMIT)),
                      memory_limit_mb=None if setting.get("memory_limit") is None
                      else MEMORY.check(setting["memory_limit"], "memory_limit"),
                      limit=None if limit == 0 else limit,
                      repeat=setting.get("repeat", 1))

    def solvers(self, entries: list, where: tuple) -> list[str]:
        """Solver specs: texts, or tables ``{ spec = "...", options = { key = value } }``
        written as ``spec@key=value;...``."""
        specs = []
        for entry in entries:
            if isinstance(entry, str):
                specs.append(entry)
                continue
            if not isinstance(entry, dict):
                self.fail(where, f"a solver must be a spec text or {{ spec = ..., options = {{...}} }}; "
                                 f"got {_shown(entry)}")
            self.keys(entry, SOLVER_KEYS, where, "a solver")
            if "spec" not in entry:
                self.fail(where, "a solver table needs spec = \"family[:variant]\"")
            options = ";".join(f"{k}={_option(v)}" for k, v in entry.get("options", {}).items())
            joiner = ";" if "@" in entry["spec"] else "@"
            specs.append(entry["spec"] + (joiner + options if options else ""))
        try:  # a spec that names no engine fails here, before anything runs
            resolve_solvers(specs, self.engines)
        except PuzzlebenchError as exc:  # an unknown family, variant or option; an engine not importable
            self.fail(where, str(exc))
        return specs

    def resolve(self, name: str) -> str:
        path = Path(name).expanduser()   # normalised: the file's folder, then the path's ".." steps
        return os.path.normpath(path if path.is_absolute() else self.folder / path)


def _same_run(a: SetRun, b: SetRun) -> bool:
    return Path(a.file).resolve() == Path(b.file).resolve() and {**vars(a), "file": ""} == {**vars(b), "file": ""}


def _option(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


_HEADER = re.compile(r"\s*(\[\[?)\s*([A-Za-z0-9_.-]+)\s*\]\]?")
_KEY = re.compile(r"(\s*)([A-Za-z0-9_-]+)\s*=")


def key_places(text: str) -> dict[tuple, tuple[int, int]]:
    """Where each key of a TOML text is (line, column; both from 1), by its path: ``("db",)``,
    ``("set", 0)`` for the first ``[[set]]`` header, ``("set", 0, "file")``.  Keys written at
    the start of a line only (inline tables and dotted keys are placed at their line's key)."""
    places: dict[tuple, tuple[int, int]] = {}
    table: tuple = ()
    arrays: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            name = header[2]
            if header[1] == "[[":
                arrays[name] = arrays.get(name, -1) + 1
                table = (name, arrays[name])
            else:
                table = (name,)
            places.setdefault(table, (number, len(line) - len(line.lstrip()) + 1))
            continue
        key = _KEY.match(line)
        if key:
            places.setdefault((*table, key[2]), (number, len(key[1]) + 1))
    return places
