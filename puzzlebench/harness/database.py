"""The results database: one SQLite file (the standard library's :mod:`sqlite3`).

Tables:

- ``runs``: one row per bench: when, the command line, the seed and settings, the machine
  (CPU model, cores, memory), the versions of Python, of puzzlebench and of every engine's
  library, the git commit of the code;
- ``results``: the latest result of every (puzzle, solver, limit): the puzzle's id
  (``set:line``) and hash, its set, kind and shape, the solver spec, the solution limit
  (``0`` = all), the time limit, status, count, times, peak memory, the normalised statistics
  (one column each), the engine's raw counters and the artifact size (JSON), the error, and
  whether the answer was verified (``verified``) or found wrong (``wrong``);
- ``disagreements``: pairs of solvers that finished the same puzzle with the same limit and
  answered differently (see :mod:`.crosscheck`).

Rows are written as they arrive from the workers, each group in one transaction, in WAL mode:
a bench killed at any moment keeps every result it had received, and ``--resume`` runs only
the pairs that have none.
"""

from __future__ import annotations

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
from .runner import ROW_FIELDS

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
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id),
    puzzle_id TEXT NOT NULL,
    puzzle_hash TEXT NOT NULL,
    set_name TEXT NOT NULL,
    line INTEGER,
    kind TEXT,
    shape TEXT,
    solver TEXT NOT NULL,
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
    UNIQUE (puzzle_id, puzzle_hash, solver, limit_)
);
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
"""

INPUT_SOLVER = "(input)"
"""The solver name of a record that is not a puzzle (a bad line): it belongs to no engine."""

ROW_COLUMNS = ROW_FIELDS[1:]  # everything a worker sends but the task id
FACT_COLUMNS = ("puzzle_id", "puzzle_hash", "set_name", "line", "kind", "shape", "solver", "limit_", "time_limit")


def limit_key(limit: int | None) -> int:
    return 0 if limit is None else limit


@dataclass(frozen=True)
class TaskKey:
    puzzle_id: str
    puzzle_hash: str
    solver: str
    limit: int  # 0 = all


class Database:
    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        parent = Path(self.path).parent
        if not parent.is_dir():
            raise UsageError(f"cannot open the database {self.path}: no directory {parent}")
        try:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise UsageError(f"cannot use {self.path} as a results database: {exc}") from None

    def close(self) -> None:
        self.conn.close()

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

    def runs(self) -> list[dict]:
        cur = self.conn.execute("SELECT * FROM runs ORDER BY id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur]

    # -- results ----------------------------------------------------------------------------

    def done_keys(self) -> set[TaskKey]:
        return {TaskKey(*row) for row in
                self.conn.execute("SELECT puzzle_id, puzzle_hash, solver, limit_ FROM results")}

    def write(self, run_id: int, records: Sequence[tuple[dict, tuple]]) -> None:
        """Store finished results in one transaction.  ``records`` pairs the task's facts
        (puzzle_id, puzzle_hash, set_name, line, kind, shape, solver, limit, time_limit) with
        the worker's row (in :data:`~.runner.ROW_FIELDS` order)."""
        columns = ("run_id", "puzzle_id", "puzzle_hash", "set_name", "line", "kind", "shape", "solver",
                   "limit_", "time_limit") + ROW_COLUMNS
        sql = (f"INSERT OR REPLACE INTO results ({', '.join(columns)}) "
               f"VALUES ({', '.join('?' * len(columns))})")
        values = [(run_id, t["puzzle_id"], t["puzzle_hash"], t["set_name"], t["line"], t["kind"], t["shape"],
                   t["solver"], limit_key(t["limit"]), t["time_limit"]) + tuple(row[1:])
                  for t, row in records]
        with self.transaction():
            self.conn.executemany(sql, values)

    def write_values(self, run_id: int, values: Sequence[tuple]) -> None:
        """:meth:`write` for rows already flat: the task's :data:`FACT_COLUMNS` then the worker's
        row without its task id."""
        sql = self._insert_sql
        with self.transaction():
            self.conn.executemany(sql, [(run_id,) + v for v in values])

    def write_columns(self, run_id: int, columns: dict[str, Sequence], shared: dict[str, object]) -> None:
        """Store finished results given as columns, in one transaction and one ``executemany``.
        ``columns`` maps a column of the results table to one value per result; ``shared``
        to the value of every result.  Shared values go into the statement as SQL literals and
        shared ``NULL`` s are left out (SQLite's default), so each row binds only what varies:
        Python's sqlite3 binds a ``None`` or a ``bool`` through its slow adaptation path."""
        names, literals = [], []
        for name, value in {"run_id": run_id, **shared}.items():
            literal = sql_literal(value)
            if literal is None:
                continue  # NULL: the column's default
            if literal is _BIND:  # not writable as a literal: bound with every row
                columns = {**columns, name: [value] * len(next(iter(columns.values()), ()))}
                continue
            names.append(name)
            literals.append(literal)
        names += list(columns)
        values = literals + ["?"] * len(columns)
        sql = f"INSERT OR REPLACE INTO results ({', '.join(names)}) VALUES ({', '.join(values)})"
        with self.transaction():
            self.conn.executemany(sql, zip(*columns.values()))

    _insert_sql = (f"INSERT OR REPLACE INTO results (run_id, {', '.join(FACT_COLUMNS)}, {', '.join(ROW_COLUMNS)}) "
                   f"VALUES ({', '.join('?' * (1 + len(FACT_COLUMNS) + len(ROW_COLUMNS)))})")

    def transaction(self):
        return _Transaction(self.conn)

    def results(self, where: str = "", params: Iterable = ()) -> list[sqlite3.Row]:
        """Rows of the results table (read by column name: ``row["status"]``)."""
        cur = self.conn.cursor()
        cur.row_factory = sqlite3.Row
        return cur.execute(f"SELECT * FROM results {where} ORDER BY id", tuple(params)).fetchall()

    # -- disagreements ----------------------------------------------------------------------

    def write_disagreements(self, run_id: int, rows: Iterable[tuple]) -> None:
        with self.transaction():
            self.conn.executemany(
                "INSERT OR REPLACE INTO disagreements (run_id, puzzle_id, puzzle_hash, limit_, solver_a, "
                "status_a, count_a, solver_b, status_b, count_b) VALUES (?,?,?,?,?,?,?,?,?,?)",
                [(run_id, *row) for row in rows])

    def disagreements(self) -> list[dict]:
        cur = self.conn.execute("SELECT * FROM disagreements ORDER BY id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur]


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


def open_existing(path: str) -> Database:
    """A database that must already exist (for ``report``)."""
    if not Path(path).is_file():
        raise UsageError(f"no results database at {path} (make one with `puzzlebench bench --db {path}`)")
    return Database(path)


# -- facts about the run ------------------------------------------------------------------------

def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
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
