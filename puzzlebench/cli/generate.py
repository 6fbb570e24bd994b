"""``puzzlebench generate KIND``: seeded puzzles, one per line (Latin squares: a ``.pls`` block
each), each with its solution so that ``check`` verifies it; the generators are
:mod:`puzzlebench.generators`.
"""

from __future__ import annotations

import contextlib
import sys

from ..errors import UsageError
from ..generators.sudoku import LARGE_GRID
from ..models.kinds import KINDS, generated_kinds, shaped_by_box
from ..models.sudoku import DIGITS, parse_box
from ..options import AMOUNT, COUNT, FINITE, FRACTION, MEMORY, SEED, SIZE, TIME
from ..outputs import open_output
from ..runtime.child import check_memory_limit
from .common import EXIT_OK
from .rate import LADDER_SECONDS   # rate's time limit and its default


def generate_options() -> dict[str, tuple[str, ...]]:
    """The kinds each option of generate shapes (any other refuses it), from the kinds' entries."""
    def taking(option: str) -> tuple[str, ...]:
        return tuple(k for k in generated_kinds() if option in KINDS[k].generate_options)
    return {"box": shaped_by_box(), "clues": taking("clues"), "check_seconds": taking("check_seconds"),
            "recheck_seconds": taking("recheck_seconds"),
            "size": tuple(k for k in generated_kinds() if k not in shaped_by_box()),
            **{name: taking(name) for name in ("remove", "placed", "holes", "balanced", "rating", "unsat")}}


GENERATE_DEFAULTS = {"remove": 0.5, "placed": 0, "holes": 0.42}


def _check_generate_options(args) -> None:
    """An option the kind takes no notice of is refused (``generate sudoku --size 4`` wrote a
    9x9, silently), then the defaults of those left out are filled in."""
    for name, kinds in generate_options().items():
        if getattr(args, name, None) not in (None, False) and args.kind not in kinds:   # "rating" is a group, no one option
            option = f"--{name.replace('_', '-')}"
            hint = (": its shape is --box RxC (--box 2x2 for 4x4, 3x3 for 9x9)" if name == "size"
                    else f": it goes with generate {', '.join(kinds)}")
            raise UsageError(f"{option} does not go with generate {args.kind}{hint}")
    for name, value in GENERATE_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, value)


def cmd_generate(args) -> int:
    from ..generators.dispatch import check_generation
    _check_generate_options(args)
    box = parse_box(args.box) if args.box else (3, 3)
    entry = KINDS[args.kind]
    size = args.size if args.size is not None else entry.default_shape if entry.shape == "size" else 6
    warning = check_generation(args.kind, box if entry.shape == "box" else size, holes=args.holes)
    if warning:   # checked before the output file is made
        print(f"puzzlebench: warning: {warning}", file=sys.stderr)
    slow, measured = entry.slow_from or (size + 1, "")
    if slow <= size <= len(DIGITS):
        print(f"puzzlebench: warning: a {args.kind} of size {size} takes minutes a puzzle (each uniqueness "
              f"check is a hard search; {measured})", file=sys.stderr)
    rated = _rating_target(args, box)
    if args.check_seconds is not None and not args.check_seconds > 0:
        raise UsageError(f"--check-seconds must be more than 0; got {args.check_seconds:g}")
    _check_recheck(args.recheck_seconds, args.check_seconds, rated)
    with _output(args.out) as out:
        if rated:
            return _generate_rated(args, out)
        return _generate(args, out, box, size)


def _check_recheck(recheck: float | None, check: float | None, rated: bool) -> None:
    """``--recheck-seconds`` checks again what ``--check-seconds`` left undecided: longer, and only
    with it (a rated 9x9 decides every check in milliseconds)."""
    if recheck is None:
        return
    if rated:
        raise UsageError("--recheck-seconds does not go with a rating target: rated puzzles are 9x9, "
                         "whose checks end in milliseconds")
    if check is None:
        raise UsageError("--recheck-seconds goes with --check-seconds: without it no check is left undecided")
    if not recheck > check:
        raise UsageError(f"--recheck-seconds must be more than --check-seconds ({check:g}); got {recheck:g}")


