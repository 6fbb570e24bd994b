"""The results database: one SQLite file (the standard library's :mod:`sqlite3`).

A bench appends to ``result_log`` (never rewritten but to mark a row replaced), with the names
of sets, shapes and solvers kept once in their own tables; the ``results`` view spells them out
and shows the latest result of every (puzzle, solver, limit), which reports, the cross-check,
``--resume`` and users read.  Why a log and a view rather than one table with a unique key: on
the microsecond engines the stored row is most of the harness's cost, and a row of numbers
with no index costs SQLite about half (``benchmarks/bench_harness.py``).  Rows are written as
they arrive, each group in one transaction, in WAL mode, so that a bench killed at any moment
keeps every result it had received.  The tables: :class:`Database`.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import math
import os
import platform
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import UsageError
from ..results import Status
from .runner import ROW_FIELDS

RESULT_COLUMNS = ("run_id", "limit_", "time_limit") + ROW_FIELDS[1:]
"""The log's columns that are stored as they are (every one but the names and the puzzle)."""
LOCK_WAIT = 5.0
"""Seconds a reader waits for another program's lock on a database before it says so (sqlite3's
default)."""

RESULTS_VIEW = """
SELECT r.id, r.run_id, s.name || ':' || r.line AS puzzle_id, r.puzzle_hash, s.name AS set_name,
       s.digest AS set_digest, r.line,
       h.kind, h.shape, v.spec AS solver, r.limit_, r.time_limit, r.memory_limit, r.status, r.count,
       r.t_parse, r.t_encode, r.t_solve, r.t_decode, r.t_total, r.t_cpu, r.batch_size,
       r.peak_memory, r.baseline_memory,
       r.nodes, r.guesses, r.backtracks, r.conflicts, r.propagations, r.raw_stats, r.size, r.error,
       r.verified, r.wrong, COALESCE(r.repetition, 1) AS repetition, r.engine_seed,
       COALESCE(r.clock, 'wall') AS clock, r.memory_mechanism,
       r.certificate, r.prover, r.proof_bytes, r.prove_seconds, r.check_seconds
FROM result_log r
JOIN puzzle_sets s ON s.id = r.set_id
JOIN solvers v ON v.id = r.solver_id
LEFT JOIN shapes h ON h.id = r.shape_id
WHERE r.replaced_by IS NULL AND COALESCE(r.warmup, 0) = 0
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    started TEXT NOT NULL,
    finished TEXT,
    command TEXT,
    seed INTEGER,
    settings TEXT,
    cpu_model TEXT,
    cores INTEGER,
    memory_bytes INTEGER,
    platform TEXT,
    python TEXT,
    package_version TEXT,
    engines TEXT,
    git_commit TEXT,
    load TEXT
);
CREATE TABLE IF NOT EXISTS puzzle_sets (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, digest TEXT,
                                        base TEXT, source TEXT, puzzles INTEGER);
CREATE TABLE IF NOT EXISTS shapes (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, shape TEXT NOT NULL,
                                   UNIQUE (kind, shape));
CREATE TABLE IF NOT EXISTS solvers (id INTEGER PRIMARY KEY, spec TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS result_log (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id),
    set_id INTEGER NOT NULL REFERENCES puzzle_sets(id),
    line INTEGER,
    puzzle_hash TEXT NOT NULL,
    shape_id INTEGER REFERENCES shapes(id),
    solver_id INTEGER NOT NULL REFERENCES solvers(id),
    limit_ INTEGER NOT NULL,
    time_limit REAL,
    status TEXT NOT NULL,
    count INTEGER,
    t_parse REAL, t_encode REAL, t_solve REAL, t_decode REAL, t_total REAL,
    peak_memory INTEGER,
    nodes INTEGER, guesses INTEGER, backtracks INTEGER, conflicts INTEGER, propagations INTEGER,
    raw_stats TEXT,
    size TEXT,
    error TEXT,
    verified INTEGER,
    wrong INTEGER,
    replaced_by INTEGER REFERENCES runs(id),
    t_cpu REAL,
    batch_size INTEGER,
    baseline_memory INTEGER,
    memory_limit INTEGER,
    repetition INTEGER,
    engine_seed INTEGER,
    warmup INTEGER,
    clock TEXT,
    memory_mechanism TEXT,
    certificate TEXT,
    prover TEXT,
    proof_bytes INTEGER,
    prove_seconds REAL,
    check_seconds REAL
);
CREATE VIEW IF NOT EXISTS results AS""" + RESULTS_VIEW + """;
CREATE TABLE IF NOT EXISTS disagreements (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id),
    puzzle_id TEXT NOT NULL,
    puzzle_hash TEXT NOT NULL,
    limit_ INTEGER NOT NULL,
    solver_a TEXT, status_a TEXT, count_a INTEGER,
    solver_b TEXT, status_b TEXT, count_b INTEGER,
    UNIQUE (puzzle_id, puzzle_hash, limit_, solver_a, solver_b)
);
CREATE TABLE IF NOT EXISTS puzzle_texts (
    set_id INTEGER NOT NULL REFERENCES puzzle_sets(id),
    puzzle_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    box TEXT,
    text TEXT NOT NULL,
    solution TEXT,
    PRIMARY KEY (set_id, puzzle_hash)
);
"""

ADDED_COLUMNS = (("t_cpu", "REAL"), ("batch_size", "INTEGER"), ("baseline_memory", "INTEGER"),
                 ("memory_limit", "INTEGER"), ("repetition", "INTEGER"), ("engine_seed", "INTEGER"),
                 ("warmup", "INTEGER"), ("clock", "TEXT"), ("memory_mechanism", "TEXT"), ("certificate", "TEXT"),
                 ("prover", "TEXT"), ("proof_bytes", "INTEGER"), ("prove_seconds", "REAL"), ("check_seconds", "REAL"))
