"""The package's DRAT checker beside drat-trim, the reference checker, on the same (formula,
proof) pairs: valid proofs from the cadical program (binary and text), PySAT's proof-logging
solvers (text) and the bitboard engine's own 9x9 proofs (binary), and seeded corrupted copies
of each.  Formulas: puzzle claim formulas (a unique puzzle with its solution blocked; a puzzle
given one clue more that leaves it no solution), pigeonhole and random 3-SAT near the
threshold.  Prints a Markdown section: the pairs counted by (ours, drat-trim's) verdict per
prover and per corruption, every disagreement with both checkers' reasons, and the CPU time of
both on the valid proofs.  drat-trim is not part of the package: give the path of a build.

    python benchmarks/bench_drat_trim.py --drat-trim PATH [--out FILE] [--formulas N] [--provers a,b]
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Sequence

from puzzlebench import parse
from puzzlebench.encoders.dimacs import binary_drat_step, write_clauses
from puzzlebench.engines.certify import check_proof, claim_formula
from puzzlebench.engines.registry import make_engine
from puzzlebench.engines.sat import PROOF_LOGGING
from puzzlebench.generators.sudoku import without_solution
from puzzlebench.harness.pages import command_line, data_lines, load_now, md_table, spread
from puzzlebench.runtime.limits import Deadline

PUZZLE_SETS = (("sudoku9_magictour_top1465.txt", 3), ("sudoku9_forum_hardest_1905_11plus.txt", 3),
               ("sudoku16_vu_kr_1000.txt", 2))
HARD25 = Path(__file__).resolve().parent.parent / "results" / "generated" / "hard25.txt"
HEAVY_PROVERS = ("cadical195", "glucose4")
"""The PySAT solvers run on the large formulas (25x25, pigeonhole 8): the others take minutes."""
MAX_PROOF_BYTES = 50 * 2 ** 20
SECONDS = 60
CORRUPTIONS = ("drop a middle lemma", "drop the empty clause", "truncate at half", "flip a literal",
               "delete an original clause first", "a lemma over a new variable", "binary cut mid-literal")


# -- formulas ------------------------------------------------------------------------------------

def puzzle_formulas() -> list[dict]:
    """Claim formulas of public puzzles (solution blocked) and of puzzles left without solution
    by one given more; the 9x9 ones keep the puzzle for the bitboard engine's own proof."""
    engine, rng, out = make_engine("bitboard"), random.Random(1), []
    for name, count in PUZZLE_SETS:
        for index, line in enumerate(spread(data_lines(name), count)):
            puzzle = parse(line.split()[0])
            solutions = engine.run(puzzle, limit=2).solutions
            out.append(_claim(f"{name.split('_')[0]} {name.split('_')[1]} #{index} unique", puzzle, solutions))
            if index == 0:
                solution = "".join(puzzle.format_solution(tuple(solutions[0])).split())
                puzzle.metadata["solution"] = solution
                out.append(_claim(f"{name.split('_')[0]} {name.split('_')[1]} #{index} unsat", without_solution(
                    puzzle, rng), []))
    lines = [line for line in HARD25.read_text().splitlines() if line and not line.startswith("#")]
    puzzle = parse(lines[0])
    out.append(_claim("sudoku25 hard25 #0 unique", puzzle, make_engine("bitboard").run(puzzle, limit=2).solutions,
                      heavy=True))
    return out


def _claim(name: str, puzzle, solutions, heavy: bool = False) -> dict:
    n_vars, clauses, _ = claim_formula(puzzle, solutions)
    return {"name": name, "n_vars": n_vars, "clauses": clauses, "heavy": heavy,
            "puzzle": puzzle if puzzle.n_values == 9 else None, "solutions": solutions}


def pigeonhole(holes: int) -> dict:
    var = lambda p, h: p * holes + h + 1
    clauses = [[var(p, h) for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var(p, h), -var(q, h)] for h in range(holes) for p in range(holes + 1) for q in range(p)]
    return {"name": f"pigeonhole {holes}", "n_vars": holes * (holes + 1), "clauses": clauses, "heavy": holes >= 8,
            "puzzle": None}


def random_3sat(n_vars: int, seed: int) -> dict | None:
    """A random 3-SAT formula at clause ratio 4.26, when it is unsatisfiable."""
    from pysat.solvers import Solver
    rng = random.Random(seed)
    clauses = [[v * rng.choice((1, -1)) for v in rng.sample(range(1, n_vars + 1), 3)]
               for _ in range(round(4.26 * n_vars))]
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        if solver.solve():
            return None
    return {"name": f"random 3-SAT n={n_vars} seed {seed}", "n_vars": n_vars, "clauses": clauses, "heavy": False,
            "puzzle": None}


