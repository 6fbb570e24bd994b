"""What a certified 9x9 answer costs when the bitboard engine proves its own claim, against the
CaDiCaL prover, in the same run: per set, the solve, the engine's own proof (its size, the time
to write it and to check it) and the same claim proved by CaDiCaL 1.9.5 and checked by the same
checker, puzzle by puzzle in turn.  Targets: all-in (solve, proof, check) at most 5 ms
a puzzle on 17-clue puzzles and 50 ms on the forum's hardest.  Writes results/certify_native.md.
``--large``: the section on larger grids instead (every 50th 16x16 of the Vu set and the hard
25x25 of results/generated/hard25.txt), whose proofs come from clause learning
(native/sudokun_cdcl_proof.c); target: on hard 25x25 the check no longer than the solve.
``--dlx``: the dlx engine's own proofs (``--puzzles`` of the forum's hardest, every 100th 16x16).

    python benchmarks/bench_native_proofs.py [--puzzles 500] [--large | --dlx]
"""

from __future__ import annotations

import argparse
import statistics
import time

from puzzlebench import api, parse
from puzzlebench.engines.certify import certify
from puzzlebench.engines.registry import make_engine
from puzzlebench.harness.pages import (command_line, data_lines, load_now, md_table, splice_section, spread,
                                       write_page)
from puzzlebench.runtime.limits import Deadline

LARGE = "## Larger grids: proofs from clause learning"
DLX = "## The dlx engine's own proofs"
HARD25 = "results/generated/hard25.txt"
SETS = {"sudoku9_royle_17clue_49158.txt": 5.0, "sudoku9_forum_hardest_1905_11plus.txt": 50.0,
        "sudoku9_magictour_top1465.txt": None}
LEAD = ("The bitboard engine proves its own 9x9 claims (unique, unsat) with the DRUP proof its kernel writes as it "
        "searches again (native/sudoku9_proof.c), checked by the package's DRAT checker; against the claims proved "
        "by CaDiCaL 1.9.5 (the default prover) and checked by the same checker, puzzle by puzzle in the same run.")


