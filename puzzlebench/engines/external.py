"""Solver programs run on an exported file (``ext:cadical``, ``ext:minisat``, ``ext@cmd=…``,
``ext:minizinc``, ``ext:ace``, ``ext:minisat+``): the puzzle's CNF (or MiniZinc, XCSP3, OPB)
written to a file, the program run on it in a process of its own, its answer read back,
decoded and verified like any engine's.  Why a program and not a library: this is how the
competitions run solvers, and it reaches the solvers no Python binding offers.

The program runs in a process group of its own, killed whole at the deadline and dying with
the Python process that started it (``PR_SET_PDEATHSIG`` through util-linux's ``setpriv``,
its session's children through :mod:`.watchdog`), so that a killed bench worker leaves no
solver behind.  Counting is the tool's own enumeration or, for SAT programs and minisat+, a
blocking clause and one more run per solution.  How answers, limits and statistics are read:
:class:`ExternalEngine`.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache

from typing import Callable

from ..encoders import opb
from ..encoders.budget import data_left
from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, DEFAULT_ENCODING, ENCODINGS, Cnf, encode, estimated_export_bytes
from ..encoders.dimacs import SAT_EXIT, UNSAT_EXIT, read_answer, write_clauses
from ..encoders.registry import FORMATS, exporter
from ..errors import EngineError, ParseError, SolverSpecError
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.child import says_out_of_memory, status_bytes
from ..runtime.clock import past_cpu_limit, usage_cpu
from ..runtime.limits import Deadline
from ..runtime.output import OUTPUT_LIMIT, OutputTooLarge, reap
from ..runtime.programs import Program, dies_with_parent, held_to, kill_session, wait_program
from ..runtime.watchdog import WATCHDOG
from . import tool_runner
from .base import EVERY_KIND, Engine, Option, SearchOutcome, limit_reached
from .blocking import STOPPED, enumerate_by_blocking

CNF_PLACE = "{cnf}"        # where a command takes the formula's path (else it goes last)
RESULT_PLACE = "{result}"  # where a command takes the path of the file it writes its answer to
MODEL_PLACE = "{model}"    # a model preset's file (.mzn, .xml, .opb)
SOLUTIONS_PLACE = "{solutions}"   # the words asking an enumerating program for the limit's solutions
SEED_PLACE = "{seed}"      # where a preset takes its seed option's words; in ext@cmd, the seed itself
ACE_JAR = "{ace.jar}"      # ACE's jar inside the pycsp3 package
COUNTERS = ("conflicts", "decisions", "propagations")


@dataclass(frozen=True)
class Preset:
    """A solver program Debian packages: its name on PATH, the package, and the arguments
    it is run with (``{cnf}``, ``{result}`` stand for the files' paths)."""

    name: str
    program: str
    package: str
    arguments: tuple[str, ...]
    version_arguments: tuple[str, ...] | None = ("--version",)
    """What makes the program print its version (``None``: nothing does)."""
    version_pattern: str = r"\bversion\s+(\S+)"
    """Where the version stands in what it prints (group 1); the first line when it fails."""
    version_label: str | None = None
    """Where that version came from, when not from ``--version`` (minisat+: its banner)."""
    version_of: Callable[[], str | None] | None = None
    """The version found some other way, saying where, for a program that prints none (ACE:
    the name of the jar pycsp3 ships)."""
    statistics_banner: str | None = None
    """A line the program prints before its statistics, which leave out the counters that are
    zero (CaDiCaL's and Kissat's ``c --- [ statistics ] ---``): after it, a counter not printed
    is 0."""
    format: str = "dimacs"
    """The file it reads: ``dimacs``, or another target of the export registry
    (``minizinc``, ``xcsp3``, ``opb``: :data:`~puzzlebench.encoders.registry.FORMATS`), written
    by the export of that name, in a file of its suffix."""
    solutions: Callable[[int], list[str]] | None = None
    """For a program that enumerates: the words asking for ``k`` solutions (0: all), in place
    of ``{solutions}``; ``None``: one solution a run, counted by blocking and re-running."""
    answer: Callable[..., "tool_runner.ToolAnswer"] | None = None
    """For a program that enumerates: the reader of its output, ``(text, n_cells, source)``
    (:mod:`.tool_runner`)."""
    missing: Callable[[], str | None] | None = None
    """Why the program cannot run here beyond its absence from PATH (a jar, a back end)."""
    statistics_lines: str | None = None
    """A regular expression of the lines of statistics a program prints outside the answer's
    ``c`` comments (z3's ``(:sat-conflicts 4`` block): read for counters, left out of the answer."""
    seed: Callable[[int], list[str]] | None = None
    """The words giving the program the engine seed (``--engine-seed``), in place of
    ``{seed}``; ``None``: it takes none."""
    proof: Callable[[str], list[str]] | None = None
    """For a SAT program that writes a DRAT proof of an unsatisfiable formula: the words naming
    the proof's file (given after the formula's path); ``None``: it writes none (its claims are
    certified by another prover: :mod:`.certify`)."""
    parent_death: str = "KILL"
    """The signal the program gets when the process that started it dies (``PR_SET_PDEATHSIG``).
    MiniZinc runs its solver (``fzn-gecode``) in a process group of its own, which a SIGKILL to
    MiniZinc leaves running, its parent init (after a Ctrl-C of ``bench``, or a worker killed):
    on SIGTERM MiniZinc ends its solver itself."""


PRESETS = {p.name: p for p in (
    # statistics are printed by default at the end of a run
    Preset("cadical", "cadical", "cadical", (SEED_PLACE, CNF_PLACE), statistics_banner=r"^c -+ \[ statistics \] -+$",
           seed=lambda n: [f"--seed={n}"], proof=lambda path: [path]),
    # Debian packages kissat from Debian 13 (trixie: 4.0.2); Debian 12 (bookworm) has none
    Preset("kissat", "kissat", "kissat (from Debian 13)", (SEED_PLACE, CNF_PLACE),
           statistics_banner=r"^c -+ \[ statistics \] -+$", seed=lambda n: [f"--seed={n}"],
           proof=lambda path: [path]),
    # -verb=1 prints its statistics; the model goes to the result file only; its -rnd-seed
    # must be above 0 ("value <0> is too small"): seed N is given as N + 1
    Preset("minisat", "minisat", "minisat", ("-verb=1", SEED_PLACE, CNF_PLACE, RESULT_PLACE), None,
           seed=lambda n: [f"-rnd-seed={n + 1}"]),
    # -v prints the statistics as 'c N conflicts' lines
    Preset("picosat", "picosat", "picosat", ("-v", SEED_PLACE, CNF_PLACE), seed=lambda n: ["-s", str(n)]),
    Preset("cryptominisat5", "cryptominisat5", "cryptominisat", (SEED_PLACE, CNF_PLACE),
           seed=lambda n: ["--random", str(n)]),
    # Z3's own program on DIMACS (-st: its statistics as ':sat-conflicts N' pairs); clasp, the
    # ASP solver of Potassco, reads DIMACS too (--stats: 'c Conflicts : N', 'c Choices : N')
    Preset("z3", "z3", "z3 (or pip's z3-solver, whose z3 program is on PATH in its environment)",
           ("-dimacs", "-st", SEED_PLACE, CNF_PLACE), statistics_lines=r"^\s*\(?:[\w.-]+\s+[\d.]+\)?\s*$",
           seed=lambda n: [f"sat.random_seed={n}"]),
    Preset("clasp", "clasp", "clasp", ("--stats", SEED_PLACE, CNF_PLACE), seed=lambda n: [f"--seed={n}"]),
    # the competition formats: exports of the registry (encoders/registry.py FORMATS), each
    # read back by its answer reader (engines/tool_runner.py runs the same tools in tests)
    Preset("minizinc", "minizinc", "minizinc, and flatzinc for Gecode",
           ("--solver", "gecode", "--statistics", SEED_PLACE, SOLUTIONS_PLACE, MODEL_PLACE), format="minizinc",
           solutions=tool_runner.minizinc_solutions, answer=tool_runner.minizinc_answer,
           missing=tool_runner.missing_minizinc, parent_death="TERM", seed=lambda n: ["-r", str(n)]),
    Preset("ace", "java", "default-jre-headless, and pip install pycsp3 (ACE's jar)",
           ("-jar", ACE_JAR, MODEL_PLACE, "-npc", SOLUTIONS_PLACE, SEED_PLACE), version_arguments=None,
           version_of=tool_runner.ace_version, format="xcsp3", solutions=tool_runner.ace_solutions,
           answer=tool_runner.ace_answer, missing=tool_runner.missing_ace, seed=lambda n: [f"-seed={n}"]),
    # run with no file, minisat+ prints its banner ("MiniSat+ 1.0, based on MiniSat v1.13") and
    # its usage, and ends; it has no version option
    Preset("minisat+", "minisat+", "minisat+", (MODEL_PLACE,), version_arguments=(),
           version_pattern=r"^MiniSat\+ (\S+?),", version_label="its banner", format="opb"),
)}
"""In the order of the variants (the first one present is the default)."""


def missing_reason(preset: Preset) -> str:
    return f"the program {preset.program!r} is not on PATH (Debian package: {preset.package})"


def found_presets() -> tuple[tuple[str, ...], dict[str, str]]:
    """(presets whose program is on PATH, in order; {missing preset: why}), looked up on each
    call: a program installed, or taken off PATH, while the process runs is seen at once."""
    present, missing = [], {}
    for preset in PRESETS.values():
        why = missing_reason(preset) if not shutil.which(preset.program) else (
            preset.missing() if preset.missing else None)
        if why is None:
            present.append(preset.name)
        else:
            missing[preset.name] = why
    return tuple(present), missing


class _PresentPresets:
    """``ExternalEngine.variants``, read on the class or an engine: the presets found now."""

    def __get__(self, instance, owner) -> tuple[str, ...]:
        return found_presets()[0]


# -- what the programs print ---------------------------------------------------------------

_COUNTER = "|".join(COUNTERS)
_STAT_FORMS = (
    re.compile(rf"^c\s+({_COUNTER})\s*:\s*(\d+)(?:\s|$)", re.M),   # CaDiCaL, Kissat, CryptoMiniSat
    re.compile(rf"^c\s+(\d+)\s+({_COUNTER})\s*$", re.M),           # PicoSAT -v
    re.compile(rf"^({_COUNTER})\s*:\s*(\d+)(?:\s|$)", re.M),       # MiniSat, Glucose without 'c'
)


_NAMED_STATS = (   # (a program's own names of a counter, our counter), the first line of each
    (re.compile(r"^c\s+Conflicts\s*:\s*(\d+)(?:\s|$)", re.M), "conflicts"),     # clasp
    (re.compile(r"^c\s+Choices\s*:\s*(\d+)(?:\s|$)", re.M), "decisions"),       # clasp
    (re.compile(r":sat-conflicts\s+(\d+)"), "conflicts"),                        # z3 -st
    (re.compile(r":sat-decisions\s+(\d+)"), "decisions"),                        # z3 -st
)
_Z3_PROPAGATIONS = re.compile(r":sat-propagations-(?:2ary|nary)\s+(\d+)")   # binary + longer clauses


def parse_statistics(text: str, banner: str | None = None) -> dict[str, int]:
    """The counters a solver printed (conflicts, decisions, propagations), the first line of
    each; a counter printed in another form (``1.2 M``) is not read: never a guess.  Where the
    program leaves out zero counters after a ``banner`` line (a regular expression), and printed
    it, a counter it left out is 0."""
    found: dict[str, int] = {}
    for i, form in enumerate(_STAT_FORMS):
        for match in form.finditer(text):
            name, number = (match.group(2), match.group(1)) if i == 1 else match.groups()
            found.setdefault(name, int(number))
    for form, name in _NAMED_STATS:
        match = form.search(text)
        if match:
            found.setdefault(name, int(match.group(1)))
    z3_propagations = _Z3_PROPAGATIONS.findall(text)
    if z3_propagations:
        found.setdefault("propagations", sum(map(int, z3_propagations[:2])))
    if banner is not None and re.search(banner, text, re.M):
        for name in COUNTERS:
            found.setdefault(name, 0)
    return found


@dataclass
class Run:
    """One run of the program: its answer (status, literals), its counters, its time."""

    status: str                       # SATISFIABLE, UNSATISFIABLE, or KILLED at the deadline
    literals: list[int]
    counters: dict[str, int]
    seconds: float
    killed_by: str | None = None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:120] if lines else ""


