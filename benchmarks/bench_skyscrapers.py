"""The Skyscrapers part of ``bench_bitboard.py`` alone (issue 3's Skyscrapers target), written
to ``results/skyscrapers.md``:

    python benchmarks/bench_skyscrapers.py [--out results/skyscrapers.md]
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

from bench_bitboard import REPO, bench_skyscrapers, uptime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(REPO / "results" / "skyscrapers.md"))
    args = ap.parse_args()
    load_before = uptime()
    lines = bench_skyscrapers()
    text = "\n".join([
        "# Skyscrapers, bitboard engine (issue 3)", "",
        "Command: `python benchmarks/bench_skyscrapers.py` (extension built by `python setup.py "
        "build_ext --inplace`, portable -O3, no -march).",
        f"Machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}; "
        f"load before: `{load_before}`; after: `{uptime()}`.",
        "Times are the engine's solve time (wall, `Result.times.solve`); the machine is shared, so "
        "CPU seconds a puzzle over each loop are given beside.", "", *lines, ""])
    Path(args.out).parent.mkdir(exist_ok=True)
    Path(args.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
