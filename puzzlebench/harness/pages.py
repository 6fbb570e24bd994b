"""What the benchmark scripts share: the public sets' lines, holed grids, CPU and wall time of a
call, parts timed taking turns, a columnar result read whole, engines raced puzzle by puzzle, a
run's row and its table cells, the pages of ``results/`` they write, and tdoku's solver as the
reference of the 9x9 figures.

A public set is read from the data folder (``PUZZLEBENCH_DATA``, else ``../shared/data``
beside the repository), never copied.  A page opens with its provenance as an HTML comment
(command, writer, commit, date, machine, load: what ``bench`` stores in a run's row, from
:mod:`.database`), so that a figure says where it came from without prose; a script that
measures one section of a shared page splices that section in by its heading, and the
sections written by hand (design notes, a section's ``Notes:``) stay.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from ..engines.registry import make_engine
from ..generators.fill import pattern_sudoku_grid
from ..models.sudoku import Sudoku
from ..results import STATUS_CODE, Result, Status
from ..runtime.child import run_limited
from .database import git_commit, load, machine, now
from .report import shifted_geometric_mean
from .uncertainty import ALPHA, paired_time_test, ratio_interval, solved_test

DATA_ENV = "PUZZLEBENCH_DATA"
NOTES = "Notes:"   # a section's hand-written notes start at a line of their own


def data_folder() -> Path:
    """Where the public sets are: ``$PUZZLEBENCH_DATA``, else ``../shared/data`` beside the
    repository that holds the package."""
    given = os.environ.get(DATA_ENV)
    return Path(given) if given else Path(__file__).resolve().parents[3] / "shared" / "data"


def data_lines(name: str, every: int = 1, limit: int | None = None) -> list[str]:
    """The puzzle lines of a public set (blank and ``#`` lines left out): every ``every``-th
    line, at most ``limit`` of them."""
    with open(data_folder() / name) as f:
        lines = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]
    return lines[::every][:limit]


def spread(items: Sequence, count: int) -> list:
    """``count`` of ``items`` evenly spaced (every k-th, k = len // count), the whole list when
    it holds no more: a sample that covers a file sorted by difficulty."""
    if count >= len(items) or count <= 0:
        return list(items) if count > 0 else []
    step = len(items) // count
    return list(items[::step][:count])


def holed_sudokus(box: tuple[int, int], share: float, count: int, seed: int) -> list[Sudoku]:
    """``count`` seeded full grids of ``box`` blocks (``fill.pattern_sudoku_grid``), each with
    ``share`` of its cells removed at random: most have several solutions; the first ones are
    the same whatever the count."""
    n, rng = box[0] * box[1], random.Random(seed)
    puzzles = []
    for _ in range(count):
        grid = pattern_sudoku_grid(box, rng)
        holes = set(rng.sample(range(n * n), round(n * n * share)))
        puzzles.append(Sudoku(box, [0 if i in holes else v for i, v in enumerate(grid)]))
    return puzzles


def timed(fn: Callable):
    """(what ``fn()`` returned, wall seconds, CPU seconds of this process)."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def best_cpu(fn: Callable, repeat: int = 3):
    """:func:`timed` of the run of ``fn`` with the least CPU time: the machine is shared."""
    return min((timed(fn) for _ in range(repeat)), key=lambda run: run[2])


def take_turns(parts: dict[str, Callable], rounds: int) -> dict[str, list[tuple]]:
    """Each part's :func:`timed` runs over ``rounds`` rounds, the parts taking turns in each
    round so that a change of the machine's load falls on all of them alike."""
    runs: dict[str, list[tuple]] = {name: [] for name in parts}
    for _ in range(rounds):
        for name, fn in parts.items():
            runs[name].append(timed(fn))
    return runs


def columns_read(table) -> tuple[int, int]:
    """(puzzles unique with a verified solution, total nodes) of a columnar result
    (``solve_many(..., columns=True)``), every column a user reads looked at."""
    unique = ((table.status == STATUS_CODE[Status.UNIQUE]) & (table.count == 1) & table.verified
              & (table.solutions.min(axis=1) > 0))
    return int(unique.sum()), int(table.stats["nodes"].sum())


def race(puzzles: Sequence, specs: Sequence[str], seeds: Iterable[int] = (0,), limit: int | None = 2,
         once: Sequence[str] = (), time_limit: float | None = None, clock: str = "wall",
         wall_limit: float | None = None) -> Iterator[tuple[int, int, str, Result]]:
    """(puzzle index, seed, spec, result) of every engine and seed on a puzzle before the next
    puzzle (the machine is shared: a change of load falls on all alike), each run held to its
    limits in every phase as :func:`puzzlebench.solve` holds them.  An
    engine that takes no seed, or named in ``once``, runs at seed 0 only (its other runs would
    repeat that one); an answer neither out of time nor verified stops the script."""
    engines = {spec: make_engine(spec) for spec in specs}
    for k, puzzle in enumerate(puzzles):
        for seed in seeds:
            for spec, engine in engines.items():
                if seed and (spec in once or not engine.takes_seed()):
                    continue
                [r] = run_limited(engine.seeded(seed), [puzzle], limit=limit, time_limit=time_limit, keep=1,
                                  clock=clock, wall_limit=wall_limit)   # past the limit: a timeout
                if r.status is not Status.TIMEOUT and not r.verified:
                    raise SystemExit(f"{spec}, puzzle {k}, seed {seed}: {r.status} not verified {r.error or ''}")
                yield k, seed, spec, r


def race_results(puzzles: Sequence, specs: Sequence[str], **limits) -> dict[str, list[Result]]:
    """{spec: its result on each puzzle}: :func:`race` at seed 0."""
    out: dict[str, list[Result]] = {spec: [] for spec in specs}
    for _, _, spec, r in race(puzzles, specs, **limits):
        out[spec].append(r)
    return out


def run_row(spec: str, seed: int, r: Result, **fields) -> dict:
    """A run as a line of a JSON-lines file keeps it: ``fields``, then the engine, seed,
    status, CPU and wall seconds, nodes and the restarts and nogoods of a search that counts
    them, and the 1-minute load average."""
    return {**fields, "spec": spec, "seed": seed, "status": r.status.value, "cpu": r.times.cpu,
            "wall": r.times.total, "nodes": r.stats.nodes, "restarts": r.stats.raw.get("restarts"),
            "nogoods": r.stats.raw.get("nogoods"), "load": float(load_now().split()[0])}


def append_rows(path: str | Path, rows: Iterable[dict]) -> None:
    """``rows`` appended to a JSON-lines file, each written as it comes (a long run keeps what
    it did when stopped)."""
    with open(path, "a") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
            out.flush()


def read_rows(path: str | Path) -> list[dict]:
    """The rows of a JSON-lines file (none when it is absent)."""
    path = Path(path)
    return [json.loads(line) for line in path.read_text().splitlines() if line] if path.exists() else []


def seed_range(text: str) -> range:
    """Seeds from a script's argument: '5', seeds 0 to 4; '1-2', seeds 1 and 2 (an argparse
    type: anything else is its error)."""
    first, _, last = text.partition("-")
    try:
        seeds = range(int(first), int(last) + 1) if last else range(int(first))
    except ValueError:
        seeds = range(0)
    if not seeds or seeds.start < 0:
        raise argparse.ArgumentTypeError(f"not a count of seeds or a range 'a-b' of them: {text!r}")
    return seeds


def decided(row: dict) -> bool:
    """A run's row that decided (not out of time)."""
    return row["status"] != Status.TIMEOUT.value


def capped_cpu(rows: Sequence[dict], limit: float) -> list[float]:
    """Each run's CPU seconds, at most ``limit``, a run out of time counted at ``limit``."""
    return [min(r["cpu"], limit) if decided(r) else limit for r in rows]


def decided_sgm(rows: Sequence[dict], limit: float) -> tuple[int, float]:
    """(runs decided, shifted geometric mean of CPU seconds with a shift of 1 s, a run out of
    time counted at ``limit``): the two cells of a comparison of runs on the CPU clock."""
    return sum(map(decided, rows)), shifted_geometric_mean(capped_cpu(rows, limit), 1.0)


def paired_figures(mine: Sequence[dict], theirs: Sequence[dict], limit: float) -> dict:
    """Two engines' runs on the same puzzles, ``mine[i]`` and ``theirs[i]`` a pair, on the CPU
    clock (shift 1 s, a run out of time counted at ``limit``): how many each decided, how many
    only one of the two did with the exact McNemar test's p, each shifted geometric mean, their
    ratio theirs / mine (mine's speed-up) with its 95% bootstrap interval over the pairs, and
    the Wilcoxon test's p of a change in time beyond 5% (:mod:`.uncertainty`)."""
    ours, ref = [decided(r) for r in mine], [decided(r) for r in theirs]
    gained = sum(a and not b for a, b in zip(ours, ref))
    lost = sum(b and not a for a, b in zip(ours, ref))
    times = [capped_cpu(mine, limit), capped_cpu(theirs, limit)]
    sgm = [shifted_geometric_mean(side, 1.0) for side in times]
    test = paired_time_test(times[1], times[0])
    return {"runs": len(mine), "decided": (sum(ours), sum(ref)), "only": (gained, lost),
            "p_decided": solved_test(gained, lost), "sgm": tuple(sgm), "speedup": sgm[1] / sgm[0],
            "interval": ratio_interval(times[1], times[0], 1.0), "p_time": test[0] if test else None}


def told_apart(figures: dict) -> bool:
    """Whether :func:`paired_figures` tells the two engines apart at the 5% level: by the runs
    only one decided, or by time (the speed-up's interval leaves 1 out, or the Wilcoxon test)."""
    interval, p_time = figures["interval"], figures["p_time"]
    return (figures["p_decided"] < ALPHA or (interval is not None and not interval[0] <= 1 <= interval[1])
            or (p_time is not None and p_time < ALPHA))


def speedup_words(figures: dict) -> str:
    """The speed-up of :func:`paired_figures` and its interval: ``0.98 [0.90, 1.07]``."""
    interval = figures["interval"]
    return f"{figures['speedup']:.2f}" + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")


def md_table(header: Sequence[str], rows: Iterable[Sequence], align: str = "") -> list[str]:
    """A Markdown table's lines: ``header``, its rule (``align``: ``l`` or ``r`` a column; by
    default the first left, the others right) and ``rows`` (each cell as ``str`` gives it)."""
    align = align or "l" + "r" * (len(header) - 1)
    return [_table_row(header), "|" + "".join("---|" if a == "l" else "---:|" for a in align),
            *map(_table_row, rows)]


def _table_row(cells: Sequence) -> str:
    return "| " + " | ".join(map(str, cells)) + " |"


def command_line(argv: Sequence[str] | None = None) -> str:
    """The command that ran this script, as a page names it: ``python benchmarks/NAME.py`` and
    its arguments, ``--out`` left out (where the page went is the page) and a path outside the
    working folder given by its file name (a machine's layout is no provenance)."""
    argv = list(sys.argv if argv is None else argv)
    words, skip = [], False
    for word in argv[1:]:
        if skip or word == "--out" or word.startswith("--out="):
            skip = word == "--out"
            continue
        words.append(Path(word).name if word.startswith(("/", "..")) else word)
    return " ".join(["python", f"benchmarks/{Path(argv[0]).name}", *words])


def load_now() -> str:
    """The load averages over 1, 5 and 15 minutes, as a run's row stores them."""
    return load() or "unknown"


def machine_words() -> str:
    """The processor, its cores, the memory and the Python, in a line."""
    m = machine()
    memory = f", {m['memory_bytes'] / 2**30:.0f} GiB" if m["memory_bytes"] else ""
    return f"{m['cpu_model']}, {m['cores']} cores{memory}, Python {sys.version.split()[0]}"


def provenance(command: str, writer: str, loads: Sequence[str]) -> list[str]:
    """The HTML comment that opens a page: what made its figures, at which commit, when, where
    and under which load (``loads``: the 1-minute averages read during the run)."""
    ones = [float(text.split()[0]) for text in loads if text and text != "unknown"]
    return ["<!--", "provenance:", f"  command: {command}", f"  writer: {writer}",
            f"  commit: {(git_commit() or 'unknown')[:12]}", f"  date: {now()}",
            f"  machine: {machine_words()}",
            f"  load: {min(ones):.2f} to {max(ones):.2f}" if ones else "  load: unknown", "-->"]


def write_page(path: str | Path, *, title: str, lead: str, command: str, writer: str, loads: Sequence[str],
               lines: Sequence[str], keep: Sequence[str] = (NOTES, "## Design notes", "## Reading")) -> str:
    """The page at ``path``: its provenance, title, what it measures (``lead``), command and
    ``lines``, then what the page there now holds from the first line of ``keep`` on (written
    by hand: notes, design notes).  Returns the text written."""
    path = Path(path)
    old = path.read_text() if path.exists() else ""
    kept = [at for at in (_at(old, heading) for heading in keep) if at >= 0]
    text = "\n".join([*provenance(command, writer, loads), "", f"# {title}", "", lead, "", f"Command: `{command}`", "",
                      *lines]).rstrip("\n") + "\n"
    if kept:
        text += "\n" + old[min(kept):]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return text


def splice_section(path: str | Path, heading: str, lines: Sequence[str]) -> None:
    """The page with the section ``heading`` (a line of its own, up to the next heading of its
    level or above, or to its ``Notes:``) replaced by ``heading`` and ``lines``; a section the
    page lacks is added at its end."""
    path = Path(path)
    text = path.read_text() if path.exists() else ""
    body = "\n".join([heading, "", *lines]).rstrip("\n") + "\n"
    start = _at(text, heading)
    if start < 0:
        path.write_text(text.rstrip("\n") + ("\n\n" if text else "") + body)
        return
    level = heading.split(" ", 1)[0]
    after = start + len(heading) + 1
    ends = [at for at in (_next_heading(text, after, len(level)), _at(text, NOTES, after)) if at >= 0]
    end = min(ends) if ends else len(text)
    path.write_text(text[:start] + body + ("\n" + text[end:] if end < len(text) else ""))


def _at(text: str, line: str, start: int = 0) -> int:
    """Where the line ``line`` (whole) starts in ``text`` from ``start``, or -1."""
    if start == 0 and text.startswith(line + "\n"):
        return 0
    at = text.find("\n" + line + "\n", max(0, start - 1))
    return at + 1 if at >= 0 else -1


def _next_heading(text: str, start: int, level: int) -> int:
    """Where the next heading of ``level`` hashes or fewer starts from ``start``, or -1."""
    at = start
    for line in text[start:].splitlines(keepends=True):
        hashes = len(line) - len(line.lstrip("#"))
        if 0 < hashes <= level and line[hashes:hashes + 1] == " ":
            return at
        at += len(line)
    return -1


class Tdoku:
    """tdoku's solver (T. Dillon, github.com/t-dillon/tdoku), the reference of the 9x9 figures,
    from the shared library benchmarks/bench_bitboard.py's docstring builds: one call
    (``TdokuBatch``) runs a whole set through ``TdokuSolverDpllTriadSimd`` with limit 2."""

    STRIDE = 96   # 81 characters, a NUL (tdoku reads byte 81 to tell a pencilmark grid), padding

    def __init__(self, path: str):
        self.lib = ctypes.CDLL(path)
        self.lib.TdokuBatch.restype = ctypes.c_size_t
        self.lib.TdokuBatch.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t,
                                        ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]

    def prepare(self, lines: list[str]) -> bytes:
        """tdoku's input form, '.' a blank (untimed: its run_benchmark loads first)."""
        return b"".join(line.replace("0", ".").encode().ljust(self.STRIDE, b"\0") for line in lines)

    def run(self, packed: bytes, n: int) -> tuple[int, int]:
        """(puzzles with exactly one solution, total guesses by tdoku's own counter)."""
        counts, guesses = ctypes.create_string_buffer(n), ctypes.c_size_t()
        return self.lib.TdokuBatch(packed, n, self.STRIDE, 2, counts, ctypes.byref(guesses)), guesses.value
