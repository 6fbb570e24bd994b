#!/bin/sh
# The tables and figures of results/: every command that made them, in order.  Run from the
# repository root:
#
#     sh results/make_results.sh            # everything (about an hour on 2 cores)
#     sh results/make_results.sh campaign   # the campaign, its tables and figures, the headline
#                                           # of results/README.md (about 6 minutes)
#
# The public sets are read from $DATA (default: the data folder beside the repository), each
# known by its file name and its MANIFEST entry; none is copied here.
set -e
DATA=${DATA:-../shared/data}
DB=results/bench.sqlite

# one_format FIGURE.png...: one image a figure.  The report and the scripts draw each figure
# as PNG and SVG; the PNG is made a 256-colour palette (the same picture, a third of the
# bytes), then the smaller of the two files is kept.
one_format() {
    python - "$@" <<'PY'
import sys
from pathlib import Path
from PIL import Image
for png in map(Path, sys.argv[1:]):
    svg = png.with_suffix(".svg")
    Image.open(png).convert("RGB").quantize(256, dither=Image.Dither.NONE).save(png, optimize=True)
    if svg.exists():
        (svg if svg.stat().st_size >= png.stat().st_size else png).unlink()
PY
}

# page FILE DATABASE TITLE WHAT COMMAND: the table the report wrote in FILE under a provenance
# header (the opening comment of the database's headline), a title, what it measures and the
# command that ran it
page() {
    { puzzlebench report --db "$2" --headline | sed -n '1,/^-->$/p'
      printf '\n# %s\n\n%s\n\nCommand: `%s`\n\n' "$3" "$4" "$5"
      cat "$1"; } > "$1.new"
    mv "$1.new" "$1"
}

# -- the campaign: every paradigm over samples of the public sets and the generated ones -----

# generated sets (seeded, reproducible): what no public set covers
mkdir -p results/generated
puzzlebench generate sudoku --box 2x3 --count 50 --seed 1 --out results/generated/sudoku6_minimal_50.txt
puzzlebench generate sudoku --box 3x4 --count 10 --seed 1 --out results/generated/sudoku12_minimal_10.txt
puzzlebench generate skyscrapers --size 7 --count 20 --seed 1 --remove 0.5 --out results/generated/skyscrapers7_proper_20.txt
puzzlebench generate nqueens --size 24 --placed 6 --count 30 --seed 1 --out results/generated/nqueens24_completion_30.txt

rm -f $DB $DB-wal $DB-shm
puzzlebench bench --campaign results/campaign.toml --quiet > /dev/null || true