class ExternalEngine(Engine):
    """A solver program per run (see the module doc).

    The formula is the one the ``sat`` engine gives PySAT (:mod:`puzzlebench.encoders.cnf`, the same
    ``encoding`` and ``amo`` options), written with the self-describing header of
    :mod:`puzzlebench.encoders.dimacs` (so a file left behind can be decoded on its own) and a unit
    clause per given.  The program runs in a process group of its own, and the whole group is
    killed (SIGKILL) when the run's deadline passes: the result is a ``timeout`` whose ``error``
    names the signal.  On Linux the program also dies with the Python process that started it
    (``PR_SET_PDEATHSIG``, set by util-linux's ``setpriv``), and what the program started in its
    session (MiniZinc's Gecode, in a process group of its own) dies too, ended by the starting
    process's watchdog (:mod:`puzzlebench.runtime.watchdog`), so a killed bench worker leaves no
    solver behind.  The files (the formula, a result file) are made in the temporary folder
    (``TMPDIR``) for each search and removed at its end.

    Answers: the SAT competition's form on standard output (``s SATISFIABLE`` /
    ``s UNSATISFIABLE``, ``v`` lines, exit code 10 / 20; :func:`~puzzlebench.encoders.dimacs.
    read_answer`), or, where the command names a result file (``{result}``, as MiniSat 2.2 takes
    it: ``minisat IN OUT`` writes ``SAT`` and the literals there, its standard output holding only
    statistics), that file.  Anything else (no status, a word that is no literal, an exit code
    that contradicts the status, a crash) is an ``error`` naming the program.

    Counting: one run finds one model.  For ``limit`` 2, or all solutions, the engine adds a
    blocking clause (the negation of the model's true candidates of the open cells: another
    solution differs there) and runs the program again, until it answers UNSAT, the limit is
    reached or the clock runs out.  So ``k`` solutions cost ``k + 1`` runs (``k`` at the limit),
    each a new process reading the whole formula again: the raw counter ``runs`` says how many, and
    the search statistics are the sums over the runs (no run shares learnt clauses with another,
    unlike the ``sat`` engine's kept solver).

    The competition formats have presets of their own: ``ext:minizinc`` (MiniZinc with Gecode on
    the ``.mzn`` of :mod:`puzzlebench.encoders.minizinc`), ``ext:ace`` (ACE, the jar inside pycsp3,
    run with Java on the XCSP3 of :mod:`puzzlebench.encoders.xcsp3`) and ``ext:minisat+`` (on the OPB
    of :mod:`puzzlebench.encoders.opb`).  Their answers are read by the readers of those modules
    (through :mod:`puzzlebench.engines.tool_runner`, which runs the same tools in the round-trip tests) and
    verified like any engine's.  MiniZinc and ACE count by their own enumeration, one run asked for
    ``limit`` solutions (``-n K`` / ``--all-solutions``, ``-s=K`` / ``-s=all``): the count is the
    tool's (ACE prints only the last solution it found, with the number found, so one solution is
    verified; MiniZinc prints each).  minisat+ does not enumerate: after each answer, a constraint
    "one of its true candidates is false" is added to the OPB file and the program runs again.
    The same process handling (a process group killed at the deadline, dying with its parent)
    serves every preset.

    Under a memory limit (``--memory-limit``, the bench's and the commands' child process, which
    set a soft ``RLIMIT_DATA`` on themselves), the program's own data is held to what the limit
    leaves (util-linux's ``prlimit``; it would otherwise inherit the whole cap, the Python process's
    data included), and a program that ends badly for want of memory (it says so: bad_alloc,
    MemoryError, "out of memory"; a SIGKILL not ours; or its peak at 90% of its share) is a
    ``memout`` naming it, its exit and its last words.  The program's own account (``wait4``: its
    reaped children's too, MiniZinc's Gecode) is kept in raw ``program_cpu`` (summed over the
    search's runs, and in the run's CPU time) and ``program_peak_memory`` (the largest), which the
    harness weighs against the worker's peak.  On the CPU clock each program holds ``RLIMIT_CPU``
    and its CPU time is read while it runs (:func:`_wait`).

    Statistics are read from what each program prints, where it prints them: CaDiCaL, Kissat and
    CryptoMiniSat ``c conflicts: N``, PicoSAT (with ``-v``) ``c N conflicts``, MiniSat
    ``conflicts : N`` (no ``c``).  A counter a run did not print (a killed run, a program that
    prints none) leaves the shared statistic empty, never a partial sum.  MiniZinc's
    ``--statistics`` lines give Gecode's ``nodes``, ``failures`` (a failed node: a dead end, the
    ``backtracks`` column) and ``propagations``; ACE's are not read."""

    family = "ext"
    summary = ("solver programs on the exported file, one process a run: SAT programs on DIMACS (presets "
               "for Debian's binaries, or any program: ext@cmd=PROGRAM ARGS), MiniZinc+Gecode, ACE "
               "(XCSP3) and minisat+ (OPB); counting by the tool's enumeration, or by blocking and re-running")
    kinds = EVERY_KIND
    library = "SAT programs"
    seed_parameter = ("the program's own seed option: cadical, kissat, clasp --seed=N; picosat -s N; cryptominisat5 "
            "--random N; z3 sat.random_seed=N; minisat -rnd-seed=N+1 (it takes no 0); minizinc -r N; "
            "ace -seed=N; minisat+ takes none; ext@cmd: the number where {seed} stands in the command")
    holds_time_limit = False   # the Python encoder looks at no clock (a 64x64 takes minutes)
    variants = _PresentPresets()
    options = (
        Option("cmd", str, "", "the program and its arguments (without a preset: the file's "
               "path goes last, or where {cnf} stands; {result}: the file it writes its answer "
               "to; {seed}: the engine seed); with a preset, the program to run in its stead"),
        Option("encoding", str, DEFAULT_ENCODING, "CNF encoding of the DIMACS presets: " + ", ".join(ENCODINGS),
               ENCODINGS, applies=lambda engine, on: engine.cnf_only()),
        Option("amo", str, DEFAULT_AMO, "at-most-one encoding of the DIMACS presets: " + ", ".join(AMO_ENCODINGS),
               AMO_ENCODINGS, applies=lambda engine, on: engine.cnf_only()),
    )
    statistics = {
        "nodes": "decisions as the program prints them (CaDiCaL, Kissat, CryptoMiniSat 'c decisions: N', "
                 "MiniSat 'decisions : N', PicoSAT -v 'c N decisions', clasp 'c Choices : N', z3 -st "
                 "':sat-decisions N'), summed over its runs: one run a "
                 "model and one more to find none (raw 'runs'); empty where a run printed none; "
                 "ext:minizinc: Gecode's nodes (%%%mzn-stat: nodes=N); ext:ace: none",
        "backtracks": "ext:minizinc: Gecode's failures (failed nodes, %%%mzn-stat: failures=N)",
        "conflicts": "conflicts as the program prints them, summed over its runs",
        "propagations": "propagations as the program prints them, summed over its runs (z3: "
                        ":sat-propagations-2ary + :sat-propagations-nary; clasp prints none); ext:minizinc: "
                        "Gecode's propagations",
    }

    def __init__(self, variant: str | None = None, options: dict | None = None):
        options = dict(options or {})
        command = str(options.get("cmd", "")).strip()
        missing = found_presets()[1]
        if variant in missing:
            raise SolverSpecError(f"solver 'ext:{variant}' is not available here: {missing[variant]}")
        if variant is None and command:
            # a command without a preset: the competition's conventions, no variant
            super().__init__(None if not self.variants else self.variants[0], options)
            self.variant = None
        else:
            super().__init__(variant, options)
        self.preset = PRESETS[self.variant] if self.variant else None
        self.command = self._command(command)
        self.program = os.path.basename(self.command[0])
        self._bodies: dict[tuple, str] = {}   # base formula's key → its clauses as DIMACS text
        self._program_peak: int | None = None   # the largest resident set of this search's runs (bytes)
        self._program_cpu = 0.0                  # their CPU seconds, user + system, summed

    def load(self) -> None:
        """The watchdog of this process's programs started before a memory cap (its Python
        would not start under a small one)."""
        super().load()
        WATCHDOG.start()

    def _command(self, command: str) -> list[str]:
        """The command line, with ``{cnf}`` (and ``{result}``) where the paths go."""
        try:
            words = shlex.split(command)
        except ValueError as exc:
            raise SolverSpecError(f"ext@cmd={command}: {exc}") from None
        if self.preset is not None:
            program = words or [self.preset.program]
            jar = str(tool_runner.ace_jar()) if ACE_JAR in self.preset.arguments else ""
            words = program + [jar if w == ACE_JAR else w for w in self.preset.arguments]
        elif not words:
            raise SolverSpecError("ext needs a preset (ext:cadical) or a program (ext@cmd=PROGRAM)")
        elif CNF_PLACE not in words:
            words.append(CNF_PLACE)
        if not shutil.which(words[0]):
            raise SolverSpecError(f"{self._spec_of(command)}: the program {words[0]!r} is not found "
                                  f"(not on PATH, not an executable file)")
        return words

    def takes_seed(self) -> bool:
        if self.preset is not None:
            return self.preset.seed is not None
        return any(SEED_PLACE in w for w in self.command)

    def _seeded(self) -> list[str]:
        """The command with the engine seed in it: a preset's seed words where ``{seed}`` stands,
        the number itself in a command of one's own (``ext@cmd=prog --seed={seed}``)."""
        seed = self.engine_seed
        if self.preset is not None:
            words = self.preset.seed(seed) if self.preset.seed is not None else []
            return [v for w in self.command for v in (words if w == SEED_PLACE else [w])]
        return [w.replace(SEED_PLACE, str(seed)) for w in self.command] if seed is not None else self.command

    def _spec_of(self, command: str) -> str:
        return "ext" + (f":{self.variant}" if self.variant else "") + (f"@cmd={command}" if command else "")

    # -- facts for `puzzlebench solvers` ------------------------------------------------

    @classmethod
    def unavailable_reason(cls) -> str | None:
        present, missing = found_presets()
        if present:
            return None
        programs = ", ".join(p.program for p in PRESETS.values() if p.format == "dimacs")
        packages = ", ".join(p.package for p in PRESETS.values() if p.format == "dimacs")
        others = "; ".join(f"{name}: {missing[name]}" for name, p in PRESETS.items() if p.format != "dimacs")
        return (f"no SAT solver program on PATH (one of {programs}; Debian packages {packages}), "
                f"nor a tool of the competition formats ({others})")

    @classmethod
    def left_out(cls) -> dict[str, str]:
        """The presets whose program is missing here, and the package that provides it."""
        return found_presets()[1]

    @classmethod
    def version(cls) -> str:
        """The present programs' versions, as they print them."""
        return ", ".join(f"{name} {_program_version(PRESETS[name])}" for name in cls.variants) or "none"

    @classmethod
    def variant_notes(cls) -> dict[str, str]:
        """Where each present preset's program is."""
        jar = str(tool_runner.ace_jar())
        return {name: f"reads {PRESETS[name].format}, runs {shutil.which(PRESETS[name].program)} "
                      f"{' '.join(jar if w == ACE_JAR else w for w in PRESETS[name].arguments)}"
                for name in cls.variants}

    # -- the three steps ------------------------------------------------------------------

    @property
    def format(self) -> str:
        return self.preset.format if self.preset else "dimacs"

    def cnf_only(self) -> str | None:
        """Why a CNF encoding's option would do nothing here (a preset of another format), or None."""
        return None if self.format == "dimacs" else f"it exports {self.format}, which has no CNF encoding"

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        """A DIMACS formula and two copies of its text: the one kept for the shape's puzzles and
        its encoding as a file is written (the other formats state the constraints whole: a
        line an AllDifferent).  The program's own memory is its process's."""
        if self.format != "dimacs":
            return 0
        return estimated_export_bytes(puzzle, self.settings["encoding"], self.settings["amo"], whole_texts=2)

    def encode(self, puzzle: Puzzle):
        if self.format != "dimacs":
            return exporter(self.format)(puzzle)
        return encode(puzzle, self.settings["encoding"], self.settings["amo"])

    def size(self, artifact) -> dict[str, int]:
        if isinstance(artifact, opb.PseudoBoolean):
            return {"variables": artifact.n_vars, "constraints": len(artifact.constraints)}
        if not isinstance(artifact, Cnf):
            return {"variables": artifact.n_cells}
        return {"variables": artifact.n_vars, "clauses": artifact.n_clauses}

    def decode(self, artifact, raw) -> tuple[int, ...]:
        if isinstance(artifact, opb.PseudoBoolean):
            return artifact.decode(raw)   # the true candidates
        if not isinstance(artifact, Cnf):
            return tuple(raw)   # a model format's reader gave a value per cell
        try:
            return artifact.decode(raw)
        except EngineError as exc:
            raise EngineError(f"{self.spec}: {exc}") from None

    def search(self, artifact, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        self._program_peak, self._program_cpu = None, 0.0
        try:
            outcome = self._search(artifact, limit, keep, deadline)
        except MemoryError as exc:   # the program ran out: its peak and CPU go with the memout
            exc.program = program_facts(self.program, self._program_peak, self._program_cpu)
            raise
        # the programs' own accounts (wait4): their CPU is in the run's times.cpu (the worker
        # waited for them), and the run's peak_memory is the larger of theirs and the worker's
        outcome.stats.raw.update(program_facts(self.program, self._program_peak, self._program_cpu))
        return outcome

    def _search(self, artifact, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        if not isinstance(artifact, Cnf):
            return self._search_model(artifact, limit, keep, deadline)
        cnf = artifact
        head = self._head(cnf)
        # files of their own for this search, removed at its end (a process killed with SIGKILL
        # leaves them behind: nothing of it runs after that signal)
        handle, path = tempfile.mkstemp(prefix="puzzlebench-ext-", suffix=".cnf")
        os.close(handle)
        answer_path = path[:-len(".cnf")] + ".answer"
        try:
            return self._runs(cnf, head, path, answer_path, limit, keep, deadline)
        finally:
            _unlink(path)
            _unlink(answer_path)

    def _runs(self, cnf: Cnf, head: tuple[str, str], path: str, answer_path: str, limit, keep: int,
              deadline: Deadline) -> SearchOutcome:
        """Run the program until it answers UNSAT, the limit is reached or the clock runs out,
        a blocking clause added after each model."""
        def text(blocks: list[str]) -> list[str]:
            return [head[0], f"p cnf {cnf.n_vars} {cnf.n_clauses + len(blocks)}\n", head[1], head[2], *blocks]

        def run_once() -> Run:
            run = self._run(path, answer_path, deadline)
            if run.status == "SATISFIABLE":
                run.literals = self._true_candidates(cnf, run.literals)
            return run

        def block(true: tuple[int, ...]) -> str | None:
            clause = self._blocking(cnf, list(true))
            # every cell decided by the givens: there is no other solution
            return " ".join(map(str, clause)) + " 0\n" if clause else None

        return self._block_and_rerun(path, text, run_once, block, "clause", limit, keep, deadline)

    def _block_and_rerun(self, path: str, text, run_once, block, what: str, limit, keep: int,
                         deadline: Deadline) -> SearchOutcome:
        """Write the file (``text(blocks)``: its pieces, each written as it is rather than joined
        into another copy of the formula's text), run the program (``run_once()``: a :class:`Run`
        whose literals are the true candidates of its model), block the model (``block(true)``,
        ``None`` when nothing is left to block) and again, until it answers UNSAT, the limit is
        reached or the clock runs out."""
        blocks: list = []
        seen: set[tuple[int, ...]] = set()
        runs: list[Run] = []
        spent = {"write": 0.0, "killed": None}

        def solve_once():
            started = time.perf_counter()
            _unlink(path)   # a new file: ext4 writes a truncated one back at once (2.7 ms against 0.24)
            with open(path, "w") as out:
                out.writelines(text(blocks))
            spent["write"] += time.perf_counter() - started
            run = run_once()
            runs.append(run)
            if run.killed_by:
                spent["killed"] = self._killed(deadline, run)
                return STOPPED
            if run.status == "UNSATISFIABLE":
                return None
            key = tuple(run.literals)
            if key in seen:
                raise EngineError(f"{self.spec}: {self.program} answered a model that a blocking "
                                  f"{what} excludes (the same solution again)")
            seen.add(key)
            return key

        def add_block(key: tuple[int, ...]) -> bool:
            blocked = block(key)
            if blocked is not None:
                blocks.append(blocked)
            return blocked is not None

        found = enumerate_by_blocking(solve_once, add_block, limit, keep, deadline)
        return SearchOutcome([list(key) for key in found.kept], found.count, found.timed_out,
                             _stats(runs, spent["write"]), error=spent["killed"])

    def writes_proofs(self) -> bool:
        """Whether this engine's program writes a DRAT proof (its preset says how)."""
        return self.preset is not None and self.preset.proof is not None

    def refute(self, clauses: list[list[int]], n_candidates: int, deadline: Deadline, proof_path: str) -> tuple[str, object]:
        """``clauses`` given to the program once, its DRAT proof written to ``proof_path``, under
        ``deadline``: ``("unsat", None)``, ``("sat", the model's true candidates)`` or
        ``("stopped", None)`` (as :meth:`~.sat.SatEngine.refute`)."""
        with tempfile.TemporaryDirectory(prefix="puzzlebench-ext-") as folder:
            cnf_path = os.path.join(folder, "claim.cnf")
            write_clauses(cnf_path, clauses)
            args = [cnf_path if w == CNF_PLACE else w for w in self._seeded()] + self.preset.proof(proof_path)
            done = self._execute(args, deadline)
            if isinstance(done, Run):
                return "stopped", None
            text, err, code, _ = done
        try:
            answer = read_answer(text, f"{self.program}'s output")
        except ParseError as exc:
            raise EngineError(f"{self.spec}: {exc} (exit code {code})" + self._said(err)) from None
        if answer.status == "UNSATISFIABLE":
            return "unsat", None
        if answer.status == "SATISFIABLE":
            return "sat", [lit for lit in answer.literals if 0 < lit <= n_candidates]
        raise EngineError(f"{self.spec}: {self.program} answered {answer.status} to a claim's formula" + self._said(err))

    # -- the competition formats: MiniZinc, XCSP3, OPB ------------------------------------

    def _search_model(self, model, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        handle, path = tempfile.mkstemp(prefix="puzzlebench-ext-", suffix=FORMATS[self.format].suffix)
        os.close(handle)
        try:
            if self.preset.solutions is not None:
                return self._enumerate(model, path, limit, keep, deadline)
            return self._block_pb(model, path, limit, keep, deadline)
        finally:
            _unlink(path)

    def _model_args(self, path: str, limit) -> list[str]:
        words = self.preset.solutions(limit or 0) if self.preset.solutions else []
        out: list[str] = []
        for w in self._seeded():
            out.extend([path] if w == MODEL_PLACE else words if w == SOLUTIONS_PLACE else [w])
        return out

    def _killed(self, deadline: Deadline, run: Run) -> str:
        if run.killed_by.startswith("SIGXCPU"):
            return f"killed at the CPU time limit ({deadline.seconds:g} s): {run.killed_by}"
        signal_name, _, limit = run.killed_by.partition("|")
        return f"killed at the {limit}: {signal_name} to {self.program}'s process group"

    def _enumerate(self, model, path: str, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        """One run of a program that enumerates (MiniZinc, ACE), asked for ``limit`` solutions:
        the count is the program's own (ACE prints only the last solution it found, with the
        number found; MiniZinc prints each)."""
        started = time.perf_counter()
        with open(path, "w") as out:
            out.write(model.write())
        write_seconds = time.perf_counter() - started
        done = self._execute(self._model_args(path, limit), deadline)
        if isinstance(done, Run):
            return SearchOutcome([], 0, True, _stats([done], write_seconds), error=self._killed(deadline, done))
        text, err, code, seconds = done
        try:
            answer = self.preset.answer(text, model.n_cells, f"{self.program}'s output")
        except ParseError as exc:
            raise EngineError(f"{self.spec}: {exc} (exit code {code})" + self._said(err)) from None
        if answer.status == "UNKNOWN" or (code != 0 and not answer.solutions):
            raise EngineError(f"{self.spec}: {self.program} answered {answer.status} with exit code {code}"
                              + self._said(err))
        counters = {name: int(n) for name, n in _MZN_STAT.findall(text)}
        stats = Stats(nodes=counters.get("nodes"), backtracks=counters.get("failures"),
                      propagations=counters.get("propagations"),
                      raw={"runs": 1, **counters, "process_seconds": round(seconds, 6),
                           "write_seconds": round(write_seconds, 6)})
        timed_out = not answer.complete and not limit_reached(answer.count, limit)
        return SearchOutcome(answer.solutions[:keep], answer.count, timed_out, stats)

    def _block_pb(self, pb: opb.PseudoBoolean, path: str, limit, keep: int, deadline: Deadline) -> SearchOutcome:
        """A PB program that finds one solution a run (minisat+): after each, a constraint
        that some candidate true in it is false, and the program run again on the new file."""
        source = f"{self.program}'s output"
        current = [pb]

        def text(blocks: list) -> list[str]:
            current[0] = opb.PseudoBoolean(pb.n_vars, pb.constraints + blocks, pb.n_cells, pb.n_values, pb.header)
            return [current[0].write()]

        def run_once() -> Run:
            done = self._execute(self._model_args(path, limit), deadline)
            if isinstance(done, Run):
                return done
            out, err, code, seconds = done
            try:
                status, true = opb.read_answer(out, source)
                if status == "SATISFIABLE":
                    opb.check_answer(current[0], true, source)
            except ParseError as exc:
                raise EngineError(f"{self.spec}: {exc} (exit code {code})" + self._said(err)) from None
            if status not in ("SATISFIABLE", "UNSATISFIABLE"):
                raise EngineError(f"{self.spec}: {self.program} answered {status} before the time limit"
                                  + self._said(err))
            return Run(status, sorted(v for v in true if v <= pb.n_candidates), parse_statistics(out), seconds)

        def block(true: tuple[int, ...]):
            return [(-1, v) for v in true], ">=", 1 - len(true)

        return self._block_and_rerun(path, text, run_once, block, "constraint", limit, keep, deadline)

    # -- the file, the process, the answer -----------------------------------------------

    def _head(self, cnf: Cnf) -> tuple[str, str, str]:
        """(the header's comment lines, the clauses, the units) as DIMACS text: the clauses of a
        shape's base formula written once per engine."""
        body = self._bodies.get(cnf.base_key) if cnf.base_key is not None else None
        if body is None:
            body = "".join(cnf.clause_pieces())   # a string a piece of clauses, not a string a clause
            if cnf.base_key is not None:
                self._bodies[cnf.base_key] = body
        comments = "".join(line + "\n" for line in cnf.header_lines())
        return comments, body, "".join(f"{u} 0\n" for u in cnf.units)

    @staticmethod
    def _true_candidates(cnf: Cnf, literals: list[int]) -> list[int]:
        limit = cnf.n_candidates
        return sorted(lit for lit in literals if 0 < lit <= limit)

    @staticmethod
    def _blocking(cnf: Cnf, true: list[int]) -> list[int]:
        """Another solution differs in an open cell: one of its true candidates is false."""
        n, givens, fixed = cnf.n_values, cnf.givens, cnf.fixed or {}
        return [-v for v in true if not givens[(v - 1) // n] and v not in fixed]

    def _run(self, cnf_path: str, result_path: str, deadline: Deadline) -> Run:
        args = [cnf_path if w == CNF_PLACE else result_path if w == RESULT_PLACE else w
                for w in self._seeded()]
        if RESULT_PLACE in self.command:
            _unlink(result_path)   # the last run's answer is not this one's
        done = self._execute(args, deadline)
        if isinstance(done, Run):
            return done
        text, err, code, seconds = done
        answer_text, source = text, f"{self.program}'s output"
        if RESULT_PLACE in self.command:
            source = f"{self.program}'s result file"
            try:
                with open(result_path, "rb") as f:
                    written = f.read(OUTPUT_LIMIT + 1)
                if len(written) > OUTPUT_LIMIT:
                    raise EngineError(f"{self.spec}: {self.program} wrote a result file of more than "
                                      f"{OUTPUT_LIMIT / 2**20:g} MiB")
                answer_text = written.decode("utf-8", "replace")
            except FileNotFoundError:
                raise EngineError(f"{self.spec}: {self.program} ended with exit code {code} and wrote "
                                  f"no result file" + self._said(err)) from None
        if self.preset is not None and self.preset.statistics_lines:
            answer_text = re.sub(self.preset.statistics_lines, "", answer_text, flags=re.M)
        try:
            answer = read_answer(answer_text, source)
        except ParseError as exc:
            raise EngineError(f"{self.spec}: {exc} (exit code {code})" + self._said(err)) from None
        expected = {SAT_EXIT: "SATISFIABLE", UNSAT_EXIT: "UNSATISFIABLE"}.get(code)
        if code not in (0, SAT_EXIT, UNSAT_EXIT) or (expected and expected != answer.status):
            raise EngineError(f"{self.spec}: {self.program} answered {answer.status} with exit code "
                              f"{code}" + self._said(err))
        if answer.status == "UNKNOWN":
            raise EngineError(f"{self.spec}: {self.program} answered UNKNOWN before the time limit"
                              + self._said(err))
        banner = self.preset.statistics_banner if self.preset else None
        return Run(answer.status, answer.literals, parse_statistics(text, banner), seconds)

    def _execute(self, args: list[str], deadline: Deadline) -> tuple[str, bytes, int, float] | Run:
        """Run the program to its end or the deadline: (standard output, standard error, exit
        code, seconds), or a killed :class:`Run`; a program killed by a signal not ours, or one
        that cannot start, is an :class:`EngineError` naming it."""
        before, between = dies_with_parent(self.preset.parent_death if self.preset else "KILL")
        budget = data_left()   # what the memory limit leaves: the program's share
        cpu_left = deadline.cpu_remaining()
        before = before + held_to(budget, cpu_left)
        started = time.perf_counter()
        spawner_peak = status_bytes(b"VmHWM:")
        try:
            process = Program(before + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True, preexec_fn=between)
        except OSError as exc:
            raise EngineError(f"{self.spec}: cannot start {args[0]!r}: {exc.strerror or exc}") from None
        WATCHDOG.watch(process.pid)   # its session ended if this process dies (runtime/watchdog.py)
        try:
            out, err = wait_program(process, deadline)
        except subprocess.TimeoutExpired:
            kill_session(process)
            reap(process)
            self._account(process, spawner_peak)
            past_wall = deadline.wall_at is not None and time.perf_counter() >= deadline.wall_at
            limit = (f"wall limit ({deadline.wall_seconds:g} s)" if deadline.clock == "cpu" and past_wall
                     else f"{'CPU time' if deadline.clock == 'cpu' else 'time'} limit ({deadline.seconds:g} s)")
            return Run("KILLED", [], {}, time.perf_counter() - started, killed_by=f"SIGKILL|{limit}")
        except OutputTooLarge as exc:
            kill_session(process)
            reap(process)
            self._account(process, spawner_peak)
            raise EngineError(f"{self.spec}: {self.program} {exc}; stopped") from None
        except BaseException:
            kill_session(process)
            reap(process)
            self._account(process, spawner_peak)
            raise
        finally:
            WATCHDOG.release(process.pid)
        seconds = time.perf_counter() - started
        text = out.decode("utf-8", "replace")
        code = process.returncode
        peak = self._account(process, spawner_peak)
        if past_cpu_limit(code):   # its own RLIMIT_CPU: the run's CPU limit, held by the kernel
            return Run("KILLED", [], {}, seconds, killed_by="SIGXCPU (its RLIMIT_CPU)")
        if budget is not None and (code < 0 or code not in (0, SAT_EXIT, UNSAT_EXIT)) and \
                _ran_out(code, text, err, peak, budget):
            ending = f"killed by {_signal_name(-code)}" if code < 0 else f"exit code {code}"
            reached = f", its peak {peak / 2**20:.1f} MB" if peak else ""
            raise MemoryError(f"{self.program} ended ({ending}) with its data held to {budget / 2**20:.1f} MB"
                              f"{reached}" + self._said(err))
        if code < 0:
            raise EngineError(f"{self.spec}: {self.program} was killed by {_signal_name(-code)}"
                              + self._said(err))
        return text, err, code, seconds

    def _account(self, process: "Program", spawner_peak: int | None) -> int | None:
        """Add a finished program's CPU time to the search's, keep its peak if the largest:
        its own peak resident set (bytes), ``None`` when its usage was not collected or its
        peak was not its own.  Linux counts in a process's ``ru_maxrss`` the peak of the
        memory it replaced at ``exec`` (``exec_mmap``): a program started from this process
        shows at least this process's peak, so a ``ru_maxrss`` no larger than
        ``spawner_peak`` says only that the program's own peak was no larger."""
        usage = process.rusage
        if usage is None:
            return None
        self._program_cpu += usage_cpu(usage)
        peak = usage.ru_maxrss * 1024
        if spawner_peak is not None and peak <= spawner_peak:
            return None
        self._program_peak = max(self._program_peak or 0, peak) or None
        return peak

    @staticmethod
    def _said(err: bytes) -> str:
        last = _last_line(err.decode("utf-8", "replace"))
        return f" (its last line on stderr: {last!r})" if last else ""


_MZN_STAT = re.compile(r"^%%%mzn-stat: (nodes|failures|propagations)=(\d+)\s*$", re.M)
"""Gecode's counters as MiniZinc prints them with ``--statistics``."""


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def program_facts(program: str, peak: int | None, cpu: float) -> dict:
    """The raw counters of the programs a search ran: ``program_cpu`` (seconds, user +
    system, from wait4), ``program_peak_memory`` (bytes, the largest of its runs' whole
    resident sets: a program starts fresh, its baseline is zero) and ``program`` (its name,
    which a row's ``peak_process`` names when its peak is the run's)."""
    facts = {"program": program, "program_cpu": round(cpu, 6)}
    if peak is not None:
        facts["program_peak_memory"] = peak
    return facts


def _ran_out(code: int, out: str, err: bytes, peak: int | None, budget: int) -> bool:
    """Whether a program that ended badly under a memory budget ran out of it: it says so (a
    refused allocation's words: C++'s bad_alloc, Python's MemoryError, Java's "could not
    reserve"), it was killed by a SIGKILL not ours (the kernel's out-of-memory killer), or its
    peak reached 90% of the budget."""
    return bool(says_out_of_memory(err) or says_out_of_memory(out[-2000:])
                or code == -signal.SIGKILL or (peak is not None and peak >= 0.9 * budget))


def _stats(runs: list[Run], write_seconds: float) -> Stats:
    """The counters summed over the runs; a counter some run did not print stays empty."""
    totals: dict[str, int | None] = {}
    for name in COUNTERS:
        values = [run.counters.get(name) for run in runs]
        totals[name] = sum(values) if values and None not in values else None
    raw = {"runs": len(runs), **{k: v for k, v in totals.items() if v is not None},
           "process_seconds": round(sum(run.seconds for run in runs), 6),
           "write_seconds": round(write_seconds, 6)}
    return Stats(nodes=totals["decisions"], conflicts=totals["conflicts"],
                 propagations=totals["propagations"], raw=raw)


@lru_cache(maxsize=None)
def _program_version(preset: Preset) -> str:
    """The version a program says it is, else where else it was found (the jar's name, the
    Debian package of a program under /usr), each saying where; "(prints no version)"."""
    if preset.version_of is not None:
        return preset.version_of() or "(prints no version)"
    said = None
    if preset.version_arguments is not None:
        try:
            done = subprocess.run([preset.program, *preset.version_arguments], capture_output=True,
                                  text=True, timeout=10, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired):
            return "unknown"
        # minisat+ prints its banner on standard error; the first line kept is standard output's
        lines = [line.strip().removeprefix("c ").strip() for line in done.stdout.splitlines()]
        lines = [line for line in lines if line]
        for line in lines + done.stderr.splitlines():
            found = re.search(preset.version_pattern, line.strip(), re.I)
            if found:
                said = found.group(1)
                break
        else:
            said = lines[0] if lines and preset.version_label is None else None
    debian = debian_version(preset.program)
    if said is not None and preset.version_label is None:
        return said
    if said is not None:
        return f"{said} ({preset.version_label}" + (f"; Debian package {debian})" if debian else ")")
    if debian:
        return f"{debian.split()[1]} (Debian package {debian.split()[0]}; the program prints no version)"
    return "(prints no version)"


def debian_version(program: str) -> str | None:
    """``PACKAGE VERSION`` of the Debian package that installed ``program`` (found on PATH, under
    /usr), from dpkg's own records; ``None`` elsewhere or without dpkg."""
    path = shutil.which(program)
    if path is None or shutil.which("dpkg-query") is None:
        return None
    path = os.path.realpath(path)
    if not path.startswith("/usr/"):
        return None
    try:
        owner = subprocess.run(["dpkg-query", "-S", path], capture_output=True, text=True, timeout=10)
        package = owner.stdout.split(":", 1)[0].strip() if owner.returncode == 0 else ""
        if not package or " " in package or "," in package:
            return None
        version = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package], capture_output=True,
                                 text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return f"{package} {version.stdout.strip()}" if version.returncode == 0 and version.stdout.strip() else None
