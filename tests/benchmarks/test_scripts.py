"""Every script of benchmarks/ runs on a tiny input and writes its page: each is a thin script
over the package, so that a change of the package's API breaks it here rather than on its next
long run.  A script whose tiny run needs a program or an extra that is absent skips, saying why.
The figures of a tiny run mean nothing; what is checked is that the page is written, with the
headings the results pages use."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATA, needs_preset, needs_program

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "benchmarks"


def run(args, headings=(), needs=(), slow=True, before=(), out=True):
    """A script's tiny run: its arguments ({tmp}, {repo} and {data} filled in), the headings its
    page must hold, what it needs (``program:NAME``, ``preset:NAME``, ``module:NAME``), whether
    it takes over a second, commands run before it, and whether it takes ``--out``."""
    return dict(args=args, headings=headings, needs=needs, slow=slow, before=before, out=out)


RUNS = {
    "bench_bitboard": run(["--puzzles", "5"], ["## 9x9, limit 2, one thread, Python strings to Python results"]),
    "bench_cnf": run(["--hardest", "2", "--top", "5", "--quine", "1", "--repeats", "1", "--solvers", "glucose3", "--encodings",
                      "extended"], ["## Quine dilemma engine (Python), top1465 sample, limit 2"]),
    "bench_drat_trim": run(["--drat-trim", "drat-trim", "--formulas", "1", "--provers", "cadical195"],
                           needs=("program:drat-trim",)),
    "bench_dlx": run(["--puzzles", "20"], ["## 9x9 Sudoku, limit 2 (solve and prove unique)"]),
    "bench_hard25": run(["--report", "2026-11-29 17:26:39", "--runs", "{repo}/results"], ["## Hard minimal 25x25"],
                        slow=False),
    "bench_generate": run(["--boxes", "3x3", "--seeds", "1", "--reference-seeds", "1", "--sat-alone-boxes", "3x3"],
                          ["## The run"]),
    "bench_harness": run(["--fast-sample", "20", "--slow-sample", "3", "--repeats", "1"]),
    "bench_large": run(["--public", "3", "--minimal", "1", "--levels", "60", "--per-level", "1", "--below", "5"],
                       ["## Large grids"]),
    "bench_native_proofs": run(["--puzzles", "5"], ["## Own proofs against CaDiCaL's"]),
    "bench_rtd": run(["--report", "--runs", "{repo}/results"], ["## Distributions over seeds", "## Targets"]),
    "bench_threads": run(["--puzzles", "40", "--runs", "1", "--seconds", "0"], ["# A native batch split over threads"]),
    "bench_tools": run(["--hardest", "1", "--n16", "1", "--sky7", "1", "--killer", "1", "--specs",
                        "sat,ext:minisat"], ["## 9x9 forum hardest 11+ (1, evenly spaced)"], needs=("preset:minisat",)),
}


def skip_unless_present(needs: tuple) -> None:
    for need in needs:
        kind, name = need.split(":", 1)
        if kind == "program":
            needs_program(name)
        elif kind == "preset":
            needs_preset(name)
        else:
            pytest.importorskip(name)


def tiny_run(name: str, tmp_path: Path) -> str:
    """The page the script wrote (or printed, for a script that takes no ``--out``)."""
    case = RUNS[name]
    if not DATA.is_dir():
        pytest.skip(f"the public data sets are not at {DATA}")
    skip_unless_present(case["needs"])
    env = {**os.environ, "PUZZLEBENCH_DATA": str(DATA), "MPLBACKEND": "Agg"}

    def filled(words):
        return [w.format(tmp=tmp_path, repo=REPO, data=DATA) for w in words]

    for command in case["before"]:
        done = subprocess.run([sys.executable, *filled(command)], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode in (0, 1), done.stderr[-3000:]
    page = tmp_path / "page.md"
    done = subprocess.run([sys.executable, str(SCRIPTS / f"{name}.py"), *filled(case["args"]),
                           *(["--out", str(page)] if case["out"] else [])],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return page.read_text() if case["out"] else done.stdout


@pytest.mark.parametrize("name", [pytest.param(name, marks=[pytest.mark.slow] if RUNS[name]["slow"] else [])
                                  for name in RUNS])
def test_a_script_writes_its_page_on_a_tiny_input(name, tmp_path):
    page = tiny_run(name, tmp_path)
    assert page.strip()
    headings = {line for line in page.splitlines() if line.startswith("#")}
    assert [h for h in RUNS[name]["headings"] if h not in headings] == []


def test_every_script_is_run_here():
    assert sorted(RUNS) == sorted(p.stem for p in SCRIPTS.glob("*.py"))


@pytest.mark.parametrize("name", sorted(p.stem for p in SCRIPTS.glob("*.py")))
def test_a_script_shows_its_help_from_the_repository_root(name):
    done = subprocess.run([sys.executable, f"benchmarks/{name}.py", "--help"], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("usage:"), done.stderr[-2000:]


def test_no_script_edits_the_path_imports_another_or_starts_a_process_of_its_own():
    scripts = {p.stem for p in SCRIPTS.glob("*.py")}
    found = []
    for path in SCRIPTS.glob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            words = line.split()
            if ("sys.path" in line or "Popen" in line or "os.fork" in line or "multiprocessing" in line
                    or words[:1] in (["import"], ["from"]) and words[1].split(".")[0] in scripts):
                found.append(f"{path.name}:{number}: {line.strip()}")
    assert found == []


GENERATED = re.compile(r"^puzzlebench (generate .*--out (results/generated/\S+))", re.M)
MADE = GENERATED.findall((REPO / "results" / "make_results.sh").read_text())


@pytest.mark.slow
@pytest.mark.parametrize("command, path", MADE, ids=[path.rsplit("/", 1)[-1] for _, path in MADE])
def test_every_generated_set_of_the_results_is_what_its_command_makes(command, path, tmp_path):
    words = [w for w in command.replace(f"--out {path}", f"--out {tmp_path / 'made.txt'}").split() if w != "--quiet"]
    done = subprocess.run([sys.executable, "-m", "puzzlebench", *words, "--quiet"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "made.txt").read_text() == (REPO / path).read_text()


def test_a_report_of_a_run_the_file_does_not_hold_is_one_line_and_exit_2(tmp_path):
    """``bench_hard25.py --report`` with a run id not in its runs file (a typo of a stamp)."""
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_hard25.py"), "--report", "2026-11-29 17:26:38",
                           "--runs", str(REPO / "results"), "--out", str(tmp_path / "page.md")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"bench_hard25.py: error: --report: no run '2026-11-29 17:26:38' in "
                                            f"{REPO / 'results' / 'hard25.jsonl'}")
    assert not (tmp_path / "page.md").exists()
