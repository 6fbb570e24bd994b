"""The registry of export formats: one :class:`ExportFormat` entry per target in
:data:`FORMATS`, naming every function by ``"module:function"`` (imported only when asked
for, as the engine registry does): the writer ``(puzzle, **options) -> artifact`` with a
``write() -> str`` method, the options a user may give, the file's suffix, the reader of a
tool's answer for ``decode``, the size estimate and the tools that run the file.
``puzzlebench export --to TARGET``, ``puzzlebench.api.encode(puzzle, to=TARGET)`` (through
:func:`artifact_for`), ``decode`` and the ``ext:`` engine's model presets read this table; a
new format is its module and one :func:`register_format` line.  An option a target's
function does not take is refused, naming the option and the target.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..errors import UsageError
from .budget import check_budget


@dataclass(frozen=True)
class ExportFormat:
    target: str
    writer: str
    """``"module:function"``: ``(puzzle, **options) -> artifact`` with ``write() -> str``."""
    options: tuple[str, ...] = ()
    """The options a user may give the writer (any other is refused)."""
    suffix: str = ".txt"
    reader: str | None = None
    """``"module:function"``: ``(text, source, answer_text, answer_source) -> (puzzle, status,
    solution or None)``, the file and a tool's answer to it read back for ``decode``."""
    decode_option: str | None = None
    """``decode``'s option naming a file of this format (default: the target's name)."""
    file_what: str = ""
    """What the file is, and what a tool's answer is, in ``decode``'s messages and help."""
    answer_what: str = ""
    decode_help: str = ""
    estimate: str | None = None
    """``"module:function"``: ``(puzzle, **options) -> bytes`` the artifact and its text take
    at their peak (:mod:`.budget`), for the targets that list every clause, option or candidate
    (an empty 64x64 Sudoku's DIMACS took 6.1 GB to write 573 MB).  The others state each
    constraint whole (a line an AllDifferent, n³ terms at most: an empty 64x64's OPB took 150 MB)."""
    tools: tuple[str, ...] = ()
    """``"module:function"`` of what runs the competition tools on the file
    (:mod:`puzzlebench.engines.tool_runner`); the ``ext:`` presets name the format."""

    @property
    def decoded_by(self) -> str:
        return self.decode_option or self.target


FORMATS: dict[str, ExportFormat] = {}


def register_format(entry: ExportFormat) -> ExportFormat:
    FORMATS[entry.target] = entry
    return entry


def unregister_format(target: str) -> None:
    FORMATS.pop(target, None)


