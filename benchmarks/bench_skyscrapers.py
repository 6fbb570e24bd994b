"""The Skyscrapers part of ``bench_bitboard.py`` alone (the Skyscrapers target), written
to ``results/skyscrapers.md``:

    python benchmarks/bench_skyscrapers.py [--out results/skyscrapers.md]
"""

from __future__ import annotations

import argparse

from bench_bitboard import REPO, bench_skyscrapers, uptime, write_report


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(REPO / "results" / "skyscrapers.md"))
    args = ap.parse_args()
    load_before = uptime()
    write_report(args.out, "# Skyscrapers, bitboard engine", "python benchmarks/bench_skyscrapers.py",
                 load_before, "Times are the engine's solve time (wall, `Result.times.solve`); the machine "
                 "is shared, so CPU seconds a puzzle over each loop are given beside.", bench_skyscrapers())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
