"""The competition tools that read the exported formats, run on an exported file: ACE (XCSP3,
the solver jar inside the ``pycsp3`` package, run with Java; Choco, the other jar there, a
second reader of the same files), MiniZinc with Gecode (Debian's
``minizinc``, which brings ``flatzinc``), minisat+ (OPB, Debian's ``minisat+``) and Exact
(OPB read by :func:`~puzzlebench.encoders.opb.read_opb` into the ``exact`` package's
solver).  Not an engine: what the round-trip tests and ``benchmarks/bench_tools.py`` run
to hold the exports to the tools that define the formats.

Each ``run_*`` returns a :class:`ToolAnswer`: the status, the solutions it printed (a value
per cell, decoded by the format's reader), the number of solutions the tool says it found,
and the tool's raw output, so that ``puzzlebench decode`` can be given the same text.
``missing_*`` says why a tool cannot be run here (and which package brings it), or ``None``.
"""

from __future__ import annotations

import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..encoders import minizinc, opb, xcsp3
from ..runtime.programs import run_tool
from .blocking import STOPPED, enumerate_by_blocking


@dataclass
class ToolAnswer:
    status: str                                  # SATISFIABLE, UNSATISFIABLE, UNKNOWN
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    count: int = 0                               # solutions found (enumeration: all, if complete)
    complete: bool = False                       # the search ended (not stopped at a limit)
    output: str = ""


def _pycsp3_jar(folder: str, pattern: str) -> Path | None:
    import importlib.util

    # found, not imported: importing pycsp3 sets up a model and prints a warning at exit
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.origin:
        return None
    found = sorted((Path(spec.origin).parent / "solvers" / folder).glob(pattern))
    return found[-1] if found else None


def ace_jar() -> Path | None:
    return _pycsp3_jar("ace", "ACE-*.jar")


def ace_version() -> str | None:
    """ACE's version as the name of the jar pycsp3 ships says it (``ACE-2.6.jar``), saying so:
    ACE prints its version ("ACE v2.6") only once it reads an instance, after a second of Java."""
    jar = ace_jar()
    found = re.fullmatch(r"ACE-(.+)\.jar", jar.name) if jar else None
    return f"{found.group(1)} (the name of pycsp3's jar, {jar.name})" if found else None


def choco_jar() -> Path | None:
    """Choco's XCSP3 front end, the other solver jar pycsp3 ships: a second reader of the files."""
    return _pycsp3_jar("choco", "choco-parsers-*.jar")


def _missing_jar(jar: Path | None, name: str) -> str | None:
    if shutil.which("java") is None:
        return "Java is not installed (Debian package default-jre-headless)"
    if jar is None:
        return f"{name} is not installed (pip install pycsp3: its jar ships inside)"
    return None


def missing_ace() -> str | None:
    return _missing_jar(ace_jar(), "ACE")


def missing_choco() -> str | None:
    return _missing_jar(choco_jar(), "Choco")


def missing_minizinc() -> str | None:
    if shutil.which("minizinc") is None:
        return "MiniZinc is not installed (Debian package minizinc)"
    if shutil.which("fzn-gecode") is None:
        return "Gecode's FlatZinc solver is not installed (Debian package flatzinc)"
    return None


def missing_minisat_plus() -> str | None:
    return None if shutil.which("minisat+") else "minisat+ is not installed (Debian package minisat+)"


def missing_exact() -> str | None:
    try:
        import exact  # noqa: F401
    except ImportError:
        return "Exact is not installed (pip install exact)"
    return None


def ace_solutions(solutions: int) -> list[str]:
    """ACE's argument asking for ``solutions`` solutions (0: all)."""
    return [f"-s={'all' if solutions == 0 else solutions}"]


def ace_answer(text: str, n_cells: int, source: str | None = None) -> ToolAnswer:
    """ACE's output read: it prints the last solution it found and ``d FOUND SOLUTIONS k``;
    ``d COMPLETE EXPLORATION`` when the search ended."""
    status, found = xcsp3.read_answer(text, n_cells, source)
    count = len(found)
    for line in text.splitlines():
        if line.startswith("d FOUND SOLUTIONS") and line.split()[-1].isdigit():
            count = int(line.split()[-1])
    return ToolAnswer(status, found, count, "d COMPLETE EXPLORATION" in text, text)