def formulas() -> list[dict]:
    found = [f for f in (random_3sat(n, seed) for n in (50, 60, 75) for seed in range(8)) if f]
    per_size = {}
    for f in found:   # the first unsatisfiable one of each size
        per_size.setdefault(f["n_vars"], f)
    return [*puzzle_formulas(), *(pigeonhole(h) for h in (6, 7, 8)), *per_size.values()]


# -- proofs --------------------------------------------------------------------------------------

def proofs(formula: dict, cnf: Path, folder: Path, pysat: Sequence[str] | None) -> list[tuple[str, str, bytes]]:
    """(prover, "text" or "binary", the proof) of every prover on ``formula`` (of PySAT's, those
    named in ``pysat`` when given); the cadical program's where it is installed."""
    out = []
    for binary in (True, False) if shutil.which("cadical") else ():
        path = folder / "cadical.drat"
        run = subprocess.run(["cadical", "-q", "-t", str(SECONDS), f"--binary={str(binary).lower()}", str(cnf),
                              str(path)], capture_output=True, timeout=SECONDS + 30)
        if run.returncode == 20:
            out.append(("cadical program", "binary" if binary else "text", path.read_bytes()))
    from pysat.solvers import Solver
    for name in pysat or (HEAVY_PROVERS if formula["heavy"] else PROOF_LOGGING):
        try:
            with Solver(name=name, bootstrap_with=formula["clauses"], with_proof=True) as solver:
                if solver.solve() is False:
                    out.append((f"pysat {name}", "text", "".join(line + "\n" for line in solver.get_proof()).encode()))
        except NotImplementedError:
            continue
    if formula["puzzle"] is not None:
        own = make_engine("bitboard").prove(formula["puzzle"], formula["solutions"], Deadline(SECONDS))
        if own is not None:
            out.append(("bitboard (own)", "binary", own))
    return [p for p in out if len(p[2]) <= MAX_PROOF_BYTES]


def read_steps(proof: bytes, form: str) -> list[tuple[bool, list[int]]]:
    """The proof's steps: (is a deletion, literals)."""
    steps = []
    if form == "text":
        for line in proof.decode().splitlines():
            words = line.split()
            if not words or words[0] == "c":
                continue
            delete = words[0] == "d"
            steps.append((delete, [int(w) for w in words[delete:] if w != "0"]))
        return steps
    at = 0
    while at < len(proof):
        delete, at, lits, code, shift = proof[at] == ord("d"), at + 1, [], 0, 0
        while True:
            byte = proof[at]
            at += 1
            code |= (byte & 127) << shift
            shift += 7
            if byte < 128:
                if code == 0:
                    break
                lits.append(-(code >> 1) if code & 1 else code >> 1)
                code, shift = 0, 0
        steps.append((delete, lits))
    return steps


def write_steps(steps: list[tuple[bool, list[int]]], form: str) -> bytes:
    if form == "text":
        return "".join(("d " if d else "") + " ".join(map(str, [*lits, 0])) + "\n" for d, lits in steps).encode()
    return b"".join(binary_drat_step("d" if delete else "a", lits) for delete, lits in steps)


