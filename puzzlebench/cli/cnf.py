"""``puzzlebench solve-cnf``: any DIMACS file, its models counted and answered in
SAT-competition form, exiting as SAT solvers do: 10 satisfiable, 20 unsatisfiable, 0 unknown
(the time limit struck before an answer), 1 the run failed, 2 bad input.

``export --to dimacs`` lives with the other export targets (:mod:`.export`), and ``decode``,
which reads a solver's answer to an exported puzzle back, in :mod:`.decode`."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace

from ..encoders.dimacs import ANSWER_EXIT, answer_text, read_dimacs
from ..engines.cnf_file import CnfModels, count_cnf_models
from ..errors import EngineError
from ..options import LIMIT, TIME
from ..results import Result, Status, Times, error_result, status_of
from ..runtime.clock import process_cpu
from ..runtime.limits import check_time_limit, normalise_limit
from .common import EXIT_SOME_ERRORS, read_text, report_error


def cmd_solve_cnf(args) -> int:
    started, cpu_started = time.perf_counter(), process_cpu()
    limit = normalise_limit(args.limit)
    check_time_limit(args.time_limit)
    text, source = read_text(args.file, "a DIMACS CNF file")
    cnf = read_dimacs(text, source)
    times = Times(parse=time.perf_counter() - started)
    try:
        found = count_cnf_models(cnf.n_vars, cnf.clauses, args.solver, limit, args.time_limit)
    except (EngineError, MemoryError) as exc:   # the run failed: 1, as for a record that failed
        return _failed(exc, source, args, limit, _finished(times, started, cpu_started))
    _finished(times, started, cpu_started)
    if args.format == "jsonl":
        size = {"variables": cnf.n_vars, "clauses": len(cnf.clauses)}
        print(json.dumps(_record(found, source, limit, times, size)))
    else:
        _print_answer(found, args.solver, args.limit)
    return ANSWER_EXIT[found.status]


def _finished(times: Times, started: float, cpu_started: float) -> Times:
    """``times`` (its parse time set) completed now: the total, the search, the CPU time."""
    times.total, times.cpu = time.perf_counter() - started, process_cpu() - cpu_started
    times.solve = times.total - times.parse
    return times


def _print_answer(found: CnfModels, solver: str, limit: int) -> None:
    """The count and the statistics in ``c`` lines, then the ``s`` and ``v`` lines."""
    stopped = ", time limit reached" if found.timed_out else ""
    print(f"c {solver}: {found.count_text()} model(s) found (limit {limit or 'all'}{stopped})")
    if found.free:
        print(f"c variables {found.free_text()} occur in no clause: each of the {found.found} model(s) "
              f"listed stands for 2^{found.free}; v lines give those below the last used false")
    print(f"c statistics: {json.dumps(found.stats.raw)}")
    sys.stdout.write(answer_text(found.status, found.model or []))


def _record(found: CnfModels, source: str, limit: int | None, times: Times, size: dict) -> dict:
    """The JSON object ``solve --format jsonl`` writes a puzzle (:meth:`Result.to_dict`), for the
    file: its status in solve's words, the count of the file's models (``null`` past 2^64: then
    ``found`` × 2^``free_variables``, in ``stats.raw``), the first model's literals as
    ``solution``."""
    status = status_of(2 if found.count is None else found.count, limit, found.timed_out)
    stats = replace(found.stats, raw={**found.stats.raw, "found": found.found, "free_variables": found.free})
    result = Result("cnf", found.solver, limit, status, found.count, times=times, stats=stats, size=size,
                    source=source)
    return {**result.to_dict(), "solution": " ".join(map(str, found.model)) if found.model else None}


def _failed(exc: BaseException, source: str, args, limit: int | None, times: Times) -> int:
    """A run that failed (an engine's error, memory exhausted): one line on standard error, the
    error's record in jsonl, exit 1."""
    if isinstance(exc, MemoryError):
        status, problem = Status.MEMOUT, "out of memory" + (f": {exc}" if str(exc) else "")
    else:
        status, problem = Status.ERROR, str(exc)
    if args.format == "jsonl":
        result = error_result(problem, kind="cnf", solver=args.solver, limit=limit, source=source, times=times)
        result.status = status
        print(json.dumps(result.to_dict()))
    report_error(f"{source}: error: {problem}")
    return EXIT_SOME_ERRORS


def register(sub) -> None:
    p = sub.add_parser("solve-cnf", help="solve any DIMACS CNF file; answer in SAT-competition form (s/v "
                                         "lines) and exit as SAT solvers do",
                       description="Solve any DIMACS CNF file and answer in SAT-competition form (s/v "
                                   "lines).  Exit codes, as SAT solvers exit: 10 a model found (counting "
                                   "too), 20 unsatisfiable, 0 unknown (the time limit struck first), 1 the "
                                   "run failed, 2 bad input.")
    p.add_argument("file", metavar="FILE", help="the CNF ('-' for standard input)")
    p.add_argument("--solver", default="sat", help="sat[:NAME] (a PySAT solver) or quine:h0|h1|h2; "
                                                    "default %(default)s")
    p.add_argument("--limit", type=LIMIT, default=1, metavar="K",
                   help="models to count (0 = all; each whole assignment blocked); default 1")
    p.add_argument("--time-limit", type=TIME, metavar="SECONDS", help="for the whole count (default: none)")
    p.add_argument("--format", choices=("text", "jsonl"), default="text",
                   help="text: c, s and v lines; jsonl: one JSON object, the record solve --format jsonl "
                        "writes (status in solve's words, count, the first model as solution) (default "
                        "%(default)s)")
    p.set_defaults(func=cmd_solve_cnf)