def run_ace(path: str | Path, n_cells: int, solutions: int = 1, timeout: float = 120) -> ToolAnswer:
    """ACE on an XCSP3 file, looking for ``solutions`` solutions (0: all)."""
    text = run_tool(["java", "-jar", str(ace_jar()), str(path), "-npc", *ace_solutions(solutions)], timeout)
    return ace_answer(text, n_cells, str(path))


def run_choco(path: str | Path, n_cells: int, timeout: float = 120) -> ToolAnswer:
    """Choco on an XCSP3 file: one solution (it prints it in the competition's ``v`` lines)."""
    text = run_tool(["java", "-cp", str(choco_jar()), "org.chocosolver.parser.xcsp.ChocoXCSP", str(path)], timeout)
    status, found = xcsp3.read_answer(text, n_cells, str(path))
    return ToolAnswer(status, found[:1], min(1, len(found)), False, text)


def minizinc_solutions(solutions: int) -> list[str]:
    """MiniZinc's arguments asking for ``solutions`` solutions (0: all)."""
    return ["--all-solutions"] if solutions == 0 else ["-n", str(solutions)]


def minizinc_answer(text: str, n_cells: int, source: str | None = None) -> ToolAnswer:
    status, found, complete = minizinc.read_answer(text, n_cells, source)
    return ToolAnswer(status, found, len(found), complete, text)


def run_minizinc(path: str | Path, n_cells: int, solutions: int = 1, timeout: float = 120) -> ToolAnswer:
    """MiniZinc with Gecode on a ``.mzn`` file, printing ``solutions`` solutions (0: all)."""
    text = run_tool(["minizinc", "--solver", "gecode", *minizinc_solutions(solutions), str(path)], timeout)
    return minizinc_answer(text, n_cells, str(path))


def run_minisat_plus(path: str | Path, timeout: float = 120) -> ToolAnswer:
    """minisat+ on an OPB file: one solution (it does not enumerate)."""
    text = run_tool(["minisat+", str(path)], timeout)
    status, true = opb.read_answer(text, str(path))
    pb = opb.read_opb(Path(path).read_text(), str(path))
    if status == "SATISFIABLE":
        opb.check_answer(pb, true, str(path))
        return ToolAnswer(status, [pb.decode(true)], 1, False, text)
    return ToolAnswer(status, [], 0, status == "UNSATISFIABLE", text)


def run_exact(path: str | Path, solutions: int = 1, timeout: float = 120) -> ToolAnswer:
    """Exact on an OPB file (read by :func:`~puzzlebench.encoders.opb.read_opb`, handed to
    Exact's Python interface): up to ``solutions`` solutions (0: all), each found one blocked
    over the candidates before the next run (the auxiliary variables follow the candidates).
    The output is written in the PB competition's form (``s``, ``v`` lines) for ``decode``."""
    import exact

    pb = opb.read_opb(Path(path).read_text(), str(path))
    solver = exact.Exact()
    names = [f"x{v}" for v in range(1, pb.n_vars + 1)]
    for name in names:
        solver.addVariable(name)
    for terms, relation, bound in pb.constraints:
        solver.addConstraint([(c, f"x{v}") for c, v in terms], True, bound, relation == "=", bound)
    blocked = pb.n_candidates or pb.n_vars     # a file without the header: block every variable
    first_output: list[str] = []

    def solve_once():
        said = solver.runFull(False, timeout)
        if said != "SAT":   # else stopped at the time limit
            return None if said in ("UNSAT", "INCONSISTENT") else STOPPED
        values = solver.getLastSolutionFor(names)
        if not first_output:
            first_output.append(opb_answer_text(values))
        return values

    def block(values) -> bool:
        chosen = [name for name, x in zip(names[:blocked], values) if x]
        solver.addConstraint([(-1, name) for name in chosen], True, 1 - len(chosen))
        return True

    found = enumerate_by_blocking(solve_once, block, solutions or None, solutions or sys.maxsize, None)
    decoded = [pb.decode([v for v, x in enumerate(values, start=1) if x]) for values in found.kept]
    status = "SATISFIABLE" if decoded else ("UNSATISFIABLE" if found.finished else "UNKNOWN")
    return ToolAnswer(status, decoded, len(decoded), found.finished, "".join(first_output) or f"s {status}\n")


def opb_answer_text(values: list[int]) -> str:
    return "s SATISFIABLE\nv " + " ".join(("" if x else "-") + f"x{v}" for v, x in enumerate(values, start=1)) + "\n"