"""Columns of the log newer than the first databases: added to an older database when a bench
opens it (``ALTER TABLE``, the view made again), read as ``NULL`` from one ``report`` opens."""

LOG_ONLY = ("warmup",)
"""Columns of the log the view does not show: ``warmup`` (1: a ``bench --warmup`` run, which
the view leaves out, so that no report, cross-check or ``load_results`` counts it)."""

SET_COLUMNS = (("digest", "TEXT"), ("base", "TEXT"), ("source", "TEXT"), ("puzzles", "INTEGER"))
"""A set's identity beside its name (see :mod:`.sets`): the digest of its content, the name it
is read under before any disambiguation (``base``), its file (``source``: absolute path, ``NULL``
for puzzles made in memory or a set stored before these columns) and its number of puzzles.
A database older than them gets them when a bench opens it, each set's digest computed from
its stored rows (:func:`stored_set_digests`); the view's ``set_digest`` reads ``NULL`` from
one ``report`` opens."""

PROVED = """SELECT puzzle_hash,
       MAX(status IN ('unique', 'multiple', 'sat') AND verified = 1) AS solvable,
       MAX(status = 'multiple' AND verified = 1) AS not_unique
FROM results GROUP BY puzzle_hash"""
"""Per puzzle, what verified solutions prove of it: that it has one, that it has two."""
REFUTED = """CASE WHEN v.wrong = 1 THEN 1
     WHEN v.status = 'unsat' AND p.solvable = 1 THEN 1
     WHEN v.status = 'unique' AND p.not_unique = 1 THEN 1
     ELSE v.wrong END"""
"""A result is wrong when a solution it gave failed its check, and when another answer's
verified solutions refute its claim: an ``unsat`` where a solution exists, a ``unique`` where
two do.  Such a claim is wrong in every table (not solved, no time, no win), as a wrong solution
is, whether or not the two answers were cross-checked in the same run."""

VIEW_ADDED = tuple(name for name, _ in ADDED_COLUMNS if name not in LOG_ONLY) + ("set_digest",)
"""The view's columns an older database's view lacks (read as ``NULL``)."""


@functools.lru_cache(maxsize=1)
def view_columns() -> tuple[str, ...]:
    """The columns of the ``results`` view this version makes (read from the view itself)."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        return tuple(d[0] for d in conn.execute("SELECT * FROM results LIMIT 0").description)
    finally:
        conn.close()

_SECONDS = ("{c} IS NULL OR (typeof({c}) IN ('integer', 'real') AND {c} >= 0 AND {c} < 9e999)",
            "is not a number of seconds (0 or more)")
_WHOLE = ("{c} IS NULL OR (typeof({c}) = 'integer' AND {c} >= 0)", "is not a whole number (0 or more)")
_NUMBER = ("{c} IS NULL OR (typeof({c}) IN ('integer', 'real') AND abs({c}) < 9e999)", "is not a finite number")
_TEXT = ("typeof({c}) IN ('text', 'null')", "is not text")
_STATUSES = tuple(status.value for status in Status)
STORED_KINDS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("t_parse", "t_encode", "t_solve", "t_decode", "t_total", "t_cpu", "time_limit",
                     "prove_seconds", "check_seconds"), _SECONDS),
    **dict.fromkeys(("run_id", "line", "limit_", "memory_limit", "count", "batch_size", "peak_memory",
                     "baseline_memory", "repetition", "engine_seed", "proof_bytes"), _WHOLE),
    **dict.fromkeys(("nodes", "guesses", "backtracks", "conflicts", "propagations"), _NUMBER),
    **dict.fromkeys(("puzzle_id", "puzzle_hash", "set_name", "set_digest", "kind", "shape", "solver", "raw_stats",
                     "size", "error", "memory_mechanism", "prover"), _TEXT),
    "certificate": ("{c} IS NULL OR {c} IN ('verified', 'failed', 'none')", "is not a certificate (verified, failed, none)"),
    "verified": ("{c} IS NULL OR {c} IN (0, 1)", "is not 0 or 1"),
    "wrong": ("{c} IS NULL OR {c} IN (0, 1)", "is not 0 or 1"),
    "status": ("{c} IS NOT NULL AND {c} IN (" + ", ".join(f"'{s}'" for s in _STATUSES) + ")",
               f"is not a status ({', '.join(_STATUSES)})"),
    "clock": ("{c} IS NULL OR {c} IN ('wall', 'cpu')", "is not a clock (wall, cpu)"),
}
"""What each column of the ``results`` view holds, as an SQL condition on the column ``{c}``
(true or false, never ``NULL``) and the words of a value that breaks it:
:meth:`ResultsReader.results` leaves out a row that breaks one (a file changed by hand,
another program's), naming it, so that every report reads only values of the kind it
computes with."""

NAMED_AT_MOST = 10
"""How many rows left out a reader names, one line each; the rest it counts in one more."""

INPUT_SOLVER = "(input)"
"""The solver name of a record that is not a puzzle (a bad line): it belongs to no engine."""

ROW_COLUMNS = ROW_FIELDS[1:]  # everything a worker sends but the task id
FACT_COLUMNS = ("puzzle_hash", "set_name", "line", "kind", "shape", "solver", "limit_", "time_limit")
"""A task's own columns (the worker's row gives the rest); its ``puzzle_id`` is ``set_name:line``.
``repetition`` (1 to K under ``bench --repeat K``; ``NULL``, read as 1, when a bench has no
repeats) is a fact of its own, given where there are repeats; so is ``engine_seed`` (the seed
the engine was given, ``NULL`` for one that takes none)."""

NAMED = (("set_id", "puzzle_sets", ("name",), ("set_name",)),
         ("solver_id", "solvers", ("spec",), ("solver",)),
         ("shape_id", "shapes", ("kind", "shape"), ("kind", "shape")))
"""The log's references to the name tables: the log's column, the table and its columns, and
the view's columns that spell the name out."""