# tables and figures from the database (results/bench/: summary.md, summary.csv, figures)
puzzlebench report --db $DB --format csv --out results/bench > /dev/null
puzzlebench report --db $DB --format md --out results/bench --plot cactus --plot stats --plot ecdf --plot profile > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair bitboard,dlx > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair cpsat,smt > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair sat,quine > /dev/null
one_format results/bench/*.png
page results/bench/summary.md $DB "Every paradigm on the campaign's sets" \
    "Per set and solver: solved, timeouts and errors, time percentiles (wall and CPU), memory, encode and solve time, search counters, then the standard metrics (solved within the limit, PAR-2, shifted geometric mean, wins, a virtual best solver)." \
    "puzzlebench bench --campaign results/campaign.toml; puzzlebench report --db results/bench.sqlite --format md"
# the same as one page, every puzzle drawn (results/bench/html/index.html; not committed: large)
puzzlebench report --db $DB --format html --out results/bench/html > /dev/null

# the headline that opens results/README.md: the generated part is replaced, the rest kept
{ puzzlebench report --db $DB --headline; sed -n '/^<!-- end of the headline -->$/,$p' results/README.md; } \
    > results/README.md.new
mv results/README.md.new results/README.md

[ "$1" = campaign ] && exit 0

# -- one kind at a time: Simon Tatham's public puzzle ids through every engine that takes the kind

# kind NAME FILE SOLVERS TITLE WHAT: FILE through SOLVERS (5 s a puzzle, 2 jobs) into
# results/NAME.sqlite, its table in results/NAME/summary.md
kind() {
    rm -f results/$1.sqlite
    puzzlebench bench $2 --solvers $3 --time-limit 5 --jobs 2 --db results/$1.sqlite --quiet > /dev/null
    puzzlebench report --db results/$1.sqlite --format md --out results/$1 > /dev/null
    page results/$1/summary.md results/$1.sqlite "$4" "$5" "puzzlebench bench $(basename $2) --solvers $3 --time-limit 5 --jobs 2"
}
kind sudokux $DATA/tatham_solo_sudokux_3x3_100.txt bitboard,mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    "Sudoku-X" "Sudoku-X (both diagonals hold 1-9 too): tatham_solo_sudokux_3x3_100.txt, the public set of that name, through every engine that takes the kind."
kind jigsaw $DATA/tatham_solo_jigsaw9_100.txt bitboard,mrv,dlx,dlx-py,sat,quine,cpsat,smt \
    "Jigsaw Sudoku" "Jigsaw Sudoku (irregular regions): tatham_solo_jigsaw9_100.txt, the public set of that name, through every engine that takes the kind but backtrack (no propagation: minutes on some)."
kind kenken $DATA/tatham_keen_4to7_96.txt mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    "KenKen" "KenKen, N = 4 to 7: tatham_keen_4to7_96.txt, the public set of that name, through every engine that takes the kind."
kind killer $DATA/tatham_solo_killer_3x3_100.txt mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    "Killer Sudoku" "Killer Sudoku (cages, no givens): tatham_solo_killer_3x3_100.txt, the public set of that name, through every engine that takes the kind."

# Futoshiki: tatham_unequal_4to7_96.txt split into one set a size (a folder of its own, removed
# after), so that the report gives each size its own medians
FT=results/futoshiki.sqlite
FD=$(mktemp -d)
rm -f $FT
for n in 4 5 6 7; do grep "^$n:" $DATA/tatham_unequal_4to7_96.txt > $FD/tatham_unequal_${n}x$n.txt; done
puzzlebench bench $FD/tatham_unequal_4x4.txt $FD/tatham_unequal_5x5.txt $FD/tatham_unequal_6x6.txt $FD/tatham_unequal_7x7.txt \
    --solvers mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack --time-limit 5 --jobs 2 --db $FT --quiet > /dev/null
puzzlebench report --db $FT --format md --out results/futoshiki > /dev/null
rm -r $FD
page results/futoshiki/summary.md $FT "Futoshiki" \
    "Futoshiki, one set a size (4x4 to 7x7): the lines of tatham_unequal_4to7_96.txt, the public set of that name, through every engine that takes the kind." \
    "puzzlebench bench tatham_unequal_4x4.txt ... tatham_unequal_7x7.txt --solvers mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack --time-limit 5 --jobs 2"

# -- the benchmark scripts: each writes its own page (and figure) in results/ ----------------

# the easy-hard-easy curve of quasigroups with holes at order 30 (results/qwh.md, qwh.png)
python benchmarks/bench_qwh.py --order 30 --count 10 --time-limit 10 --jobs 2
one_format results/qwh.png
# Latin square completion, 20 QWH-like 20x20 instances (results/latin.md)
python benchmarks/bench_latin.py --order 20 --holes 0.42 --count 20 --seed 1 --time-limit 10
# CPMpy's transformation beside the direct CP-SAT model, and the competition tools as engines
# (results/cpmpy.md; cpmpy:pysat needs pypblib and python-sat[pb])
python benchmarks/bench_tools.py --page cpmpy --backends ortools,exact,pysat --also ext:minizinc,ext:ace,ext:minisat+
# minimal 16x16 and 25x25 Sudoku from the generator (results/generate_large.md; about 28 minutes)
python benchmarks/bench_generate.py --page large --boxes 4x4,5x5 --seeds 1,2,3 --reference-seeds 1,2,3 --paths counter,prover --sat-alone-boxes 4x4
# the 25x25 dig's SAT checks asked two ways (results/generate_checks.md; about 18 minutes)
python benchmarks/bench_generate.py --page checks --boxes 5x5 --seeds 2,1
# the report's own cost (results/report.md) and --compare telling noise from a change (results/compare.md)
python benchmarks/bench_report.py --rows 5000 --repeats 2 --large 49158
python benchmarks/bench_compare_noise.py --repetitions 10 --puzzles 200
# every process of a run counted (results/processes.md; about 20 seconds)
python benchmarks/bench_processes.py
