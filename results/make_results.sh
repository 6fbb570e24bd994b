#!/bin/sh
# Tables and plots of results/ — every command that made them, in order.  Run from the
# repository root; the public sets are read from ../shared/data (never copied here).
# Solvers: every registered paradigm (see `puzzlebench solvers`; results/campaign.toml names them).
set -e
DB=results/bench.sqlite
rm -f $DB $DB-wal $DB-shm

# generated sets (seeded, reproducible): what no public set covers
mkdir -p results/generated
puzzlebench generate sudoku --box 2x3 --count 50 --seed 1 --out results/generated/sudoku6_minimal_50.txt
puzzlebench generate sudoku --box 3x4 --count 10 --seed 1 --out results/generated/sudoku12_minimal_10.txt
puzzlebench generate skyscrapers --size 7 --count 20 --seed 1 --remove 0.5 --out results/generated/skyscrapers7_proper_20.txt
puzzlebench generate nqueens --size 24 --placed 6 --count 30 --seed 1 --out results/generated/nqueens24_completion_30.txt

# public sets (samples that run in minutes on 2 cores) and the generated ones: one campaign file
puzzlebench bench --campaign results/campaign.toml --quiet > /dev/null || true

# tables and plots from the database (results/bench/: summary.md, summary.csv, figures)
puzzlebench report --db $DB --format csv --out results/bench > /dev/null
puzzlebench report --db $DB --format md --out results/bench --plot cactus --plot stats --plot ecdf --plot profile > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair bitboard,dlx > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair cpsat,smt > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair sat,quine > /dev/null
# the same as one page, every puzzle drawn (results/bench/html/index.html; not committed: large)
puzzlebench report --db $DB --format html --out results/bench/html > /dev/null

# Sudoku-X: Simon Tatham's 100 public Solo ids through every engine that takes the kind (results/sudokux)
SX=results/sudokux.sqlite
rm -f $SX
puzzlebench bench ../shared/data/tatham_solo_sudokux_3x3_100.txt --solvers bitboard,mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    --time-limit 5 --jobs 2 --db $SX --quiet > /dev/null
puzzlebench report --db $SX --format md --out results/sudokux > /dev/null

# jigsaw: Simon Tatham's 100 public Solo jigsaw ids through every engine that takes the kind but backtrack (results/jigsaw)
JG=results/jigsaw.sqlite
rm -f $JG
puzzlebench bench ../shared/data/tatham_solo_jigsaw9_100.txt --solvers bitboard,mrv,dlx,dlx-py,sat,quine,cpsat,smt \
    --time-limit 5 --jobs 2 --db $JG --quiet > /dev/null
puzzlebench report --db $JG --format md --out results/jigsaw > /dev/null

# Futoshiki: Simon Tatham's 96 public Unequal ids, one set per size (4x4 to 7x7, split into a temporary
# folder so that the report gives each size its own medians), through every engine that takes the kind
FT=results/futoshiki.sqlite
FD=$(mktemp -d)
rm -f $FT
for n in 4 5 6 7; do grep "^$n:" ../shared/data/tatham_unequal_4to7_96.txt > $FD/tatham_unequal_${n}x$n.txt; done
puzzlebench bench $FD/tatham_unequal_4x4.txt $FD/tatham_unequal_5x5.txt $FD/tatham_unequal_6x6.txt $FD/tatham_unequal_7x7.txt \
    --solvers mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack --time-limit 5 --jobs 2 --db $FT --quiet > /dev/null
puzzlebench report --db $FT --format md --out results/futoshiki > /dev/null
rm -r $FD

# KenKen: Simon Tatham's 96 public Keen ids (N = 4-7) through every engine that takes the kind (results/kenken)
KK=results/kenken.sqlite
rm -f $KK
puzzlebench bench ../shared/data/tatham_keen_4to7_96.txt --solvers mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    --time-limit 5 --jobs 2 --db $KK --quiet > /dev/null
puzzlebench report --db $KK --format md --out results/kenken > /dev/null

# Killer Sudoku: Simon Tatham's 100 public Solo killer ids through every engine that takes the kind (results/killer)
KL=results/killer.sqlite
rm -f $KL
puzzlebench bench ../shared/data/tatham_solo_killer_3x3_100.txt --solvers mrv,dlx,dlx-py,sat,quine,cpsat,smt,backtrack \
    --time-limit 5 --jobs 2 --db $KL --quiet > /dev/null
puzzlebench report --db $KL --format md --out results/killer > /dev/null

# QWH: the easy-hard-easy curve (Achlioptas, Gomes, Kautz and Selman, AAAI 2000) at order 30, 10 instances
# per share of holes 0.30..0.60 by 0.02 (puzzlebench generate latin), mrv, dlx, sat, cpsat through one
# puzzlebench bench (limit 1, 10 s); writes results/qwh.md, qwh.png, qwh.svg (7.5 minutes on 2 busy cores)
python benchmarks/bench_qwh.py --order 30 --count 10 --time-limit 10 --jobs 2
# Latin square completion: 20 QWH-like 20x20 instances, 42% holes (Jacobson-Matthews random squares),
# bitboard, mrv and sat asked for one completion each (results/latin.md)
python benchmarks/bench_latin.py --order 20 --holes 0.42 --count 20 --seed 1 --time-limit 10
# CPMpy's transformation beside the direct CP-SAT model: cpmpy:ortools, cpmpy:exact, cpmpy:pysat against
# cpsat:int on the interop sample, and the competition tools as ext: engines beside them
# (results/cpmpy.md; cpmpy:pysat needs pypblib and python-sat[pb])
python benchmarks/bench_cpmpy.py --backends ortools,exact,pysat --also ext:minizinc,ext:ace,ext:minisat+
# Minimal 16x16 and 25x25 Sudoku from the generator: the counter's look then CaDiCaL on each check's own
# formula, against the counter alone (2 s a check), CPU time (results/generate_large.md; about 28 minutes)
python benchmarks/bench_generate_large.py --boxes 4x4,5x5 --seeds 1,2,3 --reference-seeds 1,2,3 --paths counter,prover --sat-alone-boxes 4x4
# The 25x25 dig's SAT checks asked two ways, the check's own formula and one incremental solver
# (results/generate_checks.md; about 18 minutes)
python benchmarks/bench_generate_checks.py --box 5x5 --seeds 2,1
# The report's intervals and tests: their cost on 5,000 rows (results/report.md, seconds), and --compare
# telling noise from a change: bitboard against itself, 10 seeded samples of 200, and against mrv
# (results/compare.md, about 10 seconds)
python benchmarks/bench_report.py --rows 5000 --repeats 2 --large 49158
python benchmarks/bench_compare_noise.py --repetitions 10 --puzzles 200
# Every process of a run counted: ext:cadical's CPU time beside its wall time, Z3's memouts and
# peaks under small memory limits (results/processes.md; about 20 seconds)
python benchmarks/bench_processes.py
