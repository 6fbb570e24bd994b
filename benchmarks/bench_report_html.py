"""What ``report --format html`` costs, and whether its page opens and sorts within 3 s in
Chromium with 50,000 puzzles (issue #32's target).

The database is benchmarks/bench_report.py's (the real Database class, seeded log-normal
times, some timeouts): one set of ``--puzzles`` puzzles and two solvers, each puzzle given
the text of a real 17-clue Sudoku (Royle's set, where /work/shared/data holds it) so that
the first 1,000 are drawn.  Measured: the report written in this process (wall), its files'
sizes, then in headless, offline Chromium (tests/browser.py): the page opened (navigation
start to the per-puzzle table drawn), a sort of the per-puzzle table by a solver's time and
a sort back, each until the next frame is laid out, and a puzzle's page opened; best of
``--repeats``.  Writes ``results/report_html.md``.

    python benchmarks/bench_report_html.py [--puzzles 50000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks"), str(ROOT / "tests")]

from bench_report import make_db  # noqa: E402
from browser import Browser, missing_browser  # noqa: E402
from puzzlebench.cli import main  # noqa: E402
from puzzlebench.harness.database import Database  # noqa: E402

ROYLE = ROOT.parent / "shared" / "data" / "sudoku9_royle_17clue_49158.txt"
TARGET = 3.0
OUT = ROOT / "results" / "report_html.md"


def add_texts(path: Path, puzzles: int) -> int:
    """Each puzzle of the database given a real Sudoku's text (the set's lines, repeated)."""
    if not ROYLE.exists():
        return 0
    lines = [l.strip() for l in ROYLE.read_text().splitlines() if l.strip() and not l.startswith("#")]
    db = Database(path)
    db.write_puzzle_texts(("set0", f"h0-{p}", "sudoku", "3x3", lines[p % len(lines)]) for p in range(puzzles))
    db.close()
    return puzzles


def write_report(db: Path, out: Path) -> float:
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["report", "--db", str(db), "--format", "html", "--out", str(out)]) == 0
    return time.perf_counter() - started


SORT = """
const th = [...document.querySelectorAll('#ptable th')].find(t => t.textContent === arguments[0]);
const start = performance.now();
th.click();
document.body.offsetHeight;   // the table laid out
return new Promise(done => requestAnimationFrame(() => done((performance.now() - start) / 1000)));
"""

OPENED = """
const nav = performance.getEntriesByType('navigation')[0];
return [nav.domContentLoadedEventEnd / 1000, nav.loadEventEnd / 1000,
        document.querySelectorAll('#ptable tbody tr').length];
"""


def in_browser(page: Path, repeats: int) -> dict[str, float]:
    from selenium.webdriver.support.wait import WebDriverWait
    browser = Browser()
    best: dict[str, float] = {}
    try:
        for _ in range(repeats):
            browser.open(page)
            ready, loaded, rows = browser.driver.execute_script(OPENED)
            assert rows == 100, rows
            figures = {"open (DOM ready)": ready, "open (loaded)": loaded,
                       "sort by solver0 ms": browser.driver.execute_script(SORT, "solver0 ms"),
                       "sort back (descending)": browser.driver.execute_script(SORT, "solver0 ms"),
                       "sort by solver1 status": browser.driver.execute_script(SORT, "solver1 status")}
            started = time.perf_counter()
            browser.driver.execute_script("location.hash = '#puzzle/0'")
            WebDriverWait(browser.driver, 30).until(lambda d: d.find_elements("css selector", "#precords table.records"))
            figures["puzzle page (chunk loaded, drawn)"] = time.perf_counter() - started
            assert browser.console_errors() == []
            for name, value in figures.items():
                best[name] = min(best.get(name, value), value)
    finally:
        browser.close()
    return best


def main_(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    if missing_browser():
        print(f"no browser: {missing_browser()}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        db, out = Path(folder) / "r.sqlite", Path(folder) / "out"
        rows = make_db(db, 2 * args.puzzles, 1, sets=1, solvers=2)
        texts = add_texts(db, args.puzzles)
        seconds = write_report(db, out)
        sizes = {"index.html": (out / "index.html").stat().st_size,
                 "puzzles/ (chunks)": sum(p.stat().st_size for p in (out / "puzzles").iterdir())}
        figures = in_browser(out / "index.html", args.repeats)
    lines = ["# `report --format html`: 50,000 puzzles in Chromium", "",
             f"Made by `python benchmarks/bench_report_html.py --puzzles {args.puzzles} --repeats {args.repeats}` "
             f"on {time.strftime('%Y-%m-%d')}: one set of {args.puzzles:,} puzzles, 2 solvers ({rows:,} results, "
             f"{texts:,} puzzle texts stored), headless Chromium offline, best of {args.repeats}.  Target: the page "
             f"opens and sorts within {TARGET:g} s.", "",
             f"Report written in {seconds:.1f} s (Python; the figures and the first 1,000 drawings most of it); "
             + ", ".join(f"{name} {size / 2 ** 20:.1f} MiB" for name, size in sizes.items()) + ".", "",
             "| in Chromium | seconds | within target |", "|---|---:|---|"]
    lines += [f"| {name} | {value:.3f} | {'yes' if value <= TARGET else 'NO'} |" for name, value in figures.items()]
    OUT.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if all(v <= TARGET for v in figures.values()) else 1


if __name__ == "__main__":
    sys.exit(main_())