@dataclass(frozen=True)
class StoredSet:
    """A row of ``puzzle_sets``."""

    id: int
    name: str
    digest: str | None
    base: str | None
    source: str | None
    puzzles: int | None


def set_digest(lines_and_hashes: Iterable[tuple[int, str]], scramble_seed: int | None = None) -> str:
    """A set's identity: SHA-1 of its puzzles' lines and hashes in order (a bad line's hash
    is ``""``), and of the seed its puzzles were scrambled with.  The line is part of it: a
    result is stored under its puzzle's line, so a puzzle that moved is not where it was."""
    digest = hashlib.sha1()
    for line, puzzle_hash in lines_and_hashes:
        digest.update(f"{line}:{puzzle_hash}\n".encode())
    if scramble_seed is not None:
        digest.update(f"scrambled:{scramble_seed}\n".encode())
    return digest.hexdigest()


def stored_set_digests(conn: sqlite3.Connection) -> dict[int, tuple[str, int]]:
    """Each set's digest and number of puzzles computed from its latest stored rows: what a
    database older than the sets' identity holds of their content (unscrambled, as far as it
    knows)."""
    pairs: dict[int, list[tuple[int, str]]] = {}
    for set_id, line, puzzle_hash in conn.execute(
            "SELECT DISTINCT set_id, line, puzzle_hash FROM result_log WHERE replaced_by IS NULL"
            " ORDER BY set_id, line, puzzle_hash"):
        pairs.setdefault(set_id, []).append((line, puzzle_hash))
    return {set_id: (set_digest(found), sum(1 for _, h in found if h)) for set_id, found in pairs.items()}


def limit_key(limit: int | None) -> int:
    return 0 if limit is None else limit


@dataclass(frozen=True)
class TaskKey:
    puzzle_id: str
    puzzle_hash: str
    solver: str
    limit: int  # 0 = all
    repetition: int = 1


def _damage(exc: Exception) -> str:
    """What SQLite said of a file it cannot read; a stored text that is not UTF-8 (a damaged
    page) in words."""
    if isinstance(exc, UnicodeDecodeError):
        return "a stored text is not UTF-8 (a damaged file?)"
    lines = str(exc).splitlines() or ["no reason given"]
    return lines[0] + (" …" if len(lines) > 1 else "")   # SQLite may quote a whole damaged schema


@contextlib.contextmanager
def refused_as(what: str):
    """What SQLite says of a user's file (read-only, locked by another program, not a
    database, damaged, a disk that fails) as one line: ``what`` (``cannot read PATH``), then
    SQLite's words."""
    try:
        yield
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise UsageError(f"{what}: {_damage(exc)}") from None


def _wrong_kinds(row: sqlite3.Row, columns: Iterable[str]) -> str:
    """Which result a row of :meth:`ResultsReader._left_out` is, and each of its values that
    breaks :data:`STORED_KINDS`."""
    wrong = "; ".join(f"{name} {_shown(row[name])} {STORED_KINDS[name][1]}" for name in columns
                      if not row[f"ok_{name}"])
    names = ", ".join(value if isinstance(value, str) and value.isprintable() and len(value) <= 60
                      else _shown(value) for value in (row["puzzle_id"], row["solver"]))
    return f"result {row['id']} ({names}) left out: {wrong}"


