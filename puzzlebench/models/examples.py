"""A handful of famous puzzles typed into the code, so that ``puzzlebench solve --example NAME``
(and the README's first command) work with no data at hand.

Each is kept as text in one of the reader's forms (so the examples also show the forms) and
read with :func:`~puzzlebench.models.reader.parse`.  The tests solve every one with ``mrv``
and check the solution counts given here.  No public 6x6 (2x3) or 12x12 (3x4) Sudoku set
exists (../shared/data/MANIFEST.md), so those two, and the 5x5 Skyscrapers, were generated
for this project by :mod:`puzzlebench.generators.examples` (``example_sudoku((2, 3), 6)``,
``example_sudoku((3, 4), 12)``, ``example_skyscrapers(5, 1)``): a random solution, then
givens (clues) removed in a seeded random order while ``mrv`` still found exactly one
solution; the tests prove the uniqueness again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Iterator

from ..errors import UsageError
from .base import Puzzle
from .kinds import KINDS


@dataclass(frozen=True)
class Example:
    name: str
    kind: str
    text: str
    description: str
    box: str | None = None
    solutions: int = 1
    """How many solutions it has (the tests check it)."""


DEFAULT_EXAMPLE = "arto-inkala"
"""What ``puzzlebench solve`` and ``show`` take with no input: a famous 9x9."""

_EXAMPLES = [
    Example("arto-inkala", "sudoku",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            "Arto Inkala's 'world's hardest Sudoku' (2012 press release), 21 givens"),
    Example("knuth", "sudoku",
            "..3.1....415....9.2.65..3..5...8...9.7.9...32.38..4.6....26.4.3...3....832...795.",
            "Knuth's Sudoku example, puzzle (29a) of TAOCP Vol. 4B, section 7.2.2.1 (Dancing "
            "Links), as transcribed in the InPlace CP examples"),
    Example("norvig-hardest", "sudoku",
            "85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.",
            "the first puzzle of Peter Norvig's 'hardest' list (Solving Every Sudoku Puzzle)"),
    Example("course-4x4", "sudoku",
            "[[1, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 4]]",
            "the backtracking course's 4x4 starting grid (2x2 blocks), in its list-of-rows form"),
    Example("course-9x9", "sudoku",
            ". 4 . | 5 . 1 | . 9 .\n"
            "7 . . | 4 . 3 | . . 6\n"
            ". 3 . | . 6 . | . 8 .\n"
            "------+-------+------\n"
            ". . 1 | . . . | 6 . .\n"
            "5 2 . | . . . | . 1 9\n"
            ". . 4 | . . . | 8 . .\n"
            "------+-------+------\n"
            ". 9 . | . 3 . | . 7 .\n"
            "4 . . | 7 . 2 | . . 8\n"
            ". 1 . | 9 . 8 | . 6 .",
            "the backtracking course's example grid of its Sudoku lesson (solution given there), as a grid"),
    Example("course-easy", "sudoku",
            "3,0,4, 0,8,0, 0,5,0,\n7,0,0, 0,1,0, 0,0,3,\n8,0,0, 0,0,2, 6,0,0,\n"
            "0,0,9, 1,0,0, 3,0,5,\n4,0,5, 3,0,7, 9,0,2,\n6,0,8, 0,0,9, 7,0,0,\n"
            "0,0,7, 4,0,0, 0,0,6,\n5,0,0, 0,9,0, 0,0,8,\n0,4,0, 0,7,0, 5,0,9",
            "the backtracking course's 'Facile' grid, in its comma-separated numbers form"),
    Example("course-medium", "sudoku",
            "[5,0,8, 0,3,0, 4,6,0,\n 0,0,0, 2,0,0, 8,0,0,\n 1,9,0, 4,0,0, 7,3,0,\n"
            " 8,0,7, 9,2,0, 0,0,0,\n 0,0,9, 6,0,4, 2,0,0,\n 0,0,0, 0,8,3, 1,0,5,\n"
            " 0,3,1, 0,0,2, 0,7,6,\n 0,0,2, 0,0,9, 0,0,0,\n 0,7,5, 0,6,0, 9,0,8]",
            "the backtracking course's 'Moyen' grid, as its flat list of 81 numbers"),
    Example("course-hard", "sudoku",
            "0,4,0, 1,0,0, 9,0,0,\n0,0,0, 0,0,0, 0,6,0,\n0,8,0, 6,3,0, 0,0,0,\n"
            "5,1,7, 2,9,0, 0,0,8,\n0,0,4, 0,5,0, 2,0,0,\n9,0,0, 0,1,4, 7,5,6,\n"
            "0,0,0, 0,7,5, 0,8,0,\n0,9,0, 0,0,0, 0,0,0,\n0,0,1, 0,0,2, 0,4,0",
            "the backtracking course's 'Difficile' grid"),
    Example("sudoku6", "sudoku",
            ".6.4.1..1....3.......2.4.4.35......6",
            "a 6x6 Sudoku (2x3 blocks) generated for this project (seed 6), 11 givens, unique",
            box="2x3"),
    Example("sudoku12", "sudoku",
            "...68C.7.B....3......27.....5.B.4..1B.....537.42.1.....C........271.9....4.....B.3.."
            "9......A8...631...42.CB9.62...78....3.A.....B7.CC..8......1.",
            "a 12x12 Sudoku (3x4 blocks) generated for this project (seed 12), 50 givens, unique",
            box="3x4"),
    Example("8-queens", "nqueens", "8", "the eight queens (92 solutions)", solutions=92),
    Example("8-queens-corner", "nqueens", "8 (1,1)",
            "eight queens with one queen placed in the corner (the completion problem)",
            solutions=4),
    Example("skyscrapers5", "skyscrapers", "5 0,3,0,3,0 0,0,0,0,3 2,2,0,0,4 0,0,0,3,0",
            "a 5x5 Skyscrapers generated for this project (seed 1): 8 of the 20 clues, unique"),
    Example("skyscrapers5-towers", "skyscrapers", "5:/3//3//////3/2/2///4////3/",
            "the same 5x5 Skyscrapers as a game id of Simon Tatham's Towers (playable there)"),
    Example("rush01", "skyscrapers", "4 3 2 1 1 2 2 2 4 3 2 1 1 2 2 2",
            "the 4x4 example of the rush-01 exercise (column tops, bottoms, row lefts, rights)"),
    Example("latin5", "latin", "0 3 1 0 0\n0 4 2 0 0\n0 0 0 3 0\n4 5 0 0 0\n5 0 0 0 0",
            "a 5x5 Latin square to complete, made for this project (a shuffled cyclic square, each "
            "given removed in a seeded order while the completion stays unique: 8 givens)"),
    Example("sudoku-x", "sudoku-x", "3x3x:c1a2_3c9f5b8d9p7_8b1a2e7b5_4i9a1f7c",
            "a Sudoku-X made for this project (a grid found by mrv, relabelled, each given removed in "
            "a seeded order while the puzzle stays unique: 17 givens), as a Solo game id"),
    Example("jigsaw6", "jigsaw", "6j:1a3b6b5f3_1d5i4d,bb__a_a_aa_b_abdbbbbbcaac_",
            "a 6x6 jigsaw Sudoku made for this project (regions drawn by hand, a grid found by mrv, "
            "each given removed in a seeded order while the puzzle stays unique: 8 givens), as a Solo id"),
    Example("futoshiki5", "futoshiki", ". . .>. .\n    ^   ^\n.>. . . .\n^\n.<. . . .\n. . . . .\n^ ^ ^   v\n. . . .<.",
            "a 5x5 Futoshiki made for this project (a shuffled cyclic Latin square with all its givens and "
            "signs, each given then each sign removed in a seeded order while mrv still finds one solution: "
            "no givens, 11 signs), as books print it"),
    Example("kenken4", "kenken", "4:__a_5aca3_a_,a9s1m4a5s2m12d2",
            "a 4x4 KenKen made by Simon Tatham's Keen (keen.c), the first of the public set "
            "tatham_keen_4to7_96.txt, as a Keen id"),
    Example("killer", "killer",
            "3x3k:zzzc,_aaaaa_a___a_a__aa__aaa__a______a___aaa_aabaa_ca_aa____b_____a__a_a_____aa___aa_aa"
            "______a_____aaa___,10_13a6a9a16b11a6_16a11_8a13_4b18c13b11a8a13b16a8b14_9a5_9_18_9a21a9g12a8a9a"
            "14a6a13c8a11b20b",
            "a 9x9 Killer Sudoku with no givens made by Simon Tatham's Solo (solo.c), the first of the "
            "public set tatham_solo_killer_3x3_100.txt, as a Solo id"),
]

class ExampleTable(Mapping):
    """Every embedded example by name: the ones above, then those of the registered kinds'
    entries (:attr:`.kinds.Kind.examples`), read live."""

    def _all(self) -> dict[str, Example]:
        table = {e.name: e for e in _EXAMPLES}
        for kind in KINDS.values():
            table.update((e.name, e) for e in kind.examples)
        return table

    def __getitem__(self, name: str) -> Example:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


EXAMPLES = ExampleTable()


def example(name: str) -> Puzzle:
    """The embedded example ``name``, parsed (its source is ``example:NAME``)."""
    from .reader import parse
    if name not in EXAMPLES:
        raise UsageError(f"unknown example {name!r}; known: {', '.join(EXAMPLES)}")
    e = EXAMPLES[name]
    return parse(e.text, kind=e.kind, box=e.box, source=f"example:{name}")
