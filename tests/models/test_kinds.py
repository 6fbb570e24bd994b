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
