"""Campaign files (``bench --campaign FILE.toml``): a whole benchmark in one file, each set a
bench with its own settings over the campaign's, everything checked before anything runs; every
mistake one line with its place and exit 2, nothing stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebench.cli import main
from puzzlebench.errors import UsageError
from puzzlebench.harness.campaign import key_places, load_campaign
from puzzlebench.generators import generate

from conftest import REPO, data_file

CAMPAIGN = """\
db = "runs.sqlite"
solvers = ["mrv", { spec = "sat:minisat22", options = { encoding = "minimal" } }]
time_limit = 5
seed = 1

[[set]]
file = "four.txt"
sample = 3

[[set]]
file = "six.txt"
box = "2x3"
time_limit = 7
repeat = 2
solvers = ["backtrack"]
"""


@pytest.fixture
def folder(tmp_path) -> Path:
    """A campaign and its two puzzle files, side by side."""
    (tmp_path / "four.txt").write_text("".join(p.write() + "\n" for p in generate("sudoku", 4, 3, box=(2, 2))))
    (tmp_path / "six.txt").write_text("".join(p.write() + "\n" for p in generate("sudoku", 2, 3, box=(2, 3))))
    (tmp_path / "c.toml").write_text(CAMPAIGN)
    return tmp_path


def stored(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return sorted(conn.execute("SELECT set_name, solver, repetition, time_limit, status FROM results"))


def test_a_campaign_runs_each_set_with_its_own_settings(folder, capsys):
    assert main(["bench", "--campaign", str(folder / "c.toml"), "--quiet", "--wide"]) == 0
    out, err = capsys.readouterr()
    rows = stored(folder / "runs.sqlite")
    four = [r for r in rows if r[0] == "four.txt (sample 3, seed 1)"]   # a sample is a set of its own
    six = [r for r in rows if r[0] == "six.txt"]
    assert sorted({r[1] for r in four}) == ["mrv", "sat:minisat22@encoding=minimal"]
    assert len(four) == 2 * 3 and {(r[2], r[3], r[4]) for r in four} == {(1, 5.0, "unique")}
    assert sorted((r[1], r[2], r[3]) for r in six) == [("backtrack", 1, 7.0)] * 2 + [("backtrack", 2, 7.0)] * 2
    assert "| four.txt (sample 3, seed 1) | mrv | 2 | 3 | 3 |" in out and "| six.txt | backtrack | 2 | 2 | 2 |" in out
    assert err.splitlines()[0].startswith("puzzlebench: [1/2] four.txt: 6 runs in ")
    assert err.splitlines()[1].startswith("puzzlebench: [2/2] six.txt: 4 runs in ")
    # run again with --resume: nothing left to run
    assert main(["bench", "--campaign", str(folder / "c.toml"), "--quiet", "--resume"]) == 0
    assert "6 already in the database" in capsys.readouterr().err
    assert len(stored(folder / "runs.sqlite")) == 10


def test_the_command_line_says_where_the_campaign_says_what(folder, capsys):
    other = folder / "elsewhere.sqlite"
    assert main(["bench", "--campaign", str(folder / "c.toml"), "--quiet", "--db", str(other)]) == 0
    capsys.readouterr()
    assert len(stored(other)) == 10 and not (folder / "runs.sqlite").exists()
    assert main(["bench", "--campaign", str(folder / "c.toml"), "--time-limit", "2"]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: --time-limit is stated by the campaign file "
                                       f"{folder / 'c.toml'}; leave it out\n")


BAD = [
    ("solvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\nsmaple = 3\n",
     "{c}:4:1: unknown key 'smaple' in [[set]] 1 (known: box, file, kind, limit, memory_limit, repeat, sample, "
     "scramble, seed, solvers, time_limit)"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\ntime_limit = \"ten\"\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: time_limit ten: not a duration: a number (s) or one with a unit: ms, s, min, h "
     "(e.g. 250ms, 90s, 15min, 1.5h)"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\ntime_limit = true\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: time_limit must be a number of seconds or a text with a unit (\"15min\"); got true"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nseed = 9223372036854775807\n[[set]]\nfile = \"four.txt\"\n"
     "seed = 9223372036854775808\n", "{c}:6:1: seed 9223372036854775808: out of range: a whole number from 0 to 2^63-1"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nlimit = 9223372036854775807\n[[set]]\nfile = \"four.txt\"\n"
     "seed = -1\n", "{c}:6:1: seed -1: out of range: a whole number from 0 to 2^63-1"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nmemory_limit = \"2XB\"\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: memory_limit 2XB: unknown unit 'XB'"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\nkind = \"nqueens\"\nbox = \"2x2\"\n",
     "{c}:6:1: box does not go with kind = 'nqueens': it is the block shape of sudoku, sudoku-x, killer"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\njobs = 0\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: jobs 0: out of range: a whole number from 1 to 2^31-1"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nexecutor = \"dask-local:0\"\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: --executor 'dask-local:0': a local Dask cluster needs 1 worker or more"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\nsample = 2\n\n[[set]]\nfile = \"six.txt\"\n"
     "[[set]]\nsample = 2\nfile = \"four.txt\"\n",
     "{c}:9:1: [[set]] 3 repeats [[set]] 1 (the same file, solvers and settings): remove it, or give repeat = K "
     "for more runs"),
    ("db = \"r.sqlite\"\nsolvers = [\"sat@encoding=minimal;encoding=extended\"]\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:2:1: solver spec 'sat@encoding=minimal;encoding=extended': option encoding is given twice"),
    ("db = \"r.sqlite\"\nsolvers = [{ spec = \"sat@amo=seq\", options = { amo = \"pairwise\" } }]\n[[set]]\n"
     "file = \"four.txt\"\n", "{c}:2:1: solver spec 'sat@amo=seq;amo=pairwise': option amo is given twice"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\n[[set]]\nfile = \"six.txt\"\nrepeat = 0\n",
     "{c}:7:1: repeat 0: out of range: a whole number from 1 to 1000"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nlimit = -1\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: limit -1: out of range: a whole number from 0 to 2^63-1"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\nscramble = 1\n",
     "{c}:5:1: scramble must be true or false; got 1"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\ntime_limit = \n",
     "{c}:3:14: Invalid value"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]\n",
     "{c}:3:6: Expected ']]' at the end of an array declaration"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"missing.txt\"\n",
     "{c}:4:1: no puzzle file missing.txt (read from {folder})"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n",
     "{c}:1:1: a campaign needs at least one [[set]] with a file"),
    ("db = \"r.sqlite\"\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:2:1: [[set]] 1 has no solvers: give solvers = [...] in it or above every [[set]]"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nmemory_limit = 1e12\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: the memory limit of 1e+12 MB is more than this machine's memory"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\ntime_limit = inf\n",
     "{c}:5:1: time_limit inf: not a finite duration"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\ntime_limit = \"-1s\"\n",
     "{c}:5:1: time_limit -1s: out of range: from 0 to 1000000 s"),
    ("db = \"r.sqlite\"\nsolvers = [{ options = { a = 1 } }]\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:2:1: a solver table needs spec = \"family[:variant]\""),
    ("db = \"r.sqlite\"\n[tables]\nx = 1\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:2:1: unknown key 'tables' in the campaign (known: certify, db, executor, jobs, limit, memory_limit, "
     "repeat, seed, set, solvers, time_limit, warmup)"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\nwarmup = -1\n[[set]]\nfile = \"four.txt\"\n",
     "{c}:3:1: warmup -1: out of range: a whole number from 0 to 2^31-1"),
    ("solvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\n",
     "the campaign {c} names no db = \"...\": give one there or --db PATH"),
    ("db = \"r.sqlite\"\nsolvers = [\"mrv\"]\n[[set]]\nfile = \"four.txt\"\n[[set]]\nfile = \"six.txt\"\nbox = \"2x3\"\n"
     "solvers = [\"nosuch\"]\n", "{c}:8:1: unknown solver 'nosuch'; known: backtrack, bitboard, cpmpy, cpsat, dlx,"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_a_bad_campaign_is_one_line_with_its_place_and_stores_nothing(folder, capsys, text, message):
    campaign = folder / "bad.toml"
    campaign.write_text(text)
    assert main(["bench", "--campaign", str(campaign), "--quiet"]) == 2
    out, err = capsys.readouterr()
    expected = message.format(c=campaign, folder=folder)
    assert out == "" and err.startswith(f"puzzlebench: error: {expected}") and err.count("\n") == 1
    assert not (folder / "r.sqlite").exists()


def test_two_files_of_one_name_are_refused_one_file_twice_is_one_set(folder, capsys):
    """A set is named by its file's name, its puzzles' ids ``set:line``: two files of one name
    would share ids in the database; one file in two [[set]]s (other solvers) is one set."""
    (folder / "sub").mkdir()
    (folder / "sub" / "four.txt").write_text((folder / "six.txt").read_text())
    campaign = folder / "same.toml"
    campaign.write_text('db = "r.sqlite"\nsolvers = ["mrv"]\n[[set]]\nfile = "four.txt"\n'
                        '[[set]]\nfile = "sub/four.txt"\nbox = "2x3"\n')
    assert main(["bench", "--campaign", str(campaign), "--quiet"]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {campaign}:6:1: {folder / 'four.txt'} and "
                                       f"{folder / 'sub' / 'four.txt'} would both be the set 'four.txt' (a set "
                                       "is named by its file's name): rename one\n")
    assert not (folder / "r.sqlite").exists()
    campaign.write_text('db = "r.sqlite"\n[[set]]\nfile = "four.txt"\nsolvers = ["mrv"]\n'
                        '[[set]]\nfile = "four.txt"\nsolvers = ["dlx"]\n')
    assert main(["bench", "--campaign", str(campaign), "--quiet"]) == 0
    rows = stored(folder / "r.sqlite")
    assert {(r[0], r[1]) for r in rows} == {("four.txt", "mrv"), ("four.txt", "dlx")} and len(rows) == 8


def test_a_campaign_that_is_not_text_or_not_there(folder, capsys):
    binary = folder / "bin.toml"
    binary.write_bytes(b"db = \"r\"\n\xff\xfe")
    missing = folder / "missing.toml"
    for path, message in [(binary, f"{binary}: byte 9: the campaign is not UTF-8 text"),
                          (missing, f"cannot read the campaign {missing}: No such file or directory")]:
        assert main(["bench", "--campaign", str(path)]) == 2
        assert capsys.readouterr().err == f"puzzlebench: error: {message}\n"


NESTED = "nested more than 64 deep (arrays and tables inside each other, each dot of a key a level); no file needs as many"


@pytest.mark.parametrize("body, place", [("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "1:69"),
                                         ("x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n", "1:325"),
                                         ("db." + "a." * 100_000 + "a = 1\n", "1:130")])
def test_a_campaign_nested_past_the_bound_is_one_line(folder, capsys, body, place):
    """100,000 arrays or inline tables deep was a RecursionError traceback (tomllib recurses
    on them), and a key of 100,000 dotted parts ran for minutes (tomllib is quadratic in them)."""
    campaign = folder / "deep.toml"
    campaign.write_text(body)
    assert main(["bench", "--campaign", str(campaign)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {campaign}:{place}: {NESTED}\n"


@pytest.mark.slow
def test_a_campaign_without_end_stops_at_the_bound(capsys):
    assert main(["bench", "--campaign", "/dev/zero"]) == 2
    assert capsys.readouterr().err == ("puzzlebench: error: /dev/zero:1:268435457: the input is longer than "
                                       "268,435,456 bytes (256 MiB), the most read as one file; not read further\n")


def test_key_places_follow_tables_and_arrays_of_tables():
    places = key_places(CAMPAIGN)
    assert places[("db",)] == (1, 1) and places[("time_limit",)] == (3, 1)
    assert places[("set", 0)] == (6, 1) and places[("set", 0, "sample")] == (8, 1)
    assert places[("set", 1, "repeat")] == (14, 1) and ("set", 1, "sample") not in places


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_damaged_campaign_is_read_or_refused_never_a_crash(folder, data):
    """Fuzzing the reader: the example campaign with bytes cut, doubled or replaced."""
    text = CAMPAIGN
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        what = data.draw(st.sampled_from(["cut", "insert"]))
        if what == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 8)):]
        else:
            text = text[:at] + data.draw(st.text(alphabet="[]{}=\"'#,.\n 0123456789abcdefghijklmnopqrstuvwxyz-_",
                                                 min_size=1, max_size=6)) + text[at:]
    path = folder / "fuzz.toml"
    path.write_text(text)
    try:
        campaign = load_campaign(str(path))
    except UsageError as exc:
        assert "\n" not in str(exc) and str(exc)
        return
    assert campaign.sets and all(run.solvers and Path(run.file).is_file() for run in campaign.sets)


def test_a_campaign_warms_each_worker_up_and_leaves_the_warm_up_out(folder, capsys):
    (folder / "w.toml").write_text(CAMPAIGN.replace("seed = 1", "seed = 1\nwarmup = 2\njobs = 1"))
    assert main(["bench", "--campaign", str(folder / "w.toml"), "--quiet"]) == 0
    capsys.readouterr()
    with sqlite3.connect(folder / "runs.sqlite") as conn:
        warm = conn.execute("SELECT COUNT(*) FROM result_log WHERE warmup = 1").fetchone()[0]
    assert warm > 0 and len(stored(folder / "runs.sqlite")) == 10


@pytest.mark.parametrize("path", sorted((REPO / "benchmarks" / "campaigns").glob("*.toml")), ids=lambda p: p.stem)
def test_every_campaign_of_the_benchmarks_names_files_that_exist(path):
    data_file("sudoku9_norvig_top95.txt")   # the public sets beside the repository (else: skip)
    try:
        campaign = load_campaign(str(path))
    except UsageError as exc:   # a solver program this machine lacks (ext:cadical, ext:minizinc)
        if "is not available here" not in str(exc):
            raise
        pytest.skip(str(exc))
    assert Path(campaign.db).parent == REPO / "results"
    assert campaign.sets and all(Path(run.file).is_file() for run in campaign.sets)


def test_the_results_campaign_names_files_that_exist():
    data_file("sudoku9_norvig_top95.txt")   # the public sets beside the repository (else: skip)
    campaign = load_campaign(str(REPO / "benchmarks" / "campaigns" / "paradigms.toml"))
    assert campaign.db == str(REPO / "results" / "bench.sqlite")
    assert len(campaign.sets) == 10 and all(Path(run.file).is_file() for run in campaign.sets)
    assert {run.time_limit for run in campaign.sets} == {2.0, 3.0}
