"""``puzzlebench solve-smt2``: count the models of any SMT-LIB2 file (one written by ``export
--to smt2*`` or not) with Z3, over every constant the file declares, and print them: as cell
values when the file is puzzlebench's (its variables named ``c<cell>``, ``x<cell>_<value>``),
else as the constants' values."""

from __future__ import annotations

import re

from ..encoders.smt import decode_assignment, header_facts
from ..engines.smt import count_smt2_models_apart
from ..errors import UsageError
from ..options import LIMIT, TIME
from ..runtime.limits import check_time_limit, normalise_limit
from .common import EXIT_OK, read_text

_CELL_NAME = re.compile(r"(c|x)([0-9]+)(?:_([0-9]+))?")


def cmd_solve_smt2(args) -> int:
    import z3

    limit = normalise_limit(args.limit)
    time_limit = check_time_limit(args.time_limit)
    text, source = read_text(args.file, "an SMT-LIB2 script")
    if not any(line.split(";", 1)[0].strip() for line in text.splitlines()):
        # comments and blanks alone: empty, as every other reader says (not "1 model", exit 0)
        raise UsageError(f"{source}: empty input: no SMT-LIB2 command")
    _, fixed, n_cells = header_facts(text, source)

    def show(k: int, values: list[tuple[str, str]]) -> None:
        cells = cell_values(values, fixed, n_cells)
        if cells is not None:
            print(f"solution {k}: {','.join(map(str, cells))}")
        else:
            print(f"solution {k}: " + " ".join(f"{name}={value}" for name, value in values))

    found = count_smt2_models_apart(text, source, limit, time_limit, show)
    ending = {"sat": "", "unsat": " (unsat)" if found.count == 0 else ""}.get(
        found.ending, f" (stopped: {found.reason})")
    plural = "" if found.count == 1 else "s"
    stats = found.stats
    # a counter Z3 does not report (no search: its simplifier decided the formula) is left out
    counters = " ".join(f"{name}={value}" for name, value in (
        ("decisions", stats.nodes), ("conflicts", stats.conflicts), ("propagations", stats.propagations))
        if value is not None) or "no search counters"
    print(f"{found.count} model{plural}{ending}; {counters} [z3 {z3.get_version_string()}]")
    return EXIT_OK


def cell_values(values: list[tuple[str, str]], fixed: dict[int, int], n_cells: int | None) -> tuple[int, ...] | None:
    """A model as a puzzle's cell values, when the file is puzzlebench's: every constant a
    cell variable (``c<cell>`` Int, ``x<cell>_<value>`` Bool) or an auxiliary one, each Int
    a value from 0, and the cells named (with those decided before the solver) exactly
    ``0..n-1``, ``n`` the cells the header says.  Else None: the model is listed by name (a
    file naming ``c99999999999`` alone is no puzzle of 10^11 cells to allocate)."""
    cells = []
    for name, value in values:
        m = _CELL_NAME.fullmatch(name)
        if m is None:
            if not re.fullmatch(r"p[0-9]+_[0-9]+_[0-9]+", name):   # a Skyscrapers prefix height
                return None
            continue
        if m.group(3) is None and not value.isdigit():
            return None
        cells.append((int(m.group(2)), int(m.group(3)) if m.group(3) else None, value))
    named = {cell for cell, _, _ in cells} | set(fixed)
    size = len(named)
    if not cells or named != set(range(size)) or (n_cells is not None and n_cells != size):
        return None
    return decode_assignment(cells, size, fixed)


def register(sub) -> None:
    p = sub.add_parser("solve-smt2", help="count the models of an SMT-LIB2 file with Z3 (e.g. from export --to smt2)")
    p.add_argument("file", metavar="FILE", help="the SMT-LIB2 file ('-' for standard input)")
    p.add_argument("--limit", type=LIMIT, default=1, help="models to look for (0 = all); default 1")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="for the whole count (default: none)")
    p.set_defaults(func=cmd_solve_smt2)
