"""``puzzlebench rate``: rate puzzles, or fit a rating model to labelled puzzles.

    puzzlebench rate FILE|- [--explain] [--model se|human|PATH] [--format text|jsonl|html]
                     [--time-limit SECONDS] [--out PAGE.html]
    puzzlebench rate --fit DATA --labels COLUMN --out model.json [--features full|seed]
                     [--method lstsq|anneal] [--transform none|log] [--folds K]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

from ..errors import Place, PuzzleError, UnsupportedShapeError, UsageError
from ..options import INT32_MAX, NON_NEGATIVE, SEED, TIME, Whole
from ..outputs import check_output, write_output
from ..models.sudoku import Sudoku, parse_sudoku_line
from ..rating import BUILTIN_MODELS, LADDER_SECONDS, Rating, get_model, rate_profile
from ..rating.data import read_records
from ..rating.model import correlations, cross_validate, fit
from ..rating.profile import FEATURE_SETS, feature_vector, profile_puzzle
from ..rating.steps_page import error_section, page, rated_section
from .common import (EXIT_OK, EXIT_SOME_ERRORS, Tally, read_records as read_puzzle_records, read_text,
                     record_error_text, report_error)

FOLDS = Whole(2, INT32_MAX)   # k of the k-fold cross-validation


def register(subparsers) -> None:
    p = subparsers.add_parser("rate", help="rate Sudoku difficulty with human techniques, or fit a rating model",
                              description="Rate puzzles by how a person would solve them (human "
                                          "techniques, a fitted model on the SE scale), or fit a rating "
                                          "model to labelled puzzles.")
    p.add_argument("file", nargs="?", help="Sudoku puzzles in any form solve reads (a CSV: the 'puzzle' column; a puzzle "
                                           "of another kind is an error naming its kind); - for stdin")
    p.add_argument("--explain", action="store_true", help="list every step in words")
    p.add_argument("--model", default="se",
                   help=f"built-in model ({', '.join(BUILTIN_MODELS)}: SE scale / human seconds) or a model JSON")
    p.add_argument("--format", choices=("text", "jsonl", "html"), default="text",
                   help="text: a line a puzzle; jsonl: a JSON object a puzzle; html: one self-contained page "
                        "with every step drawn on the grid (to --out, or stdout) (default %(default)s)")
    p.add_argument("--time-limit", type=TIME, default=LADDER_SECONDS, metavar="SECONDS",
                   help="per puzzle, for Sudoku Explainer's ladder of techniques (default %(default)g; 0: none); "
                        "past it the record says ladder \"timeout\" and the model scores the puzzle")
    fitting = p.add_argument_group("fitting (--fit)")
    fitting.add_argument("--fit", metavar="DATA", help="fit a model to the labelled puzzles of DATA")
    fitting.add_argument("--labels", metavar="COLUMN", help="label column: CSV header name or 1-based field number")
    p.add_argument("--out", metavar="FILE", help="where the fitted model (--fit) or the page (--format html) is written")
    fitting.add_argument("--features", choices=sorted(FEATURE_SETS), default="full",
                         help="seed: Σ α n + Σ β [n>0] as in Landreau's TIPE 2025 study; full: plus hardest technique, "
                              "guessing, singles and visual criteria (default); full+quine: plus the Quine "
                              "measure (Landreau, section 3)")
    fitting.add_argument("--method", choices=("lstsq", "anneal"), default="lstsq",
                         help="lstsq: ridge least squares; anneal: simulated annealing of the same loss "
                              "(default %(default)s)")
    fitting.add_argument("--transform", choices=("none", "log"), default="none",
                         help="fit log(label) (use for solve times)")
    fitting.add_argument("--ridge", type=NON_NEGATIVE, default=1.0,
                         help="the ridge term's weight on the standardised features (default %(default)s)")
    fitting.add_argument("--folds", type=FOLDS, default=5, help="k of the k-fold cross-validation")
    fitting.add_argument("--seed", type=SEED, default=1,
                         help="seed of the folds' shuffle and of the annealing (default %(default)s)")
    fitting.add_argument("--name", help="the model's name (default: the output file's stem)")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.fit:
        return run_fit(args)
    if not args.file:
        raise UsageError("rate: give a FILE of puzzles (or -), or --fit DATA --labels COLUMN --out MODEL.json")
    if args.labels:
        raise UsageError("rate: --labels goes with --fit")
    if args.out and args.format != "html":
        raise UsageError("rate: --out goes with --fit or --format html")
    return run_rate(args)


def run_rate(args) -> int:
    """Rate every Sudoku of the file, read as ``solve`` reads puzzles (any of its forms,
    streamed); a record that is not a Sudoku, or not one puzzle, is an error record and the
    others go on; the exit code follows the commands' one rule."""
    model = get_model(args.model)
    needs_quine = any(f.startswith("quine:") for f in model.features)
    # the kind inferred, so that a puzzle of another kind is named as such (read as a Sudoku,
    # N-Queens' "8" would be "value 8 is out of range for a 1x1 Sudoku"); a Sudoku where two readings are
    # possible (16 numbers: rush-01 clues too)
    inputs = argparse.Namespace(files=[args.file], kind=None, box=None, prefer="sudoku")
    html = args.format == "html"
    read_files = [args.file] + ([args.model] if args.model not in BUILTIN_MODELS else [])
    if html and args.out:
        check_output(args.out, "--out", read_files)   # now, not after minutes of work
    sections: list[str] = []
    tally = Tally()
    seconds = args.time_limit or None
    ladder = Counter()
    for rec in read_puzzle_records(inputs):
        if rec.puzzle is not None and not isinstance(rec.puzzle, Sudoku):
            rec = replace(rec, puzzle=None, error=UnsupportedShapeError(
                f"rate rates Sudoku only (its techniques and models are about rows, columns and blocks); "
                f"this is a {rec.puzzle.kind} puzzle, {rec.puzzle.shape}", Place(rec.set_name, rec.line)))
        if rec.puzzle is None:
            report_error(record_error_text(rec))
            rating = Rating("error", message=str(rec.error))
            rating.source, rating.puzzle = rec.source, None
        else:
            prof = profile_puzzle(rec.puzzle.box, rec.puzzle.givens, quine=needs_quine, ladder=True,
                                  ladder_seconds=seconds)
            rating = rate_profile(prof, model)
            rating.source, rating.puzzle = rec.source, rec.puzzle.write()
        tally.add(rating.status, error=rec.puzzle is None)
        if rating.ladder:
            ladder[rating.ladder] += 1
        if html:
            sections.append(html_section(len(sections) + 1, rating, rec.puzzle))
        else:
            print(json.dumps(rating.to_dict(args.explain)) if args.format == "jsonl"
                  else format_text(rating, args.explain), flush=True)
    if html:
        write_page(args.out, page(f"puzzlebench rate {args.file}", sections), read_files)
    if args.format != "jsonl" and tally.records:
        print(summary_line(tally, ladder), file=sys.stderr)
    return tally.exit_code()