_RUNNERS = "puzzlebench.engines.tool_runner:"
for _entry in (
    ExportFormat("dlx", "puzzlebench.encoders.exact_cover:encode_puzzle", suffix=".dlx",
                 estimate="puzzlebench.encoders.exact_cover:estimated_export_bytes"),
    ExportFormat("cpsat", "puzzlebench.encoders.cpsat:export_cpsat", suffix=".pb.txt"),
    ExportFormat("cpsat-bool", "puzzlebench.encoders.cpsat:export_cpsat_bool", suffix=".pb.txt"),
    ExportFormat("smt2", "puzzlebench.encoders.smt:export_smt2", suffix=".smt2"),
    ExportFormat("smt2-fold", "puzzlebench.encoders.smt:export_smt2_fold", ("amo",), ".smt2",
                 estimate="puzzlebench.encoders.smt:estimated_export_bytes"),
    ExportFormat("smt2-bool", "puzzlebench.encoders.smt:export_smt2_bool", ("amo",), ".smt2",
                 estimate="puzzlebench.encoders.smt:estimated_export_bytes"),
    ExportFormat("dimacs", "puzzlebench.encoders.cnf:export_dimacs", ("encoding", "amo"), ".cnf",
                 reader="puzzlebench.encoders.dimacs:decode_answer", decode_option="cnf",
                 file_what="a DIMACS CNF file", answer_what="a SAT solver's answer (s and v lines)",
                 decode_help="the CNF written by export --to dimacs",
                 estimate="puzzlebench.encoders.cnf:estimated_export_bytes"),
    ExportFormat("xcsp3", "puzzlebench.encoders.xcsp3:export_xcsp3", suffix=".xml",
                 reader="puzzlebench.encoders.xcsp3:decode_answer", file_what="an XCSP3 instance",
                 answer_what="an XCSP3 solver's output (s and v lines)",
                 decode_help="the instance written by export --to xcsp3",
                 tools=(_RUNNERS + "run_ace", _RUNNERS + "run_choco")),
    ExportFormat("minizinc", "puzzlebench.encoders.minizinc:export_minizinc", suffix=".mzn",
                 reader="puzzlebench.encoders.minizinc:decode_answer",
                 file_what="a MiniZinc model or data file", answer_what="MiniZinc's output",
                 decode_help="the model written by export --to minizinc, or the puzzle's .dzn "
                             "(--to minizinc-data, mzn+dzn)",
                 tools=(_RUNNERS + "run_minizinc",)),
    ExportFormat("minizinc-model", "puzzlebench.encoders.minizinc:export_minizinc_model", suffix=".mzn"),
    ExportFormat("minizinc-data", "puzzlebench.encoders.minizinc:export_minizinc_data", suffix=".dzn"),
    ExportFormat("opb", "puzzlebench.encoders.opb:export_opb", suffix=".opb",
                 reader="puzzlebench.encoders.opb:decode_answer", file_what="an OPB file",
                 answer_what="a pseudo-Boolean solver's answer (s and v lines)",
                 decode_help="the OPB file written by export --to opb",
                 tools=(_RUNNERS + "run_minisat_plus", _RUNNERS + "run_exact")),
):
    register_format(_entry)


def text_pieces(artifact) -> Iterable[str]:
    """An artifact's text as pieces to write one after the other: a CNF's a block of clauses at
    a time (:meth:`~.cnf.Cnf.pieces`, never its whole text at once), any other's ``write()``."""
    pieces = getattr(artifact, "pieces", None)
    return pieces() if pieces is not None else (artifact.write(),)


def function(reference: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` reference names, imported now."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def export_format(target: str) -> ExportFormat:
    if target not in FORMATS:
        raise UsageError(f"unknown export target {target!r}; known: {', '.join(sorted(FORMATS))}")
    return FORMATS[target]


def exporter(target: str) -> Callable[..., Any]:
    return function(export_format(target).writer)


def decoded_formats() -> dict[str, ExportFormat]:
    """``decode``'s option → the format it reads (the first target naming it), in table order."""
    out: dict[str, ExportFormat] = {}
    for entry in FORMATS.values():
        if entry.reader is not None:
            out.setdefault(entry.decoded_by, entry)
    return out


def check_exportable(puzzle, to: str) -> None:
    """Refuse a Sukaku (a Sudoku with pencil marks, ``puzzle.candidates``): no writer says its
    marks, and its givens alone are another puzzle (as ``Engine.run`` refuses it to engines that
    cannot take them)."""
    if getattr(puzzle, "candidates", None) is not None:
        raise UsageError(f"export target {to!r} cannot express a Sukaku's pencil marks (a {puzzle.kind} "
                         f"with candidates); the human, mrv and sat solvers take them")


def artifact_for(puzzle, to: str, *, memory_limit: int | None = None, **options: Any):
    """The artifact of ``puzzle`` for export target ``to`` (it can ``write()`` itself); an
    option the target does not take is refused, naming both, and so is a Sukaku, and so is an
    artifact estimated past the memory budget (``memory_limit`` bytes, else the default:
    :func:`~.budget.check_budget`)."""
    entry = export_format(to)
    known = entry.options
    for name in options:
        if name not in known:
            takes = f"it takes {', '.join(known)}" if known else "it takes no option"
            raise UsageError(f"export target {to!r} has no option {name!r}; {takes}")
    check_exportable(puzzle, to)
    if entry.estimate is not None:
        check_budget(function(entry.estimate)(puzzle, **options), f"the {to} export of this {puzzle.kind}",
                     memory_limit)
    return function(entry.writer)(puzzle, **options)
