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
puzzlebench bench --campaign benchmarks/campaigns/paradigms.toml --quiet > /dev/null || true

# tables and figures from the database (results/bench/: summary.md, summary.csv, figures)
puzzlebench report --db $DB --format csv --out results/bench > /dev/null
puzzlebench report --db $DB --format md --out results/bench --plot cactus --plot stats --plot ecdf --plot profile > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair bitboard,dlx > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair cpsat,smt > /dev/null
puzzlebench report --db $DB --out results/bench --plot scatter --pair sat,quine > /dev/null
one_format results/bench/*.png
page results/bench/summary.md $DB "Every paradigm on the campaign's sets" \
    "Per set and solver: solved, timeouts and errors, time percentiles (wall and CPU), memory, encode and solve time, search counters, then the standard metrics (solved within the limit, PAR-2, shifted geometric mean, wins, a virtual best solver)." \
    "puzzlebench bench --campaign benchmarks/campaigns/paradigms.toml; puzzlebench report --db results/bench.sqlite --format md"
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

# -- campaigns of one question each: benchmarks/campaigns/NAME.toml into results/NAME/ ------

# campaign NAME TITLE WHAT [REPORT OPTIONS]: the campaign into results/NAME.sqlite, its table
# (and the figures the options ask for) in results/NAME/
campaign() {
    name=$1 title=$2 what=$3
    shift 3
    rm -f results/$name.sqlite
    puzzlebench bench --campaign benchmarks/campaigns/$name.toml --quiet > /dev/null || true
    puzzlebench report --db results/$name.sqlite --format md --out results/$name "$@" > /dev/null
    page results/$name/summary.md results/$name.sqlite "$title" "$what" \
        "puzzlebench bench --campaign benchmarks/campaigns/$name.toml"
}
puzzlebench generate latin --size 20 --holes 0.42 --count 20 --seed 1 --quiet --out results/generated/latin20_qwh42_20.txt
puzzlebench generate skyscrapers --size 8 --count 20 --seed 1 --remove 0.5 --quiet --out results/generated/skyscrapers8_proper_20.txt
puzzlebench generate skyscrapers --size 9 --count 20 --seed 1 --remove 0.5 --quiet --out results/generated/skyscrapers9_proper_20.txt
campaign latin "Latin square completion at the hardness peak" \
    "One completion (limit 1) of 20 QWH-like instances of order 20 with 42% of the cells emptied (results/generated/latin20_qwh42_20.txt), per engine. Nodes are each engine's own (docs/STATISTICS.md): bitboard and mrv run the same MRV search, for a Latin square's lines share one cell and locked candidates add nothing."
campaign towers "Skyscrapers in mrv: the visibility propagator" \
    "mrv, whose visibility clues narrow each line to the heights some run of towers showing the clue uses, against mrv@lines=false, which checks placed towers against the clue, with bitboard as the speed reference, on 72 of Simon Tatham's 8x8 Towers ids (18 a difficulty), limit 2."
campaign skyscrapers "Skyscrapers, the native engine" \
    "The native engine on the public set of random full-clue puzzles (N = 4 to 9, counted to 2), with mrv beside it on a sample, and mrv and dlx on generated proper puzzles of N = 7, 8 and 9. Target: a median under 1 ms on proper puzzles."

# The easy-hard-easy curve of quasigroups with holes (Achlioptas, Gomes, Kautz and Selman,
# "Generating satisfiable problem instances", AAAI 2000): order 30, 10 instances a share of
# holes from 30% to 60%, each share its own seed, one bench over them all (results/qwh/)
QD=$(mktemp -d)
for h in 30 32 34 36 38 40 42 44 46 48 50 52 54 56 58 60; do
    puzzlebench generate latin --size 30 --holes 0.$h --count 10 --seed $((1000 + h)) --out $QD/qwh30_h0.$h.txt --quiet
done
rm -f results/qwh.sqlite
puzzlebench bench $QD/qwh30_h0.*.txt --solvers mrv,dlx,sat,cpsat --limit 1 --time-limit 10 --jobs 2 --seed 1 \
    --db results/qwh.sqlite --quiet > /dev/null || true
rm -r $QD
puzzlebench report --db results/qwh.sqlite --format md --out results/qwh --plot series > /dev/null
one_format results/qwh/series.png
page results/qwh/summary.md results/qwh.sqlite "QWH: the easy-hard-easy curve, order 30" \
    "Completing quasigroups with holes of order 30 (a uniformly random Latin square with a share of its cells emptied; satisfiable by construction), 10 instances a share of 30% to 60%: where each paradigm's hardest share falls, against the peak of about 42% Achlioptas, Gomes, Kautz and Selman report. The figure series.svg draws each paradigm's median time a share (a timeout at the limit). Effort is each engine's own count (docs/STATISTICS.md): nodes for mrv and dlx, conflicts for sat and cpsat." \
    "puzzlebench generate latin --size 30 --holes 0.HH --count 10 --seed 10HH (HH = 30, 32, ..., 60); puzzlebench bench qwh30_h0.*.txt --solvers mrv,dlx,sat,cpsat --limit 1 --time-limit 10 --jobs 2 --seed 1"

campaign cpsat_smt "CP-SAT and SMT formulations" \
    "CP-SAT's formulations (cpsat:int, integers with AllDifferent; cpsat:bool, a Boolean a candidate) beside CPMpy's path to the same solver (cpmpy:ortools: CPMpy's model, transformation and posting, then the same search), on one worker; and Z3's formulations beside each other: smt:fold (the Boolean formulation after the givens are folded away: exactly-one groups unit-propagated once, only the open candidates written, Z3's SAT core with native cardinality constraints, QF_FD), smt:bool, smt:bool@amo=pairwise and smt:int. Every variant writes SMT-LIB2 text for Z3's parser in one call: building the same terms through Z3's Python objects took 30 times as long. Encode is the build (for CPMpy: model, transformation, posting). Each worker warms each engine up on its first puzzle first (CP-SAT's first solve takes about 2 s)."
campaign processes "Every process of a run counted" \
    "The CPU time of a run that starts a program counts the worker's and the program's (RUSAGE_SELF plus RUSAGE_CHILDREN, as runsolver counts a process tree): for ext:cadical its CPU median should be 0.8 of its wall median or more, beside the in-process sat:glucose3. Z3 (smt:int) on 16x16 under a memory limit of 5 MB above the worker's baseline: every run a memout, its peak within the cap and the slack (RLIMIT_DATA, which counts private writable memory alone; libraries are loaded before the cap, into the baseline)."

campaign tools "Competition tools and CPMpy beside CP-SAT" \
    "The competition tools on puzzlebench's exports (ext:minizinc: MiniZinc with Gecode; ext:ace: ACE on XCSP3; ext:minisat+ on OPB, which stops at the first solution: it does not enumerate) and CPMpy's path to its back ends (cpmpy:ortools, cpmpy:exact, cpmpy:pysat: the model, CPMpy's transformation and posting in encode, the back end's search in solve) beside the direct CP-SAT model (cpsat:int, one worker). Every answer decoded and verified by the puzzle's checker and cross-checked; an ext: run's CPU time counts its program's. Each worker warms each engine up first (a JVM or a library's first call is not what is measured)."

puzzlebench generate sudoku --unsat --count 50 --seed 1 --quiet --out results/generated/sudoku9_unsat_50.txt
puzzlebench generate sudoku --unsat --box 2x3 --count 50 --seed 1 --quiet --out results/generated/sudoku6_unsat_50.txt
campaign certify "What a certified answer costs" \
    "Each claim of absence (unique; unsat on generated puzzles given one more clue that breaks no rule at once) proved by the engine's own DRUP proof where it writes one (bitboard on every grid of units, dlx on Sudoku), else by a proof-logging SAT solver (the engine itself where it is one, else CaDiCaL 1.9.5 through PySAT) on the export's CNF with the found solution blocked, and the DRAT proof checked by the package's checker: per engine and size, the claims certified of those made, the median proof size, the median time to prove and to check, beside each engine's own median time (the certification is not in it)."

# -- the benchmark scripts: each writes its own page (and figure) in results/ ----------------

# SAT programs beside PySAT in-process, each run's time split (results/external.md)
python benchmarks/bench_tools.py
# minimal 16x16 and 25x25 Sudoku from the generator (results/generate_large.md; about 28 minutes)
python benchmarks/bench_generate.py --boxes 4x4,5x5 --seeds 1,2,3 --reference-seeds 1,2,3 --sat-alone-boxes 4x4