def html_section(number: int, rating: Rating, puzzle) -> str:
    """A puzzle's part of the page: its steps drawn, or the text record of an error or of a
    puzzle that is not proper."""
    text = format_text(rating, False)
    if rating.status != "unique":
        return error_section(number, text)
    heading, *facts = text.split("\n")
    return rated_section(number, heading, [f.strip() for f in facts], puzzle, rating.moves)


def write_page(path: str | None, text: str, inputs: list[str]) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    write_output(path, text, "--out", inputs)
    print(f"wrote {path}", file=sys.stderr)


def summary_line(tally: Tally, ladder: Counter) -> str:
    """The closing line: records by status, and how SE's ladder fared on the proper 9x9
    puzzles: ``no_guess`` the share it solved with techniques only (timeouts count as not
    solved)."""
    laddered = sum(ladder.values())
    text = tally.summary().rsplit(";", 1)[0]
    if laddered:
        share = 100.0 * ladder.get("solved", 0) / laddered
        text += (f"; SE ladder: {ladder.get('solved', 0)} solved, {ladder.get('beyond', 0)} beyond "
                 f"(guess), {ladder.get('timeout', 0)} timeout; %no_guess {share:.1f}")
    return text


def format_text(r: Rating, explain: bool) -> str:
    if r.status == "error":
        place, _, problem = r.message.partition(": ")
        return f"{place}: error: {problem}"
    if r.status != "unique":
        return f"{r.source}: {r.status}: {r.message}"
    unit = "s" if r.model == "human" else ""
    scored = "SE rule" if r.scored_by == "se-ladder" else f"{r.model} model"
    ladder = {"solved": f"SE ladder solved it ({r.se_rating:.1f})" if r.se_rating is not None else "",
              "beyond": "beyond SE's ladder (guess)",
              "timeout": f"timeout: SE's ladder stopped after {r.ladder_seconds or 0:.1f}s"}.get(r.ladder or "", "")
    lines = [f"{r.source}: score {r.score:.2f}{unit} ({scored})  hardest: {r.hardest}  "
             f"guesses {r.guesses}, backtracks {r.backtracks}, depth {r.depth}"
             + (f"  [{ladder}]" if ladder else ""),
             "  techniques: " + ", ".join(f"{t} {n}" for t, n in r.techniques.items()),
             "  criteria: " + ", ".join(f"{k} {v:g}" for k, v in r.criteria.items())]
    if explain:
        lines += [f"  {i:3d}. {s}" for i, s in enumerate(r.steps, start=1)]
    return "\n".join(lines)


