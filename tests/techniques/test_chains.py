"""Sudoku Explainer's ladder (issue 19): the chain rungs where they apply, every deduction
checked against the solution and, independently, by search; SE's rating rule (length term)
and SE's published ratings of real puzzles; the rating's SE rule, time limit and CLI."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzlebench.cli import main
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating import rate_puzzle
from puzzlebench.rating.profile import se_ladder
from puzzlebench.techniques import chains as C
from puzzlebench.techniques.grid import State, geometry
from puzzlebench.techniques.ladder import SE_LADDER, HumanSolver, count_solutions

from conftest import DATA
BUCKETS = "sudoku9_sudokuexchange_buckets_500each_with_solutions.txt"

# Puzzles of the Sudoku Exchange bank (public domain) with the rating SE gives them, one per
# rung whose hardest step that rung is; the ladder must reach exactly SE's rating.
SE_RATED = {
    "bidirectional y-cycle": ("....8......2...5.....7.2...5.......3.36...74.9.......23..8.1..7..8.4.9...95.3.68.", 6.6),
    "bidirectional cycle": ("71..6..3........2...3...7.14..6.5....7.324.1....1.8..69.8...3...6........2..4..68", 7.0),
    "forcing chain": (".7.4..96.2.4.....76..5.1.4...7...6.9....8....9.5...1...9.6.3..41.....7.6.68..7.9.", 7.1),
    "nishio forcing chain": ("....9.....5.6.4.9.7...3...5.7.9.8.5.9..2.1..8..2...9..69.....17..3...2......6....", 7.8),
    "multiple forcing chain": ("..4...2...8.....1.2.......3..71358..4..7.6..1....9....87..6..59.5..1..6.6...7...2", 8.3),
    "dynamic forcing chain": ("16.....49.7..1..3...26.57....6...3...8..6..5..4.9.1.2....8.2.......7....6.8...1.2", 8.7),
}
# The same for the single-step rungs of the ladder below the chains (each the puzzle's hardest
# step, the text naming the pattern).
SE_RATED_BASIC = [
    ("3.6.28.1.1..3......4...1.6.8........2..867..3........5.3.1...7......2..4.5.67.2.8", 4.0, "skyscraper 5"),
    ("..4...9...9.....3.2.1...5.78.......4..26417....7...1...4.5.8.7...32.76..7.......1", 4.1, "two-string kite 6"),
    ("..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4.", 5.5,
     "wxyz-wing 3,5,8,9"),
    ("1.3.7...2.......4..9...5..1.2.1..5.3..7...2..4.5..2.6.2..8...3..5.......8...2.7.9", 5.4,
     "3 strong links 7: (7)r2c9=r2c2-r7c2=r7c6-r4c6=r4c8"),
    ("4....9...6...1...4.85...96....43...8..7.5.3..5...92....12...65.7...2...1...6....2", 4.5,
     "unique rectangle type 4 2,7"),
    (".4.....9.....5....8.6...4.7....8......5.2.7....21659....76.35..6.9.7.3.2.........", 5.0, "naked quad 1,2,3,9"),
    ("65.....2...81.7.36.2..........7..8.9....3....9.6..8..........1.31.5.49...7.....64", 5.6, "bug"),
    (".....36....17..2..8.96...7.2...9......4...5......2...4.4...13.8..6..81....54.....", 6.2,
     "aligned pair exclusion on"),
]
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def needs(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is absent (public data sets live in ../shared/data)")
    return path


def solve_se(line: str):
    p = parse_sudoku_line(line)
    count, truth = count_solutions(p.box, p.givens)
    assert count == 1
    solver = HumanSolver(p.box, ladder="se", assume_unique=True, truth=truth)  # raises on a false step
    solved = next(solver.solutions(p.givens))
    assert solved.values == truth and not p.check(solved.values)
    return solved, truth


def test_length_term_follows_se_steps():
    # complexity - 2 passes 4, 6, 8, 12, 16, 24, 32: +0.1 each
    expected = {2: 0.0, 6: 0.0, 7: 0.1, 8: 0.1, 9: 0.2, 10: 0.2, 11: 0.3, 14: 0.3, 15: 0.4, 18: 0.4,
                19: 0.5, 26: 0.5, 27: 0.6, 34: 0.6, 35: 0.7}
    for complexity, bonus in expected.items():
        assert C.length_bonus(complexity) == pytest.approx(bonus), complexity
    for tenths in range(8):
        end = C.max_complexity(tenths)
        assert C.length_bonus(end) == pytest.approx(tenths / 10)
        assert C.length_bonus(end + 1) == pytest.approx((tenths + 1) / 10)


@pytest.mark.parametrize("technique", sorted(SE_RATED))
def test_rung_reaches_se_published_rating(technique):
    line, rating = SE_RATED[technique]
    solved, _ = solve_se(line)
    steps = [s for s in solved.steps]
    assert all(s.technique != "guess" for s in steps)
    hardest = max(steps, key=lambda s: s.rating)
    assert hardest.technique == technique
    assert hardest.rating == pytest.approx(rating)
    assert max(s.rating for s in steps) == pytest.approx(rating)


@pytest.mark.parametrize("line,rating,pattern", SE_RATED_BASIC)
def test_basic_rung_reaches_se_published_rating(line, rating, pattern):
    solved, _ = solve_se(line)
    assert max(s.rating for s in solved.steps) == pytest.approx(rating)
    assert any(s.rating == pytest.approx(rating) and pattern in s.text for s in solved.steps)


@pytest.mark.parametrize("technique", ["forcing chain", "nishio forcing chain", "multiple forcing chain",
                                       "dynamic forcing chain"])
def test_chain_conclusions_hold_by_search(technique):
    """Independently of the known solution: with the givens and the values placed so far, a
    value a chain step removes leaves no solution once placed, and a value it places leaves
    one."""
    line, _ = SE_RATED[technique]
    solved, _ = solve_se(line)
    p = parse_sudoku_line(line)
    checked = 0
    grid = list(p.givens)
    for step in solved.steps:
        if step.rating is not None and step.rating >= 6.5:
            for cell, v in step.eliminations:
                trial = grid[:]
                trial[cell] = v
                assert count_solutions(p.box, trial, limit=1)[0] == 0, step.text
                checked += 1
            for cell, v in step.placements:
                trial = grid[:]
                trial[cell] = v
                assert count_solutions(p.box, trial, limit=1)[0] == 1, step.text
                checked += 1
        for cell, v in step.placements:
            grid[cell] = v
    assert checked >= 1


def test_chain_steps_show_the_chain_and_their_rating():
    solved, _ = solve_se(SE_RATED["forcing chain"][0])
    step = next(s for s in solved.steps if s.technique == "forcing chain")
    # Eureka-like: (value)cell nodes joined by '-' (weak) and '=' (strong) links
    assert f"(rating {step.rating})" in step.text and "=(" in step.text and "-(" in step.text
    assert step.text.startswith("forcing chain: r")


def test_sample_of_hard_bank_puzzles_solved_without_false_deductions():
    """A seeded sample over SE 6.5-9.0: the ladder solves each without a guess, every
    elimination and placement checked against the published solution."""
    lines = [l.split() for l in needs(BUCKETS).read_text().splitlines() if l.strip()]
    hard = [l for l in lines if l[3] != "?" and 6.5 <= float(l[3]) <= 8.0]
    for puzzle, solution, *_ in random.Random(19).sample(hard, 6):
        p = parse_sudoku_line(puzzle)
        truth = tuple(int(c) for c in solution)
        lad = se_ladder(p.box, p.givens, seconds=None, truth=truth)
        assert lad.status == "solved" and lad.rating >= 6.5
        assert all(s.technique != "guess" for s in lad.steps)


def test_cycle_on_a_constructed_grid():
    """An X-cycle of four conjugate pairs of 5 (rows 1 and 5, columns 1 and 5) forming a
    rectangle: 5 leaves the rest of those rows/columns (SE: 6.5 at four nodes... a generalised
    X-wing)."""
    g = geometry((3, 3))
    s = State(g, [g.full] * 81, [0] * 81, [0] * 27, 81)
    bit = 1 << 4
    corners = {0, 4, 36, 40}
    for r in (0, 4):
        for c in range(9):
            if r * 9 + c not in corners:
                s.cand[r * 9 + c] &= ~bit
    hint = C.cycles_and_forcing_chains(s)
    assert hint is not None and hint.technique == "bidirectional x-cycle"
    assert hint.rating == pytest.approx(6.5) and hint.complexity == 4
    removed = {c for c, v in hint.eliminations}
    assert all(v == 5 for _, v in hint.eliminations)
    assert removed == {r * 9 + c for r in range(9) for c in (0, 4) if r not in (0, 4)}


def test_rate_uses_se_rule_when_the_ladder_solves():
    line, rating = SE_RATED["forcing chain"]
    r = rate_puzzle(parse_sudoku_line(line))
    assert (r.scored_by, r.ladder, r.score, r.se_rating) == ("se-ladder", "solved", rating, rating)
    assert r.hardest == "forcing chain" and r.guesses == 0
    assert r.steps[0].startswith("[1.") and any(s.startswith("[7.1] forcing chain") for s in r.steps)
    easy = rate_puzzle(parse_sudoku_line(EASY))
    assert easy.scored_by == "se-ladder" and easy.score <= 2.3


def test_rate_time_limit_gives_a_timeout_record_and_the_model_score(tmp_path, capsys):
    r = rate_puzzle(parse_sudoku_line(ESCARGOT), ladder_seconds=0.05)
    assert (r.ladder, r.scored_by, r.se_rating) == ("timeout", "model", None)
    assert r.score is not None and r.hardest == "guess"
    f = tmp_path / "p.txt"
    f.write_text(f"{ESCARGOT}\n{EASY}\n")
    assert main(["rate", str(f), "--time-limit", "0.05"]) == 0
    cap = capsys.readouterr()
    assert "[timeout: SE's ladder stopped after" in cap.out
    assert "[SE ladder solved it (" in cap.out
    assert cap.err.endswith("%no_guess 50.0\n") and "1 solved, 0 beyond (guess), 1 timeout" in cap.err


def test_time_limit_must_be_seconds(capsys):
    assert main(["rate", "x.txt", "--time-limit", "-1"]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: --time-limit -1: out of range: from 0 to 1000000 s\n"


def test_se_ladder_names_every_rung():
    assert SE_LADDER[-5:] == C_RUNGS
    with pytest.raises(ValueError):
        HumanSolver((3, 3), ladder="nope")


C_RUNGS = ("chains", "nishio", "multiple chains", "dynamic chains", "dynamic chains+")


def test_nested_rule_rests_on_the_chain_removals():
    """Dynamic forcing chains (+): when the chain's removals leave 5 of box 1 only in row 1,
    the pointing rule removes 5 from the rest of row 1, each removal resting on exactly the
    removals that made it (SE's rule parents)."""
    g = geometry((3, 3))
    s = State(g, [g.full] * 81, [0] * 81, [0] * 27, 81)
    ch = C.Chainer(s)
    cur = ch.src[:]
    gone = [r * 9 + c for r in (1, 2) for c in range(3)]
    for c in gone:
        cur[c] &= ~(1 << 4)
    offs = C.advanced_offs(ch, cur)
    assert sorted(nd >> 1 for nd, _ in offs) == [c * 9 + 4 for c in range(3, 9)]
    assert all(nd & 1 == 0 for nd, _ in offs)
    assert all(sorted(parents) == sorted(2 * (c * 9 + 4) for c in gone) for _, parents in offs)
    assert C.advanced_offs(ch, ch.src) == []   # nothing removed: no chain deduction


# The ladder made faster (issue 19's speed target) must rate and solve exactly as before:
# puzzles of the hard and wide samples of bench_rating_hard.py (at 8c9a24d), one or two per hardest rung,
# with the rating, hardest technique, number of steps and a digest of every step (technique,
# placements, eliminations, rating) that the ladder of commit fdfb409 (before the speed work)
# gave.
BEFORE_SPEEDUP = [
    (".2.....8.4.9...2.1...........25.41..53.....269..1.3..5....5....3..712..9.5..9..4.", 6.7, "bidirectional y-cycle", 57, "e07dfbab28bec4a2"),
    ("9.......57...1...6.5.637.1...9...1..4.6...5.8...829....3..6..5...71523...........", 6.6, "bidirectional y-cycle", 59, "74c0c2a0c7adb3d3"),
    (".....32...13.75.......9.8....978.6.46..1.9..84.8.361....6.1.......35.74...76.....", 7.1, "forcing chain", 56, "fc861bc1b41c1d12"),
    (".69...42...4.6.1.....438.....3.5.7..6.......5..8...9.....6.7....7.2.9.1.8..5.3..9", 7.1, "forcing chain", 60, "7b25eddba07a7bd8"),
    ("..5.2.4....21..3.587.....2.2.19........8.2........12.4.4.....825.8..71....7.1.6..", 7.0, "bidirectional cycle", 60, "88fda47d447c80a0"),
    ("....9.....96.3.28.5..1.4..7...417.....7...9....59.86..9.......82...7...9.4.....5.", 7.0, "bidirectional cycle", 64, "2c0e319d459a3ce3"),
    ("6.9.4.7.8.3.1...9.4...9...6...516.3.3.17.29.5.5.934...1...2...9.9...1.8.8.3.5.1.7", 8.3, "multiple forcing chain", 52, "ddd59d356acc3ada"),
    ("....39.7..9.5.43.........851..3.......4.9.8.......7..385.........18.3.9..3.12....", 8.2, "multiple forcing chain", 62, "0132b064d4ad89eb"),
    ("........1..7.1....6..5..37.3.1..4.9..6.1.5.4..4.3..7.5.94..3..6....8.9..5........", 7.7, "nishio forcing chain", 63, "4ca669cd704e7b7a"),
    ("4..3.1..8.9..7..6.....2.....74...63.3.......2....4......64.81...5.7.2.4...8.6.7..", 8.0, "nishio forcing chain", 66, "bbd3a31ba774e27d"),
    (".2..1..3.3.1...5.25..7.3..1.63...24....4.9...1.......7.35...89.....5.......896...", 8.9, "dynamic forcing chain", 74, "c87a217fa20604dc"),
    ("....9......64....24...75.1...8...93...1...5...54...7...3.82...56....42......1....", 5.5, "wxyz-wing", 59, "288a908350c42fe4"),
    ("..1.......5.82..7......15.6.1....3.9..6.4.2..8.3....1.9.53......2..79.6.......1..", 5.5, "3 strong links", 67, "bcadf86686a95c9a"),
    (".4....6..5.3..69...2.3..187....87..2.3.....9.2..13....762..8.3...56..7.9..9....6.", 5.6, "bug", 51, "7f7347a1cccd560e"),
    (".83.4..2.2..7.3..6..61.....6....75..8.......4..52....8.....16..7..5.2..1.6..7.29.", 5.2, "jellyfish", 56, "2723af893203b45f"),
    (".....8...81.49..7279.....5.35..4.8...2.....1...8.5..43.6.....8948..79.31...8.....", 4.0, "turbot fish", 52, "c0f06e06f7dc5d19"),
]


@pytest.mark.parametrize("line, rating, hardest, steps, digest", BEFORE_SPEEDUP)
def test_ladder_rates_and_steps_as_before_it_was_made_faster(line, rating, hardest, steps, digest):
    import hashlib
    p = parse_sudoku_line(line)
    lad = se_ladder(p.box, p.givens, seconds=None)
    said = [(s.technique, s.placements, s.eliminations, s.rating) for s in lad.steps]
    assert (lad.status, lad.rating, lad.hardest, len(lad.steps)) == ("solved", rating, hardest, steps)
    assert hashlib.sha256(repr(said).encode()).hexdigest()[:16] == digest


def test_the_per_value_memos_answer_as_a_fresh_search():
    # fish, turbot, strong links, pointing and the subsets remember in the puzzle's memo the
    # values and units that gave nothing: at every step of the ladder's path, the step found
    # with everything remembered so far is the step found with nothing remembered
    from puzzlebench.techniques import ladder as human
    p = parse_sudoku_line(BEFORE_SPEEDUP[9][0])
    g = human.geometry(p.box)
    s = human.State.from_givens(g, p.givens)
    solver = human.HumanSolver(p.box, ladder="se", assume_unique=True)
    remembered = 0
    while s.unsolved:
        before = len(s.memo.nothing)
        step = solver.next_step(s)
        fresh = human.State(g, s.cand[:], s.val[:], s.placed[:], s.unsolved)  # a new memo
        assert not fresh.memo.nothing and fresh.memo is not s.memo
        assert human.HumanSolver(p.box, ladder="se", assume_unique=True).next_step(fresh) == step
        remembered += before > 0
        s.apply(step)
    assert remembered and s.memo.nothing and s.copy().memo is s.memo


def test_the_chain_context_answers_as_a_fresh_search():
    # the chain rungs remember, between the steps of a puzzle, the X pass's searches and
    # hints and the Nishio hints of every value whose cells did not change: rung 1 and the
    # Nishio rung asked at every chain step of the ladder's path with one context per
    # puzzle give the hints they give with a fresh one
    from puzzlebench.techniques import ladder as human
    asked = reused_x = reused_nishio = 0
    for line, rating, *_ in BEFORE_SPEEDUP:
        if rating < 6.5:
            continue
        p = parse_sudoku_line(line)
        ctx = C.ChainContext()
        s = human.State.from_givens(human.geometry(p.box), p.givens)
        solver = human.HumanSolver(p.box, ladder="se", assume_unique=True)
        while s.unsolved:
            step = solver.next_step(s)
            if step.rating >= 6.5:
                before_x, before_n = dict(ctx.x_values), dict(ctx.nishio)
                assert C.cycles_and_forcing_chains(s, ctx=ctx) == C.cycles_and_forcing_chains(s)
                nishio = C.RUNGS["nishio"]
                assert C.multiple_chains(s, ctx=ctx, **nishio) == C.multiple_chains(s, **nishio)
                asked += 1
                # what was remembered at an earlier step and answered now
                reused_x += sum(ctx.x_values[k] is memo for k, memo in before_x.items())
                reused_nishio += sum(ctx.nishio[k] is memo for k, memo in before_n.items())
            s.apply(step)
    assert asked >= 10 and reused_x and reused_nishio


def test_an_x_cycle_remembered_is_the_hint_a_fresh_search_gives():
    # the X-cycle of 5 of test_cycle_on_a_constructed_grid, found, then a candidate of
    # another value removed: the pass of 5 answers from the context (its memo is the same
    # object, holding the hint) and the rung's hint is the fresh search's
    g = geometry((3, 3))
    s = State(g, [g.full] * 81, [0] * 81, [0] * 27, 81)
    for r in (0, 4):
        for c in range(9):
            if r * 9 + c not in {0, 4, 36, 40}:
                s.cand[r * 9 + c] &= ~(1 << 4)
    ctx = C.ChainContext()
    first = C.cycles_and_forcing_chains(s, ctx=ctx)
    memo, memo_1 = ctx.x_values[4], ctx.x_values[0]
    assert first.technique == "bidirectional x-cycle" and memo.stages[0][0] is not None
    s.cand[80] &= ~1  # 1 leaves I9
    again = C.cycles_and_forcing_chains(s, ctx=ctx)
    assert ctx.x_values[4] is memo and ctx.x_values[0] is not memo_1  # 1's cells changed
    assert again == C.cycles_and_forcing_chains(s) == first