def one_more_given(text: str, solution: str) -> str:
    """``text`` with a given that repeats no value in its row, column or box but differs from the
    solution: a puzzle with none."""
    for cell, ch in enumerate(text):
        row, col = divmod(cell, 9)
        peers = [r * 9 + col for r in range(9)] + [row * 9 + c for c in range(9)] + [
            (row // 3 * 3 + r) * 9 + col // 3 * 3 + c for r in range(3) for c in range(3)]
        for value in "123456789" if ch == "." else "":
            if value != solution[cell] and all(text[p] != value for p in peers):
                return text[:cell] + value + text[cell + 1:]
    raise ValueError("no such given")


def measure(texts: list[str], spec: str = "bitboard") -> dict[str, list[float]]:
    """Each puzzle's figures with engine ``spec``, in ms (proof size in bytes)."""
    engine, cadical = make_engine(spec), make_engine("sat:cadical195")
    figures: dict[str, list[float]] = {}
    for text in texts:
        puzzle = parse(text)
        start = time.perf_counter()
        result = engine.run(puzzle, limit=2)
        solve = time.perf_counter() - start
        start = time.perf_counter()
        own = certify(puzzle, result, Deadline(60), cadical, engine=engine)
        own_all = time.perf_counter() - start
        start = time.perf_counter()
        sat = certify(puzzle, result, Deadline(60), cadical)
        sat_all = time.perf_counter() - start
        start = time.perf_counter()
        answered = api.solve(text, solver=spec, certify=True)
        end_to_end = time.perf_counter() - start
        assert (own.status, own.prover, sat.status, answered.certificate.status) == (
            "verified", spec, "verified", "verified"), (text, own, sat)
        size = len(engine.prove(puzzle, result.solutions, Deadline(60)))
        for key, value in (("solve", solve), ("own prove", own.prove_seconds), ("own check", own.check_seconds),
                           ("own all-in", solve + own_all), ("api", end_to_end), ("sat prove", sat.prove_seconds),
                           ("sat check", sat.check_seconds), ("sat all-in", solve + sat_all)):
            figures.setdefault(key, []).append(value * 1e3)
        figures.setdefault("bytes", []).append(size)
    return figures


def row(name: str, kind: str, f: dict[str, list[float]], target: float | None) -> list[str]:
    mean = {key: statistics.fmean(values) for key, values in f.items()}
    worst = max(f["own all-in"])
    verdict = "—" if target is None else f"{target:g} ms: {'met' if mean['own all-in'] <= target else 'missed'}"
    return [name, kind, str(len(f["solve"])), f"{mean['solve']:.3f}", f"{mean['bytes'] / 1024:.1f}",
            f"{mean['own prove']:.3f}", f"{mean['own check']:.2f}", f"{mean['own all-in']:.2f} (max {worst:.1f})",
            f"{mean['api']:.2f}", f"{mean['sat prove']:.2f}", f"{mean['sat check']:.2f}", f"{mean['sat all-in']:.2f}",
            f"{mean['sat all-in'] / mean['own all-in']:.1f}", verdict]


HEADER = ["set", "claims", "puzzles", "solve ms", "own proof KB", "own prove ms", "own check ms", "own all-in ms",
          "api.solve(certify) ms", "CaDiCaL prove ms", "CaDiCaL check ms", "CaDiCaL all-in ms", "all-in ratio",
          "target (all-in, mean)"]


def section(out: str, heading: str, spec: str, sets: dict[str, list[str]], what: str) -> None:
    """A section of unique claims by ``spec`` on ``sets`` (name -> puzzle lines), spliced into the page."""
    loads, rows = [load_now()], []
    for name, lines in sets.items():
        rows.append(row(name, "unique", measure([line.split()[0] for line in lines], spec), None))
        print(" | ".join(rows[-1]), flush=True)
        loads.append(load_now())
    splice_section(out, heading, [
        f"`{command_line()}`, {time.strftime('%Y-%m-%d', time.gmtime())}: {what} Columns as in the first table "
        "(ms a puzzle, wall, means).", "", *md_table(HEADER, rows, "ll" + "r" * 11 + "l"), "",
        f"Load during the run: {', '.join(loads)}."])


def large(out: str) -> None:
    section(out, LARGE, "bitboard", {
        "sudoku16_vu_kr_1000.txt": data_lines("sudoku16_vu_kr_1000.txt", every=50),
        HARD25: [line for line in open(HARD25) if line.strip() and not line.startswith("#")]},
        "the bitboard engine's own proof on grids beyond 9x9 comes from clause learning run from the start in its "
        "proof-writing build (native/sudokun_cdcl_proof.c: LRAT, every learnt clause a lemma with its hints, each "
        "forgotten one a deletion), checked by the same checker's LRAT mode, beside CaDiCaL's proof of the same claim.")


def dlx(out: str, puzzles: int) -> None:
    section(out, DLX, "dlx", {
        "sudoku9_forum_hardest_1905_11plus.txt": [line[:81] for line in spread(
            data_lines("sudoku9_forum_hardest_1905_11plus.txt"), puzzles)],
        "sudoku16_vu_kr_1000.txt": data_lines("sudoku16_vu_kr_1000.txt", every=100)},
        "the dlx engine's own proof (native/dlx_sudoku_proof.c: the negation of its decisions at each dead end, "
        "solution and refuted branch), checked by the same checker, beside CaDiCaL's proof of the same claim.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=500)
    parser.add_argument("--large", action="store_true", help="the section on 16x16 and hard 25x25 instead")
    parser.add_argument("--dlx", action="store_true", help="the section on the dlx engine's proofs instead")
    parser.add_argument("--out", default="results/certify_native.md")
    args = parser.parse_args()
    if args.large:
        large(args.out)
    elif args.dlx:
        dlx(args.out, args.puzzles)
    if args.large or args.dlx:
        print(f"wrote {args.out}")
        return
    loads, rows = [load_now()], []
    engine = make_engine("bitboard")
    for name, target in SETS.items():
        texts = [line[:81] for line in spread(data_lines(name), args.puzzles)]
        rows.append(row(name, "unique", measure(texts), target))
        print(" | ".join(rows[-1]), flush=True)
        solutions = ["".join(map(str, engine.run(parse(t), limit=1).solutions[0])) for t in texts[::5]]
        unsat = [one_more_given(t, s) for t, s in zip(texts[::5], solutions)]
        rows.append(row(name, "unsat (a given more)", measure(unsat), None))
        print(" | ".join(rows[-1]), flush=True)
        loads.append(load_now())
    lines = ["## Own proofs against CaDiCaL's", "",
             f"{args.puzzles} puzzles of each set evenly spread (limit 2), and every fifth of them with a given more "
             "that repeats nothing but leaves no solution. Means in ms a puzzle (wall). solve: `Engine.run`; own "
             "prove: the engine's proof search (`Engine.prove`); check: the DRAT checker on the claim formula; "
             "all-in: solve + the certify call (formula, proof, file, check); api.solve(certify): one call from the "
             "text, end to end; CaDiCaL: the same claim by the default prover on a fresh solver.", "",
             *md_table(HEADER, rows, "ll" + "r" * 11 + "l"), "",
             f"Load during the run: {', '.join(loads)}."]
    write_page(args.out, title="Certified 9x9 answers: the engine's own proofs", lead=LEAD, command=command_line(),
               writer="benchmarks/bench_native_proofs.py", loads=loads, lines=lines)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
