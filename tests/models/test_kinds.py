"""The kinds registry: every kind named once, its class found by name, and what the encoders
ask of a kind (structure, header) enough to rebuild each puzzle."""

import pytest

from puzzlebench.errors import UsageError
from puzzlebench.models import examples
from puzzlebench.models.kinds import KIND_NAMES, kind_class

EXAMPLES = [examples.example(name) for name in sorted(examples.EXAMPLES)]


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_every_kind_has_its_class_and_an_example(kind):
    assert kind_class(kind).kind == kind
    assert any(p.kind == kind for p in EXAMPLES)


@pytest.mark.parametrize("puzzle", EXAMPLES, ids=lambda p: f"{p.kind}-{p.shape}")
def test_a_puzzle_is_rebuilt_from_its_header(puzzle):
    again = kind_class(puzzle.kind).from_header(puzzle.header(), list(puzzle.givens), source="f.cnf")
    assert (again.kind, again.shape, again.givens) == (puzzle.kind, puzzle.shape, puzzle.givens)
    assert again.structure() == puzzle.structure()
    assert again.rules.constraints == puzzle.rules.constraints


def test_an_unknown_kind_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown kind 'kakuro'; known: " + ", ".join(KIND_NAMES)):
        kind_class("kakuro")


def test_every_engine_says_which_kinds_it_takes():
    from puzzlebench.engines.registry import FAMILIES, engine_class
    for family in FAMILIES:
        kinds = engine_class(family).kinds
        assert kinds and kinds <= set(KIND_NAMES), family


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", EXAMPLES, ids=lambda p: f"{p.kind}-{p.shape}")
def test_a_puzzle_is_rebuilt_from_its_dimacs_file(puzzle):
    """The DIMACS header carries the kind's own fields (a jigsaw's regions, a Futoshiki's
    signs): only those of a fixed list were written, and decode could not rebuild a jigsaw."""
    from puzzlebench import encode
    from puzzlebench.encoders.dimacs import puzzle_from_header, read_dimacs
    again = puzzle_from_header(read_dimacs(encode(puzzle, to="dimacs").write(), "f.cnf").header, "f.cnf")
    assert (again.kind, again.givens, again.structure()) == (puzzle.kind, puzzle.givens, puzzle.structure())


# In a fresh interpreter (argv[1] names the case): the kind classes the reader consults that
# were not yet imported when the timer of the first parse started, or for "lines" (a batch of
# Sudoku lines, which the batch reader takes whole) each time the API loaded them.
TIMED_PARSE = '''
import sys, time
import puzzlebench.api as api
import puzzlebench.models.reader as reader
from puzzlebench.models.kinds import KIND_NAMES, kind_entry
consulted = {kind_entry(n).model.partition(":")[0] for n in KIND_NAMES if n not in reader.BUILT_IN}
line = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
module, run = {"read_records": (reader, lambda: list(reader.read_records([line], "x"))),
               "solve": (api, lambda: api.solve(line)),
               "solve_many": (api, lambda: api.solve_many([line, "6"])),
               "lines": (api, lambda: api.solve_many([line, line]))}[sys.argv[1]]
calls, at_parse = [], []   # missing at each timer call; at the call before the first text parsed one by one
def timer(real=time.perf_counter):
    calls.append(sorted(m for m in consulted if m not in sys.modules))
    return real()
def parsed_one_by_one(item, *rest, parse=api._as_puzzle):
    if isinstance(item, str) and not at_parse:
        at_parse.append(calls[-1])
    return parse(item, *rest)
module.time = type(sys)("time")
module.time.perf_counter = timer
api._as_puzzle = parsed_one_by_one
loads = []
api.load_kind_classes = lambda load=api.load_kind_classes: (loads.append("loaded"), load())
run()
if sys.argv[1] == "lines":
    print(loads)
else:
    print(calls[0] if module is reader else at_parse[0])
'''


@pytest.mark.parametrize("timed", ["read_records", "solve", "solve_many", "lines"])
def test_a_puzzles_parse_time_holds_no_import_of_the_kinds_the_reader_consults(timed):
    """A puzzle's parse time is its parse alone: the reader asks each kind it does not weigh
    itself whether a text is its own, and importing those classes (about 17 ms, against 0.5 ms
    to read and solve a 9x9) is done before the timer of a parse starts, not in the first
    puzzle's time; a batch of Sudoku lines, which never asks them, does not load them."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", TIMED_PARSE, timed], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"