def _output(path: str | None):
    """``--out FILE`` (checked at once; in place, whole, when the command ends, and with the
    puzzles finished at a Ctrl-C), or standard output."""
    return open_output(path, "--out", keep_interrupted=True) if path else contextlib.nullcontext(sys.stdout)


def _generate(args, out, box: tuple[int, int], size: int) -> int:
    from ..generators import generate
    from ..generators.dispatch import cells_tried
    from ..harness.progress import Progress
    n = box[0] * box[1] if KINDS[args.kind].shape == "box" else size
    label = args.kind if KINDS[args.kind].shape == "box" else f"{args.kind} {n}x{n}"
    cells = cells_tried(args.kind, box)
    if cells:  # a large puzzle takes minutes: the bar counts the clues tried, a puzzle's cells each
        label = f"{args.kind} {n}x{n}, clues tried"
    progress = Progress(args.count * (cells or 1), [label], sys.stderr, enabled=not args.quiet)
    on_cell = (lambda: progress.update(label, "sat")) if cells else None
    try:
        for index, puzzle in enumerate(generate(args.kind, args.count, args.seed, box=box, clues=args.clues, size=size,
                               remove=args.remove, placed=args.placed, holes=args.holes,
                               balanced=args.balanced, check_seconds=args.check_seconds,
                               recheck_seconds=args.recheck_seconds, unsat=args.unsat,
                               on_cell=on_cell, memory_limit=check_memory_limit(args.memory_limit)), 1):
            print(puzzle.write_generated(f"seed {args.seed}, {index} of {args.count}"), file=out, flush=True)
            if cells:   # a pass stopped at --clues leaves cells untried: the bar goes on to this puzzle's end
                progress.update_many(label, index * cells - progress.done, 0, 0)
            else:
                progress.update(label, "sat")
            undecided = puzzle.metadata.get("undecided")
            if undecided:
                limit = (f"--recheck-seconds {args.recheck_seconds:g}" if args.recheck_seconds is not None
                         else f"--check-seconds {args.check_seconds:g}")
                print(f"puzzlebench: warning: puzzle {index}: {undecided} clues kept undecided (their check "
                      f"passed {limit}): unique, but not proven minimal", file=sys.stderr)
    finally:
        progress.finish()
    return EXIT_OK


RATING_OPTIONS = ("rating_min", "rating_max", "technique")
RATING_ONLY = ("attempts", "rating_seconds")   # meaningful only with a rating target


def _rating_target(args, box) -> bool:
    """Whether generation aims at a rating; the options checked before any output is made."""
    from ..generators.dispatch import RATED
    given = [f"--{o.replace('_', '-')}" for o in RATING_OPTIONS if getattr(args, o) is not None]
    if not given:
        for o in RATING_ONLY:
            if getattr(args, o) is not None:
                raise UsageError(f"--{o.replace('_', '-')} goes with --rating-min, --rating-max or --technique")
        return False
    if args.unsat:
        raise UsageError(f"{given[0]} and --unsat do not go together: a rated puzzle has its solution")
    if "rating" not in KINDS[args.kind].generate_options:
        raise UsageError(f"{given[0]} goes with generate {', '.join(generate_options()['rating'])}, not {args.kind}")
    check = RATED[args.kind][0]
    args.rating_min, args.rating_max = check(box, args.clues, args.rating_min, args.rating_max, args.technique,
                                             given[0])
    return True


