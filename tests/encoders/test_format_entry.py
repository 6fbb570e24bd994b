"""An export format is one entry: a toy format defined here, registered with one call, is
written by ``export`` and ``puzzlebench.api.encode``, and its answers are read back and
verified by ``decode``, with no edit anywhere else in the package.

The toy: the puzzle's own line on a ``toy:`` first line (so that the file decodes on its own),
then a line a cell, ``x7 in 1..9`` or ``x7 = 4`` for a given.  A tool's answer: ``SAT`` and
a ``xK = V`` line a cell, or ``UNSAT``, or ``UNKNOWN``."""

import json

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.encoders.registry import FORMATS, ExportFormat, register_format, unregister_format
from puzzlebench.errors import ParseError, Place
from puzzlebench.models.examples import example
from puzzlebench.models.reader import parse

PUZZLE = example("arto-inkala")


class ToyListing:
    def __init__(self, puzzle):
        self.puzzle = puzzle

    def write(self) -> str:
        n = self.puzzle.rules.n_values
        cells = [f"x{c} = {g}" if g else f"x{c} in 1..{n}" for c, g in enumerate(self.puzzle.givens)]
        return "\n".join([f"toy: {self.puzzle.write()}", *cells]) + "\n"


def export_toy(puzzle) -> ToyListing:
    return ToyListing(puzzle)


def decode_toy(text: str, source: str, answer_text: str, answer_source: str):
    first = text.splitlines()[0] if text else ""
    if not first.startswith("toy: "):
        raise ParseError("not a toy listing: its first line is 'toy: PUZZLE'", Place(source, 1))
    puzzle = parse(first[len("toy: "):], source=source)
    lines = answer_text.split()
    status = {"SAT": "SATISFIABLE", "UNSAT": "UNSATISFIABLE"}.get(lines[0] if lines else "", "UNKNOWN")
    if status != "SATISFIABLE":
        return puzzle, status, None
    values = dict(line.split("=") for line in lines[1:])
    return puzzle, status, tuple(int(values[f"x{c}"]) for c in range(puzzle.n_cells))


@pytest.fixture(autouse=True, scope="module")
def toy_format():
    register_format(ExportFormat("toy", f"{__name__}:export_toy", suffix=".toy", reader=f"{__name__}:decode_toy",
                                 file_what="a toy listing", answer_what="a toy answer",
                                 decode_help="the listing written by export --to toy"))
    yield
    unregister_format("toy")
    assert "toy" not in FORMATS


def toy_answer(solution) -> str:
    return "SAT\n" + "".join(f"x{c}={v}\n" for c, v in enumerate(solution))


def solved(puzzle):
    return puzzlebench.solve(puzzle, solver="sat").solutions[0]


def exported(tmp_path):
    puzzle_file = tmp_path / "p.txt"
    puzzle_file.write_text(PUZZLE.write() + "\n")
    listing = tmp_path / "p.toy"
    assert main(["export", str(puzzle_file), "--to", "toy", "-o", str(listing)]) == 0
    return listing


def test_export_writes_it(tmp_path):
    assert exported(tmp_path).read_text() == ToyListing(PUZZLE).write()


def test_the_api_encodes_to_it_and_refuses_an_option_it_does_not_take():
    assert puzzlebench.api.encode(PUZZLE, to="toy").write() == ToyListing(PUZZLE).write()
    with pytest.raises(puzzlebench.errors.UsageError,
                       match="^export target 'toy' has no option 'amo'; it takes no option$"):
        puzzlebench.api.encode(PUZZLE, to="toy", amo="pairwise")


def test_decode_reads_a_right_answer_and_verifies_it(tmp_path, capsys):
    listing = exported(tmp_path)
    answer = tmp_path / "answer.txt"
    answer.write_text(toy_answer(solved(PUZZLE)))
    capsys.readouterr()
    assert main(["decode", "--toy", str(listing), "--model", str(answer), "--format", "jsonl"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "sat" and record["verified"] is True
    assert record["solution"] == PUZZLE.format_solution(solved(PUZZLE))


def test_decode_finds_a_wrong_answer_and_a_false_unsat(tmp_path, capsys):
    listing = exported(tmp_path)
    wrong = list(solved(PUZZLE))
    open_cell = PUZZLE.givens.index(0)
    wrong[open_cell] = wrong[open_cell] % 9 + 1
    answer = tmp_path / "answer.txt"
    answer.write_text(toy_answer(wrong))
    assert main(["decode", "--toy", str(listing), "--model", str(answer)]) == 1
    assert "the decoded solution is wrong" in capsys.readouterr().err
    answer.write_text("UNSAT\n")
    assert main(["decode", "--toy", str(listing), "--model", str(answer)]) == 1
    assert f"{answer}: the solver says UNSATISFIABLE, but the puzzle has a solution" in capsys.readouterr().err


def test_the_commands_name_it(capsys):
    with pytest.raises(SystemExit):
        main(["decode", "--help"])
    assert "--toy FILE" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "toy" in capsys.readouterr().out