def _shown(value, width: int = 40) -> str:
    """A stored value in a line of text: its ``repr``, cut to ``width`` characters."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"


def refuse_directory(path: str | os.PathLike) -> None:
    """A folder named where the database file goes: one line that says so (report said "no
    results database", bench "unable to open database file", after making ``DIR.lock``); an
    empty path too, which names the current folder."""
    if not os.fspath(path):
        raise UsageError("the database path is empty: name a file (e.g. results.sqlite)")
    if Path(path).is_dir():
        raise UsageError(f"{path} is a directory, not a results database: name a file "
                         f"(e.g. {Path(path) / 'results.sqlite'})")


def database_file(path: str | os.PathLike) -> Path:
    """The file a database path names, every symbolic link and ``..`` resolved: the one name
    its lock, its connection and SQLite's files beside it (``-wal``, ``-shm``) go by, however
    a user reaches it (a link, a relative or an absolute path).  A file with more than one
    hard link is refused: SQLite names those files after the path it opened, so a bench
    through each link would keep its own log of writes and one bench's rows would vanish."""
    refuse_directory(path)
    file = Path(os.path.realpath(path))
    try:
        links = file.stat().st_nlink
    except OSError:   # not there yet (a bench makes it), or not reachable: its opener says why
        return file
    if links > 1:
        raise UsageError(f"{path} has {links} hard links: SQLite keeps a database's journal beside the "
                         "name it was opened by, so two names cannot share one database safely; "
                         "copy the file (cp) instead of linking it")
    return file


class ResultsReader:
    """A results database opened to be read, never written (``report``): it works on a file
    in a read-only folder, and refuses a file that is not a puzzlebench database (an empty
    one, another program's SQLite file, a damaged one) instead of adding tables to it."""

    TABLES = ("runs", "result_log", "results", "disagreements")

    def __init__(self, path: str):
        self.path = path
        file = database_file(path)
        if not file.is_file():
            raise UsageError(f"no results database at {path} (make one with `puzzlebench bench --db {path}`)")
        if file.stat().st_size == 0:
            raise UsageError(f"{path} is empty: not a puzzlebench results database")
        with refused_as(f"cannot read {path} as a results database"):
            self.conn = self._connect(file)
            names = {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master")}
        missing = [t for t in self.TABLES if t not in names]
        if missing:
            self.conn.close()
            raise UsageError(f"{path} is not a puzzlebench results database (no {', '.join(missing)})")
        self._know_view()

    def _know_view(self) -> None:
        """What :meth:`results` reads: the view, an older database's newer columns as
        ``NULL``, ``wrong`` with the claims other answers refute (:data:`REFUTED`), and the
        checks of :data:`STORED_KINDS` on its columns."""
        shown = [row[1] for row in self._read("PRAGMA table_info(results)")]
        lacking = [name for name in view_columns() if name not in shown and name not in VIEW_ADDED]
        if lacking:
            raise UsageError(f"{self.path} is not a puzzlebench results database (its results view has no "
                             f"{', '.join(lacking)})")
        older = "".join(f", NULL AS {name}" for name in VIEW_ADDED if name not in shown)
        if {"puzzle_hash", "status", "verified", "wrong"} <= set(shown):
            columns = ", ".join(f"{REFUTED} AS wrong" if name == "wrong" else f"v.{name}" for name in shown)
            self._view = (f"(SELECT {columns}{older} FROM results v "
                          f"LEFT JOIN ({PROVED}) p ON p.puzzle_hash = v.puzzle_hash)")
        else:   # a view another program changed: read as it is, its missing columns said
            self._view = f"(SELECT *{older} FROM results)"
        self._checks = {name: STORED_KINDS[name][0].format(c=name) for name in self.columns() if name in STORED_KINDS}
        self._named: set[int] = set()   # the rows left out that a line has named

    @staticmethod
    def _connect(file: Path) -> sqlite3.Connection:
        """Read-only; a WAL database whose shared-memory file SQLite cannot make (a read-only
        folder, a full disk: "unable to open database file", "attempt to write a readonly
        database", "disk I/O error", as its version says) is read as immutable (nothing can be
        writing it there).  One another program holds locked is refused: read through its
        lock, it could be half written."""
        uri = file.as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=LOCK_WAIT)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError as exc:
            conn.close()
            if "locked" in str(exc):   # "database is locked", "database table is locked"
                raise
            return sqlite3.connect(f"{uri}?immutable=1", uri=True)
        except sqlite3.DatabaseError:
            conn.close()
            raise

    def close(self) -> None:
        self.conn.close()

    def _read(self, query: str, params: Iterable = ()) -> list[sqlite3.Row]:
        with refused_as(f"cannot read {self.path}"):
            cur = self.conn.cursor()
            cur.row_factory = sqlite3.Row
            return cur.execute(query, tuple(params)).fetchall()

    def results(self, where: str = "", params: Iterable = ()) -> list[sqlite3.Row]:
        """Rows of the ``results`` view (read by column name: ``row["status"]``), but those
        holding a value of another kind than :data:`STORED_KINDS` says, each named in one line
        on standard error."""
        params = tuple(params)
        selected = f"(SELECT * FROM {self._view} {where})"
        left_out = self._left_out(selected, params)
        rows = self._read(f"SELECT * FROM {selected} ORDER BY id", params)
        return [row for row in rows if row["id"] not in left_out] if left_out else rows

    def columns(self) -> list[str]:
        """The columns of :meth:`results`' rows."""
        with refused_as(f"cannot read {self.path}"):
            return [d[0] for d in self.conn.execute(f"SELECT * FROM {self._view} LIMIT 0").description]

    def _left_out(self, selected: str, params: tuple) -> set[int]:
        """The ids of the rows of ``selected`` that break :data:`STORED_KINDS`, each named on
        standard error once for this reader (at most :data:`NAMED_AT_MOST`, the rest counted)."""
        flags = ", ".join(f"({check}) AS ok_{name}" for name, check in self._checks.items())
        every = " AND ".join(f"({check})" for check in self._checks.values())
        bad = self._read(f"SELECT *, {flags} FROM {selected} WHERE NOT ({every}) ORDER BY id", params)
        new = [row for row in bad if row["id"] not in self._named]
        for row in new[:NAMED_AT_MOST]:
            print(f"puzzlebench: warning: {self.path}: {_wrong_kinds(row, self._checks)}", file=sys.stderr)
        if len(new) > NAMED_AT_MOST:
            print(f"puzzlebench: warning: {self.path}: {len(new) - NAMED_AT_MOST} more results left out for "
                  "values of the wrong kind", file=sys.stderr)
        self._named.update(row["id"] for row in new)
        return {row["id"] for row in bad}

    def disagreements(self) -> list[dict]:
        return [dict(row) for row in self._read("SELECT * FROM disagreements ORDER BY id")]

    def run_listing(self) -> list[dict]:
        """Every run: its id, when it started and finished, its results in the log, its command."""
        return [dict(row) for row in self._read(
            "SELECT r.id, r.started, r.finished, (SELECT count(*) FROM result_log l WHERE l.run_id = r.id)"
            " AS results, r.command FROM runs r ORDER BY r.id")]

    def set_listing(self) -> list[dict]:
        """Every set: its id, name, puzzles, digest (computed from its rows in a database older
        than the sets' identity) and the runs its latest results come from."""
        runs = {row[0]: row[1] for row in self._read(
            "SELECT set_id, count(DISTINCT run_id) FROM result_log WHERE replaced_by IS NULL GROUP BY set_id")}
        have = {row[1] for row in self._read("PRAGMA table_info(puzzle_sets)")}
        if "digest" in have:
            sets = [dict(row) for row in self._read("SELECT id, name, puzzles, digest FROM puzzle_sets ORDER BY id")]
        else:
            computed = self._computed_digests()
            sets = [{"id": i, "name": name, "puzzles": computed.get(i, (None, 0))[1],
                     "digest": computed.get(i, (None, 0))[0]}
                    for i, name in self._read("SELECT id, name FROM puzzle_sets ORDER BY id")]
        return [{**row, "runs": runs.get(row["id"], 0)} for row in sets]

    def _computed_digests(self) -> dict[int, tuple[str, int]]:
        with refused_as(f"cannot read {self.path}"):
            return stored_set_digests(self.conn)

    def runs(self) -> list[dict]:
        """Every row of ``runs``: the command, settings, machine and versions of each bench."""
        return [dict(row) for row in self._read("SELECT * FROM runs ORDER BY id")]

    def puzzle_texts(self) -> dict[tuple[str, str], dict]:
        """Each stored puzzle by (set name, puzzle hash): its ``kind``, ``box``, ``text`` and
        ``solution``; empty for a database older than the table."""
        if not self._read("SELECT 1 FROM sqlite_master WHERE name = 'puzzle_texts'"):
            return {}
        return {(row["set_name"], row["puzzle_hash"]): dict(row) for row in self._read(
            "SELECT s.name AS set_name, p.puzzle_hash, p.kind, p.box, p.text, p.solution"
            " FROM puzzle_texts p JOIN puzzle_sets s ON s.id = p.set_id")}

    def names(self) -> tuple[list[str], list[str]]:
        """The sets and the solvers (not the input's errors) the ``results`` view holds."""
        sets = [row[0] for row in self._read("SELECT DISTINCT set_name FROM results ORDER BY set_name")]
        solvers = [row[0] for row in self._read("SELECT DISTINCT solver FROM results ORDER BY solver")]
        return sets, [name for name in solvers if name != INPUT_SOLVER]


class Database(ResultsReader):
    """The results database opened by a bench, to be written.

    - ``runs``: one row per bench: when, the command line, the seed and settings, the machine,
      the versions of Python, puzzlebench and every engine's library, the git commit;
    - ``result_log``: every result ever stored: the puzzle (set, line, hash), its shape, the
      solver, the solution limit (``0`` = all), the time and memory limits, status, count,
      times (wall and CPU, with the number of puzzles a batch's CPU time is shared by), peak
      memory above the worker's baseline and that baseline, the normalised statistics, the raw
      counters and artifact size (JSON), the error, ``verified``, ``wrong``, and
      ``replaced_by``: the run that ran the same pair again (``NULL`` while it is the latest);
    - ``puzzle_sets`` (content digest, name, file: :mod:`.sets`), ``shapes``, ``solvers``;
    - ``results`` (a view): the log's latest rows with every name spelled out (``puzzle_id``
      as ``set:line``, ``puzzle_hash``, ``set_name``, ``set_digest``, ``line``, ``kind``,
      ``shape``, ``solver``), warm-up runs (``bench --warmup``) left out;
    - ``disagreements``: pairs of solvers that answered the same puzzle differently
      (:mod:`.crosscheck`);
    - ``puzzle_texts``: each puzzle of a set (keyed by set and puzzle hash) as its input's
      text, its kind and block shape, and a verified solution (``NULL``: none found), which
      the HTML report draws; a database older than it gets it (empty) when a bench opens it.

    Uniqueness is kept by the bench rather than a key: a bench without ``--resume`` marks the
    earlier results of the pairs it is about to run as replaced (:meth:`retire`), and
    ``--resume`` runs only the pairs that have none (one bench at a time: :class:`BenchLock`)."""

    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        file = database_file(path)
        if not file.parent.is_dir():
            raise UsageError(f"cannot open the database {self.path}: no directory {Path(self.path).parent}")
        with refused_as(f"cannot use {self.path} as a results database"):
            self.conn = sqlite3.connect(file, timeout=30, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
            self._add_set_identity()   # before the view is made again: it shows the set's digest
            self._add_new_columns()
        self._know_view()
        self._ids: dict[str, dict[tuple, int]] = {ref: {} for ref, *_ in NAMED}

    def _add_new_columns(self) -> None:
        """An older database made usable: the log's newer columns added (``NULL`` in its
        earlier rows) and the view made again to show them."""
        have = {row[1] for row in self.conn.execute("PRAGMA table_info(result_log)")}
        missing = [(name, kind) for name, kind in ADDED_COLUMNS if name not in have]
        shown = {row[1] for row in self.conn.execute("PRAGMA table_info(results)")}
        if not missing and all(name in shown for name in VIEW_ADDED):
            return
        with self.transaction():
            for name, kind in missing:
                self.conn.execute(f"ALTER TABLE result_log ADD COLUMN {name} {kind}")
            self.conn.execute("DROP VIEW IF EXISTS results")
            self.conn.execute(f"CREATE VIEW results AS {RESULTS_VIEW}")

    def _add_set_identity(self) -> None:
        """An older database's sets given their identity (:data:`SET_COLUMNS`): the columns
        added, each set's digest and puzzles computed from its stored rows (a later set of the
        same content as an earlier one keeps no digest: the digest is unique)."""
        have = {row[1] for row in self.conn.execute("PRAGMA table_info(puzzle_sets)")}
        missing = [(name, kind) for name, kind in SET_COLUMNS if name not in have]
        if missing:
            with self.transaction():
                for name, kind in missing:
                    self.conn.execute(f"ALTER TABLE puzzle_sets ADD COLUMN {name} {kind}")
                seen = set()
                for set_id, (digest, puzzles) in stored_set_digests(self.conn).items():
                    self.conn.execute("UPDATE puzzle_sets SET digest = ?, base = name, puzzles = ? WHERE id = ?",
                                      (None if digest in seen else digest, puzzles, set_id))
                    seen.add(digest)
        self.conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS puzzle_sets_digest ON puzzle_sets (digest)")

    # -- sets -------------------------------------------------------------------------------

    def stored_sets(self) -> list[StoredSet]:
        """Every set of the database, oldest first."""
        return [StoredSet(*row) for row in self.conn.execute(
            "SELECT id, name, digest, base, source, puzzles FROM puzzle_sets ORDER BY id")]

    def add_set(self, name: str, digest: str, base: str, source: str | None, puzzles: int) -> StoredSet:
        cur = self.conn.execute("INSERT INTO puzzle_sets (name, digest, base, source, puzzles) VALUES (?,?,?,?,?)",
                                (name, digest, base, source, puzzles))
        return StoredSet(cur.lastrowid, name, digest, base, source, puzzles)

    def copy_results(self, from_set: int, to_set: int, lines_of: dict[str, list[int]]) -> int:
        """The latest results of ``from_set`` whose puzzle hash is a key of ``lines_of`` stored
        again in ``to_set``, once for each of its lines there (the run that made them kept):
        an edited file's unchanged puzzles keep their results in the set it is now.  The
        number of lines of ``lines_of`` given results."""
        columns = [row[1] for row in self.conn.execute("PRAGMA table_info(result_log)")
                   if row[1] not in ("id", "set_id", "line")]
        rows = self.conn.execute(f"SELECT puzzle_hash, {', '.join(columns)} FROM result_log"
                                 " WHERE set_id = ? AND replaced_by IS NULL AND puzzle_hash != ''"
                                 " ORDER BY id", (from_set,)).fetchall()
        latest = {}   # one row a (hash, solver, limit, repetition): a hash on two lines would be stored twice
        at = {name: k for k, name in enumerate(columns, start=1)}
        for row in rows:
            if row[0] in lines_of:
                latest[row[0], row[at["solver_id"]], row[at["limit_"]], row[at["repetition"]]] = row
        copies = [(to_set, line, *row[1:]) for row in latest.values() for line in lines_of[row[0]]]
        if copies:
            with self.transaction():
                self.conn.executemany(f"INSERT INTO result_log (set_id, line, {', '.join(columns)}) "
                                      f"VALUES ({', '.join('?' * (len(columns) + 2))})", copies)
        return sum(len(lines_of[h]) for h in {key[0] for key in latest})

    def remove_set(self, name: str) -> int:
        """The set ``name`` and every row of it (its log, its disagreements) removed; the
        number of log rows removed."""
        found = self._set_named(name)
        with self.transaction():
            removed = self.conn.execute("DELETE FROM result_log WHERE set_id = ?", (found.id,)).rowcount
            self.conn.execute("DELETE FROM puzzle_texts WHERE set_id = ?", (found.id,))
            self.conn.execute("DELETE FROM disagreements WHERE substr(puzzle_id, 1, ?) = ?",
                              (len(name) + 1, name + ":"))
            self.conn.execute("DELETE FROM puzzle_sets WHERE id = ?", (found.id,))
        return removed

    def rename_set(self, old: str, new: str) -> None:
        found = self._set_named(old)
        if not new or new != new.strip():
            raise UsageError(f"{new!r} cannot name a set: give a name with no space at either end")
        if any(s.name == new for s in self.stored_sets()):
            raise UsageError(f"{self.path} has a set named {new} already")
        with self.transaction():
            self.conn.execute("UPDATE puzzle_sets SET name = ? WHERE id = ?", (new, found.id))
            self.conn.execute("UPDATE disagreements SET puzzle_id = ? || substr(puzzle_id, ?) "
                              "WHERE substr(puzzle_id, 1, ?) = ?", (new, len(old) + 1, len(old) + 1, old + ":"))

    def _set_named(self, name: str) -> StoredSet:
        sets = self.stored_sets()
        for found in sets:
            if found.name == name:
                return found
        raise UsageError(f"no set {name!r} in {self.path} (sets: {', '.join(s.name for s in sets) or 'none'})")

    def holds_results(self) -> bool:
        """Whether any result is stored (a bench that made the file and stored none removes it)."""
        if not self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'result_log'").fetchone():
            return False   # interrupted as it made its tables
        return self.conn.execute("SELECT EXISTS (SELECT 1 FROM result_log)").fetchone()[0] == 1

    # -- runs -------------------------------------------------------------------------------

    def start_run(self, *, command: str, seed: int | None, settings: dict, engines: dict) -> int:
        m = machine()
        cur = self.conn.execute(
            "INSERT INTO runs (started, command, seed, settings, cpu_model, cores, memory_bytes, platform,"
            " python, package_version, engines, git_commit, load) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (now(), command, seed, json.dumps(settings), m["cpu_model"], m["cores"], m["memory_bytes"],
             platform.platform(), sys.version.split()[0], package_version(), json.dumps(engines),
             git_commit(), load()))
        return cur.lastrowid

    def finish_run(self, run_id: int) -> None:
        self.conn.execute("UPDATE runs SET finished = ? WHERE id = ?", (now(), run_id))

    # -- results ----------------------------------------------------------------------------

    def done_keys(self, sets: Sequence[str], solvers: Sequence[str], limit: int, repeat: int = 1,
                  time_limit: float | None = None, memory_limit: int | None = None
                  ) -> tuple[set[TaskKey], dict[float, list[int]], dict[int | None, list[int]]]:
        """What ``--resume`` of these sets, solvers, solution limit and repetitions need not
        run again: the pairs with a result stored under this time limit, but for a ``memout``
        under a smaller memory limit than ``memory_limit`` (bytes; ``None``: none).  A result
        under another time limit, smaller or larger, is no result under this one (a puzzle
        solved in 2 s times out at 1 s; one that timed out at 1 s may be solved at 10 s), and
        a set's rows are compared under one limit: it is run again.  Also the log ids of those
        results, by the time limit they were stored under and by the memory limit, which the
        run that runs them again replaces.  A result stored with no time limit counts as done."""
        done, other_time, memouts = set(), {}, {}
        for row_id, *key, status, limit_before, memory_before in self.conn.execute(
                "SELECT id, puzzle_id, puzzle_hash, solver, limit_, repetition, status, time_limit, memory_limit"
                f" FROM results WHERE set_name IN ({', '.join('?' * len(sets))})"
                f" AND solver IN ({', '.join('?' * len(solvers))}) AND limit_ = ? AND repetition <= ?",
                (*sets, *solvers, limit, repeat)):
            if key[2] == INPUT_SOLVER:
                done.add(TaskKey(*key))
            elif limit_before is not None and limit_before != time_limit:
                other_time.setdefault(limit_before, []).append(row_id)
            elif status == "memout" and memory_before is not None and (
                    memory_limit is None or memory_before < memory_limit):
                memouts.setdefault(memory_before, []).append(row_id)
            else:
                done.add(TaskKey(*key))
        return done, other_time, memouts

    def replace(self, run_id: int, row_ids: Sequence[int]) -> None:
        """Mark these results as replaced by ``run_id`` (they stay in the log)."""
        with self.transaction():
            self.conn.executemany("UPDATE result_log SET replaced_by = ? WHERE id = ?",
                                  [(run_id, i) for i in row_ids])

    def retire(self, run_id: int, limit: int, sets: Sequence[str], solvers: Sequence[str], planned) -> int:
        """Mark as replaced by ``run_id`` the latest results of the pairs this run is about to
        run again, so that the ``results`` view keeps one row per pair (they stay in the log).
        ``planned()`` gives those pairs as ``(set_name, line, puzzle_hash, solver)``; it is
        called only when some result of these sets and solvers at this limit exists.  The
        number of results replaced."""
        if not sets or not solvers:
            return 0
        rows = self.conn.execute(
            "SELECT r.id, s.name, r.line, r.puzzle_hash, v.spec FROM result_log r"
            " JOIN puzzle_sets s ON s.id = r.set_id JOIN solvers v ON v.id = r.solver_id"
            f" WHERE r.replaced_by IS NULL AND r.limit_ = ? AND s.name IN ({', '.join('?' * len(sets))})"
            f" AND v.spec IN ({', '.join('?' * len(solvers))})", (limit, *sets, *solvers)).fetchall()
        if not rows:
            return 0
        pairs = planned()
        replaced = [row[0] for row in rows if row[1:] in pairs]
        self.replace(run_id, replaced)
        return len(replaced)

    def write(self, run_id: int, records: Sequence[tuple[dict, tuple]]) -> None:
        """Store finished results in one transaction.  ``records`` pairs the task's facts
        (puzzle_hash, set_name, line, kind, shape, solver, limit, time_limit) with the worker's
        row (in :data:`~.runner.ROW_FIELDS` order)."""
        self.write_values(run_id, [
            (t["puzzle_hash"], t["set_name"], t["line"], t["kind"], t["shape"], t["solver"],
             limit_key(t["limit"]), t["time_limit"]) + tuple(row[1:]) for t, row in records])

    def write_values(self, run_id: int, values: Sequence[tuple]) -> None:
        """:meth:`write` for rows already flat: the task's :data:`FACT_COLUMNS` then the worker's
        row without its task id."""
        if values:
            self.write_columns(run_id, dict(zip(FACT_COLUMNS + ROW_COLUMNS, map(list, zip(*values)))), {})

    def write_columns(self, run_id: int, columns: dict[str, Sequence], shared: dict[str, object]) -> None:
        """Store finished results given as columns, in one transaction and one ``executemany``.
        ``columns`` maps a column of the ``results`` view to one value per result; ``shared``
        to the value of every result (``puzzle_id`` is not given: it is ``set_name:line``).
        Names become references to their tables (:data:`NAMED`).  Shared values go into the
        statement as SQL literals and shared ``NULL`` s are left out (SQLite's default), so each
        row binds only what varies: Python's sqlite3 binds a ``None`` or a ``bool`` through its
        slow adaptation path."""
        columns, shared = dict(columns), {"run_id": run_id, **shared}
        n = len(next(iter(columns.values()), ()))
        for ref, table, table_columns, names in NAMED:
            if all(name in shared for name in names):
                shared[ref] = self._id(ref, table, table_columns, tuple(shared.pop(name) for name in names))
            else:
                keys = zip(*(columns.pop(name) if name in columns else [shared.pop(name)] * n for name in names))
                columns[ref] = [self._id(ref, table, table_columns, key) for key in keys]
        names, literals = [], []
        for name, value in shared.items():
            literal = sql_literal(value)
            if literal is None:
                continue  # NULL: the column's default
            if literal is _BIND:  # not writable as a literal: bound with every row
                columns[name] = [value] * n
                continue
            names.append(name)
            literals.append(literal)
        names += list(columns)
        values = literals + ["?"] * len(columns)
        sql = f"INSERT INTO result_log ({', '.join(names)}) VALUES ({', '.join(values)})"
        with self.transaction():
            self.conn.executemany(sql, zip(*columns.values()))

    def _id(self, ref: str, table: str, columns: tuple[str, ...], key: tuple) -> int | None:
        """The number of a set name, a solver spec or a (kind, shape) in ``table``, added when
        new; ``None`` for a missing shape (a line that is not a puzzle has none)."""
        known = self._ids[ref]
        found = known.get(key)
        if found is None:
            if None in key:
                return None
            where = " AND ".join(f"{c} = ?" for c in columns)
            self.conn.execute(f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) "
                              f"VALUES ({', '.join('?' * len(columns))})", key)
            found = known[key] = self.conn.execute(f"SELECT id FROM {table} WHERE {where}", key).fetchone()[0]
        return found

    def transaction(self):
        return _Transaction(self.conn)

    # -- puzzles ----------------------------------------------------------------------------

    def unsolved_texts(self, set_name: str) -> set[str]:
        """The hashes of the set's stored puzzles that have no solution yet."""
        return {row[0] for row in self.conn.execute(
            "SELECT p.puzzle_hash FROM puzzle_texts p JOIN puzzle_sets s ON s.id = p.set_id"
            " WHERE s.name = ? AND p.solution IS NULL", (set_name,))}

    def write_puzzle_texts(self, rows: Iterable[tuple[str, str, str, str | None, str]]) -> None:
        """Store puzzles as ``(set_name, puzzle_hash, kind, box, text)``, those stored already kept."""
        with self.transaction():
            self.conn.executemany(
                "INSERT OR IGNORE INTO puzzle_texts (set_id, puzzle_hash, kind, box, text)"
                " SELECT id, ?, ?, ?, ? FROM puzzle_sets WHERE name = ?",
                [(h, kind, box, text, set_name) for set_name, h, kind, box, text in rows])

    def write_solutions(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """Store verified solutions as ``(set_name, puzzle_hash, solution text)``."""
        with self.transaction():
            self.conn.executemany(
                "UPDATE puzzle_texts SET solution = ? WHERE puzzle_hash = ?"
                " AND set_id = (SELECT id FROM puzzle_sets WHERE name = ?)",
                [(solution, h, set_name) for set_name, h, solution in rows])

    # -- disagreements ----------------------------------------------------------------------

    def write_disagreements(self, run_id: int, rows: Iterable[tuple]) -> None:
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO disagreements (run_id, puzzle_id, puzzle_hash, limit_, solver_a, "
                "status_a, count_a, solver_b, status_b, count_b) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(run_id, *row) for row in rows])


_BIND = object()


def sql_literal(value) -> str | None | object:
    """``value`` as an SQL literal; ``None`` for NULL; :data:`_BIND` when it cannot be one
    (a float that is not finite, text holding a NUL, another type)."""
    if value is None:
        return None
    if isinstance(value, bool) or type(value) is int:
        return str(int(value))
    if type(value) is float:
        return repr(value) if math.isfinite(value) else _BIND
    if type(value) is str and "\0" not in value:
        return "'" + value.replace("'", "''") + "'"
    return _BIND


class _Transaction:
    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN")
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


class BenchLock:
    """One bench at a time on a database: two benches on one file would each store the pairs
    both run, and the view would show both.  The lock is an ``flock`` on ``DB.lock`` beside
    the database's file, named after the file every path to it resolves to
    (:func:`database_file`), so that a link or another spelling of the path meets the same
    lock (the kernel releases it when the bench dies, however it dies); the file holds
    the bench's process id for the message a second bench gives.  The bench removes the file
    as it ends, while it holds the lock; a bench that locked a file then removed checks that
    the file it holds is still the one at the path, else it takes the new one (the usual
    pattern for flock on a file that is unlinked)."""

    def __init__(self, path: str):
        self.path = f"{database_file(path)}.lock"   # a folder or a hard link refused before it is made
        while True:
            try:
                self.file = open(self.path, "a+")
            except OSError as exc:
                raise UsageError(f"cannot lock the database {path}: {exc.strerror} ({self.path})") from None
            try:
                fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.file.seek(0)
                holder = self.file.read().strip() or "another process"
                self.file.close()
                raise UsageError(f"{path} is in use by another bench ({holder}); wait for it to end, "
                                 "or give another --db") from None
            if self._still_at_path():
                break
            self.file.close()   # removed by the bench that held it as we opened it: take the new one
        self.file.seek(0)
        self.file.truncate()
        self.file.write(f"pid {os.getpid()}, started {now()}")
        self.file.flush()

    def _still_at_path(self) -> bool:
        try:
            return os.stat(self.path).st_ino == os.fstat(self.file.fileno()).st_ino
        except FileNotFoundError:
            return False

    def release(self) -> None:
        if not self.file.closed:
            if self._still_at_path():
                os.unlink(self.path)   # while locked: a bench waiting on this file sees it gone
            self.file.close()   # closing the last descriptor releases the flock


def sqlite_files(path: str) -> tuple[str, ...]:
    """A database file and SQLite's files beside it (``-wal``, ``-shm``, ``-journal``), at the
    file its path resolves to, where SQLite keeps them."""
    file = os.path.realpath(path)
    return file, f"{file}-wal", f"{file}-shm", f"{file}-journal"


def database_files(path: str) -> tuple[str, ...]:
    """Every file a database is read through, its bench's lock included: what a command that
    reads it must not write over.  They are beside the file its path resolves to
    (:func:`sqlite_files`, :class:`BenchLock`); named first as the user's path names them."""
    given = (path, f"{path}-wal", f"{path}-shm", f"{path}-journal", f"{path}.lock")
    return tuple(dict.fromkeys((*given, *sqlite_files(path), f"{os.path.realpath(path)}.lock")))


def remove_database(path: str) -> None:
    """A database file and SQLite's files beside it (a link to it stays)."""
    for name in sqlite_files(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def open_existing(path: str) -> ResultsReader:
    """A database that must already exist, read-only (for ``report``)."""
    return ResultsReader(path)


# -- facts about the run ------------------------------------------------------------------------

def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def machine() -> dict:
    cpu = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    if cpu is None:  # platform.processor() runs `uname -p` on Linux: only when /proc says nothing
        cpu = platform.processor() or platform.machine()
    memory = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) * 1024
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu_model": cpu, "cores": cores, "memory_bytes": memory}


def package_version() -> str:
    import importlib.metadata
    try:
        return importlib.metadata.version("puzzlebench")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def git_commit() -> str | None:
    """The commit of the code that ran (``+dirty`` when files differ), if it is a checkout."""
    here = Path(__file__).resolve().parent.parent  # the package
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True,
                              text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "-uno", "--", "."],
                               capture_output=True, text=True, timeout=5)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def load() -> str | None:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return None