def _generate_rated(args, out) -> int:
    """``generate KIND --rating-min/--rating-max/--technique``: each line the puzzle, its
    solution and its score; the bar counts the candidates tried, the found ones as a column."""
    from ..generators.dispatch import RATED
    from ..harness.progress import Progress
    _, generate_rated, attempts_per_puzzle = RATED[args.kind]
    budget = args.attempts or attempts_per_puzzle * args.count
    progress = Progress(budget, ["tried", "found"], sys.stderr, enabled=not args.quiet)

    def on_attempt(kept: bool) -> None:
        progress.update("tried", "sat")
        if kept:
            progress.per_solver["found"][0] += 1
    try:
        for puzzle in generate_rated(args.count, args.seed, args.rating_min, args.rating_max,
                                     technique=args.technique, attempts=budget, check_seconds=args.check_seconds,
                                     rating_seconds=args.rating_seconds, on_attempt=on_attempt):
            print(f"{puzzle.write()} {puzzle.metadata['solution']} {puzzle.metadata['rating']}",
                  file=out, flush=True)
    finally:
        progress.finish()
    return EXIT_OK


def register(sub) -> None:
    kinds = generated_kinds()
    boxed = [k for k in kinds if KINDS[k].shape == "box"]
    sized = ", ".join(f"{k} {KINDS[k].default_shape}" for k in kinds if KINDS[k].shape == "size")
    p = sub.add_parser("generate", help=f"seeded puzzles of every kind with a generator: {', '.join(kinds)}")
    p.add_argument("kind", choices=kinds, help="the kind of puzzle to generate")
    p.add_argument("--count", type=COUNT, default=10, help="how many puzzles (default %(default)s)")
    p.add_argument("--seed", type=SEED, default=0,
                   help="random seed: the same seed, the same puzzles (default %(default)s)")
    p.add_argument("--box", metavar="RxC", help=f"the block shape of {', '.join(boxed)} (default 3x3)")
    p.add_argument("--clues", type=AMOUNT, help="Sudoku: this many clues (default: minimal)")
    p.add_argument("--size", type=SIZE, help=f"the size of the other kinds (default: {sized})")
    p.add_argument("--remove", type=FRACTION, help="Skyscrapers: share of clues to remove (0..1, default 0.5)")
    p.add_argument("--placed", type=AMOUNT, help="N-Queens: pre-placed queens (default 0)")
    p.add_argument("--holes", type=FRACTION,
                   help="Latin: share of the cells emptied, 0..1 (default 0.42, near the hardest)")
    p.add_argument("--check-seconds", type=TIME, metavar="S",
                   help="Sudoku: time limit of each uniqueness check; a clue whose removal is not decided "
                        "in time is kept (unique, not proven minimal); default none (from "
                        f"{LARGE_GRID} values the counter's quick look, then a SAT solver, on each check)")
    p.add_argument("--recheck-seconds", type=TIME, metavar="S",
                   help="Sudoku: with --check-seconds, each clue left undecided checked again, S seconds "
                        "(more than --check-seconds), once every clue is tried: a deeper, harder puzzle for "
                        "the few checks that need it")
    p.add_argument("--unsat", action="store_true",
                   help="Sudoku: each unique puzzle given one more clue that breaks no rule at once yet leaves no "
                        "solution (for testing unsat claims and their proofs)")
    p.add_argument("--balanced", action="store_true",
                   help="Latin: as many holes in every row and column (Kautz et al. 2001), not uniform")
    p.add_argument("--rating-min", type=FINITE, metavar="X",
                   help="Sudoku 9x9: only puzzles rated X or more (rate's default score, SE scale 1-12)")
    p.add_argument("--rating-max", type=FINITE, metavar="Y", help="Sudoku 9x9: only puzzles rated Y or less")
    p.add_argument("--technique", metavar="NAME",
                   help="Sudoku 9x9: only puzzles whose explanation (rate --explain) uses this technique")
    p.add_argument("--attempts", type=COUNT, metavar="N",
                   help="with a rating target: puzzles tried at most (default 200 per puzzle asked)")
    p.add_argument("--rating-seconds", type=TIME, metavar="SECONDS",
                   help=f"with a rating target: rate's --time-limit for each rating (default {LADDER_SECONDS:g}; 0: none)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--memory-limit", type=MEMORY, metavar="MB",
                   help="what a uniqueness check's encoding may take (MB of 2^20 bytes), estimated before "
                        "it is made; default 2048")
    p.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    p.set_defaults(func=cmd_generate)