def run_fit(args) -> int:
    if args.file:
        raise UsageError("rate --fit takes no puzzle FILE (the puzzles are in DATA)")
    if not args.labels:
        raise UsageError("rate --fit needs --labels COLUMN (a CSV header name or a 1-based field number)")
    if not args.out:
        raise UsageError("rate --fit needs --out MODEL.json")
    check_output(args.out, "--out", [args.fit])   # now, not after the fit
    text, source = read_text(args.fit)
    records = read_records(text, source, args.labels)
    names = FEATURE_SETS[args.features]
    rows, labels, skipped, unread = [], [], 0, 0
    for rec in records:
        try:
            puzzle = parse_sudoku_line(rec.puzzle, source=source)
        except PuzzleError as exc:   # one bad line never stops the fit: said, counted, left out
            err = exc.located(source, rec.line)
            report_error(f"{err.place}: error: {err.message}")
            unread += 1
            continue
        prof = profile_puzzle(puzzle.box, puzzle.givens, quine=args.features.endswith("quine"))
        if prof.status != "unique":
            skipped += 1
            print(f"puzzlebench: {source}:{rec.line}: skipped: {prof.status}", file=sys.stderr)
            continue
        f = feature_vector(prof)
        rows.append([f.get(k, 0.0) for k in names])
        labels.append(rec.label)
    if len(rows) < max(args.folds, 2):
        raise UsageError(f"rate --fit: {len(rows)} proper puzzles in {source}; need at least {max(args.folds, 2)}")
    X, y = np.array(rows), np.array(labels)
    if args.transform == "log" and (y <= 0).any():
        raise UsageError("rate --fit --transform log: every label must be positive")
    name = args.name or Path(args.out).stem
    target = f"{args.labels} of {Path(source).name}"

    def fitter(Xt, yt):
        return fit(Xt, yt, names, name=name, target=target, transform=args.transform,
                   method=args.method, ridge=args.ridge, seed=args.seed)

    pred = cross_validate(X, y, fitter, k=args.folds, seed=args.seed)
    cv = correlations(pred, y)
    model = fitter(X, y)
    model.fitted = {
        "data": Path(source).name, "labels": args.labels, "rows": len(y), "skipped": skipped, "unread": unread,
        "features": args.features, "method": args.method, "ridge": args.ridge,
        "transform": args.transform, "folds": args.folds, "seed": args.seed,
        "command": "puzzlebench rate " + " ".join(shlex.quote(a) for a in sys.argv[2:])
        if len(sys.argv) > 2 and sys.argv[1] == "rate" else None,
        "cross_validation": {k: {"r": c.r, "low": c.low, "high": c.high, "n": c.n} for k, c in cv.items()},
    }
    write_output(args.out, model.to_json(), "--out", [args.fit])
    print(f"fitted {name} on {len(y)} puzzles of {source} ({args.features} features, {args.method}"
          f"{', log labels' if args.transform == 'log' else ''}); {skipped} skipped"
          f"{f', {unread} not read (errors above)' if unread else ''}")
    print(f"{args.folds}-fold cross-validated Pearson r {cv['pearson']}  Spearman rho {cv['spearman']}  (95% CI)")
    top = sorted(zip(model.features, model.weights), key=lambda kv: -abs(kv[1]))[:8]
    print("largest weights: " + ", ".join(f"{k} {w:+.3g}" for k, w in top))
    print(f"wrote {args.out}")
    return EXIT_SOME_ERRORS if unread else EXIT_OK