def corrupt(kind: str, proof: bytes, form: str, formula: dict, rng: random.Random) -> bytes | None:
    """``proof`` corrupted as ``kind`` says (None: the corruption does not apply)."""
    if kind == "binary cut mid-literal":
        if form != "binary":
            return None
        middle = [i for i in range(len(proof) // 2, len(proof)) if proof[i] >= 128]   # a literal's first groups
        return proof[:middle[0] + 1] if middle else None
    steps = read_steps(proof, form)
    lemmas = [i for i, (d, lits) in enumerate(steps) if not d and lits]
    middle = lemmas[len(lemmas) // 4: 3 * len(lemmas) // 4 + 1]
    if kind == "drop a middle lemma" and middle:
        del steps[rng.choice(middle)]
    elif kind == "drop the empty clause":
        empty = [i for i, (d, lits) in enumerate(steps) if not d and not lits]
        if not empty:
            return None
        steps = steps[:empty[0]]
    elif kind == "truncate at half":
        steps = steps[:len(steps) // 2]
    elif kind == "flip a literal" and middle:
        delete, lits = steps[rng.choice(middle)]
        at = rng.randrange(len(lits))
        lits[at] = -lits[at]
    elif kind == "delete an original clause first":
        wide = [c for c in formula["clauses"] if len(c) > 1]
        clause = formula["clauses"][-1] if len(formula["clauses"][-1]) > 1 else rng.choice(wide)
        steps.insert(0, (True, list(clause)))
    elif kind == "a lemma over a new variable" and middle:
        delete, lits = steps[rng.choice(middle)]
        lits[0] = formula["n_vars"] + 1
    else:
        return None
    return write_steps(steps, form)


# -- the two checkers ----------------------------------------------------------------------------

def ours(formula: dict, proof_path: Path) -> tuple[str, float, str]:
    """(verdict, CPU seconds, why) of the package's checker, in process."""
    start = time.process_time()
    found = check_proof(formula["n_vars"], formula["clauses"], str(proof_path), seconds=SECONDS)
    cpu = time.process_time() - start
    failure = found.get("failure") or {}
    lemma = f"lemma {failure['lemma']}: " if failure.get("lemma") else ""
    why = found.get("message") or (f"{lemma}{failure.get('why', '')}" if failure else "")
    return found["verdict"], cpu, why


def drat_trim(program: str, cnf: Path, proof_path: Path, *options: str) -> tuple[str, float, str, list[str], bool]:
    """(verdict, CPU seconds, why, its warnings, whether it read the proof as binary) of
    drat-trim, in its default backward mode unless ``options`` say otherwise."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        run = subprocess.run([program, str(cnf), str(proof_path), "-t", str(SECONDS), *options],
                             capture_output=True, timeout=SECONDS * 2)
        text = run.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        text = "s TIMEOUT"
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    lines = [line.strip("\r\n ").lstrip("\r") for line in text.replace("\r", "\n").splitlines()]
    lines = [line for line in lines if line]
    verdict = ("verified" if "s VERIFIED" in lines else "not verified" if "s NOT VERIFIED" in lines
               else "timeout" if "s TIMEOUT" in lines else "error")
    notes = [line for line in lines if "ERROR" in line or "failed" in line or "illegal" in line
             or "claimed" in line]
    warnings = sorted({re.split(r"[-\d\[:]", line.split("WARNING:")[1].strip())[0].strip() for line in lines
                       if "WARNING:" in line})
    why = "; ".join(notes[:1]) or (lines[-2] if verdict == "error" and len(lines) > 1 else "")
    return verdict, cpu, why, warnings, any("turning on binary mode" in line for line in lines) or "-i" in options


def why_apart(program: str, cnf: Path, proof_path: Path, row: dict, binary_read: bool) -> str:
    """One line on why the two verdicts differ, from drat-trim's own output and its runs with
    the options that switch off its differences from the package's checker."""
    if row["form"] == "binary" and not binary_read:
        return (f"drat-trim read the binary proof as text (its first two bytes look like text); with -i (binary): "
                f"{drat_trim(program, cnf, proof_path, '-i')[0]}")
    if row["drat-trim"] == "verified" and "RAT check on proof pivot failed" in row["warnings"]:
        return "drat-trim's lemma is RAT on another literal than the first (its fallback; ours: the first only)"
    if row["drat-trim"] == "verified":
        forward, _, _, warnings, _ = drat_trim(program, cnf, proof_path, "-f")
        fallback = ", by RAT on another literal" if "RAT check on proof pivot failed" in warnings else ""
        return (f"drat-trim's RAT check in backward mode sees only the clauses marked (core) so far; drat-trim -f "
                f"(forward: every lemma, RAT over all active clauses): {forward}{fallback}")
    return "unexplained"


# -- the run -------------------------------------------------------------------------------------

def compare(program: str, count: int | None, pysat: Sequence[str] | None) -> tuple[list[dict], list[str]]:
    rows, loads = [], [load_now()]
    with tempfile.TemporaryDirectory(prefix="drat-compare-") as temp:
        folder = Path(temp)
        for formula in formulas()[:count]:
            cnf = folder / "formula.cnf"
            write_clauses(str(cnf), formula["clauses"], formula["n_vars"])
            made = proofs(formula, cnf, folder, pysat)
            for prover, form, proof in made:
                rng = random.Random(f"{formula['name']}/{prover}/{form}")
                copies = [("valid", proof)] + [(k, corrupt(k, proof, form, formula, rng)) for k in CORRUPTIONS]
                for kind, data in copies:
                    if data is None:
                        continue
                    path = folder / f"proof.{form}"
                    path.write_bytes(data)
                    our, our_cpu, our_why = ours(formula, path)
                    their, their_cpu, their_why, warnings, binary_read = drat_trim(program, cnf, path)
                    row = {"formula": formula["name"], "prover": f"{prover} ({form})", "form": form, "kind": kind,
                           "ours": our, "drat-trim": their, "our_cpu": our_cpu, "their_cpu": their_cpu,
                           "our_why": our_why, "their_why": their_why, "warnings": warnings, "bytes": len(data)}
                    rows.append(row)
                    if (our == "verified") != (their == "verified"):
                        row["apart"] = why_apart(program, cnf, path, row, binary_read)
            print(f"{formula['name']}: {len(made)} proofs; {len(rows)} pairs so far", flush=True)
            loads.append(load_now())
    return rows, loads


def section(rows: list[dict], loads: list[str]) -> list[str]:
    """The Markdown section: the verdicts counted by prover and by copy, every disagreement with
    both checkers' reasons, how the refusals differ, drat-trim's warnings, the CPU time."""
    valid = [r for r in rows if r["kind"] == "valid"]
    disagree = [r for r in rows if (r["ours"] == "verified") != (r["drat-trim"] == "verified")]
    timing = []
    for family in sorted({r["formula"].split(" #")[0].split(" n=")[0] for r in valid}):
        chosen = [r for r in valid if r["formula"].startswith(family)]
        ours, theirs = sum(r["our_cpu"] for r in chosen), sum(r["their_cpu"] for r in chosen)
        timing.append([family, len(chosen), f"{sum(r['bytes'] for r in chosen) / 2**20:.1f}", f"{ours:.2f}",
                       f"{theirs:.2f}", f"{ours / theirs:.3f}" if theirs else "—"])
    kinds = ["valid", *[k for k in CORRUPTIONS if any(r["kind"] == k for r in rows)]]
    return [f"{len(rows)} (formula, proof) pairs on {len({r['formula'] for r in rows})} formulas; "
            "verdicts as `ours / drat-trim`.", "", "By prover (all copies, valid and corrupted):", "",
            *verdict_table(rows, "prover", sorted({r["prover"] for r in rows}), "prover (proof form)"), "",
            "By corruption (all provers):", "", *verdict_table(rows, "kind", kinds, "copy"), "",
            f"Disagreements (one checker verifies, the other does not): {len(disagree)}.", "",
            *(f"- {r['formula']}, {r['prover']}, {r['kind']}: ours {r['ours']}{_said(r['our_why'])}, drat-trim "
              f"{r['drat-trim']}{_said(r['their_why'])}: {r['apart']}" for r in disagree), "",
            "Disagreements by reason: " + counted(r["apart"].split(";")[0].split(" (")[0] for r in disagree), "",
            "Both refuse, in other words: " + counted(f"ours {r['ours']} / drat-trim {r['drat-trim']}" for r in rows
                                                      if r["ours"] != r["drat-trim"] and r not in disagree), "",
            "drat-trim's warnings (pairs): " + counted(w for r in rows for w in r["warnings"]), "",
            "CPU seconds on the valid proofs (ours: `check_proof` in process, the clause buffer included; "
            "drat-trim: its process, the formula's parse included):", "",
            *md_table(["formulas", "proofs", "MB", "ours s", "drat-trim s", "ours / drat-trim"], timing),
            "", f"Load during the run: {', '.join(loads[:1] + loads[-1:])}."]


def verdict_table(rows: list[dict], field: str, keys: list[str], title: str) -> list[str]:
    """The pairs counted by ``field`` (a row each of ``keys``) and by the two verdicts."""
    counts = Counter((r[field], f"{r['ours']} / {r['drat-trim']}") for r in rows)
    pairs = sorted({pair for _, pair in counts})
    return md_table([title, *pairs], [[key, *(counts[key, pair] or "" for pair in pairs)] for key in keys])


def counted(items) -> str:
    """'a (3), b (1).': each item with how many times it came, the most frequent first."""
    return (", ".join(f"{item} ({n})" for item, n in Counter(items).most_common()) or "none") + "."


def _said(why: str) -> str:
    return f" ({why})" if why else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drat-trim", required=True, help="the drat-trim program")
    parser.add_argument("--out", type=Path, help="write the Markdown section there too")
    parser.add_argument("--formulas", type=int, help="the first N formulas only")
    parser.add_argument("--provers", help="PySAT's proof-logging solvers to ask, comma-separated (default: all)")
    args = parser.parse_args()
    start = time.time()
    rows, loads = compare(args.drat_trim, args.formulas, args.provers.split(",") if args.provers else None)
    lines = [f"Command: `{command_line()}`, {time.strftime('%Y-%m-%d')}, {time.time() - start:.0f} s.", "",
             *section(rows, loads)]
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
