"""A set is what it holds: its identity in the database is its puzzles' content (and the seed
they were scrambled with), shown under a readable name; a changed file is a new set, never
merged with its earlier rows; ``--resume`` runs again what was stored under another time
limit; ``puzzlebench db`` lists, removes and renames sets; an older database is read and
migrated."""

from __future__ import annotations

import shlex
import sqlite3
from pathlib import Path

import pytest

import puzzlebench
from puzzlebench.cli import main
from puzzlebench.harness.database import Database, open_existing, set_digest
from puzzlebench.generators import generate
from puzzlebench.harness.inputs import read_file
from puzzlebench.harness.report import VIRTUAL_BEST, median_runs, standard_metrics

from conftest import REPO
FAST = "mrv,dlx"


def puzzle_file(path: Path, count: int, seed: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(p.write() + "\n" for p in generate("sudoku", count, seed, box=(2, 2))))
    return path


def readme_bench_lines() -> list[str]:
    """The benchmarking guide's two bench lines of one database: a scrambled sample, then repeats."""
    page = REPO / "docs" / "benchmarking.md"
    lines = [line.removeprefix("$ ") for line in page.read_text().splitlines()
             if line.startswith("$ puzzlebench bench six.txt")]
    scrambled = [line for line in lines if "--sample 500 --seed 1 --scramble" in line]
    repeated = [line for line in lines if "--repeat 5" in line and "--engine-seed" not in line]
    assert len(scrambled) == 1 and len(repeated) == 1, "the guide's bench lines moved"
    return [scrambled[0], repeated[0]]


def as_test_argv(line: str, file: Path, db: Path) -> list[str]:
    """A guide's line run on a small file with fast solvers into ``db``."""
    argv = shlex.split(line.split("#", 1)[0])[1:]
    argv[argv.index("six.txt")] = str(file)
    argv[argv.index("--solvers") + 1] = FAST
    argv[argv.index("--db") + 1] = str(db)
    return argv + ["--quiet"]


def results(db: Path) -> list[dict]:
    reader = open_existing(str(db))
    try:
        return [dict(r) for r in reader.results()]
    finally:
        reader.close()


def puzzles_by_set(db: Path) -> dict[str, int]:
    """Each set's puzzles in the results view, as a report counts them (by place and hash)."""
    out: dict[str, set] = {}
    for r in results(db):
        out.setdefault(r["set_name"], set()).add((r["puzzle_id"], r["puzzle_hash"]))
    return {name: len(ids) for name, ids in out.items()}


@pytest.mark.slow
def test_the_readme_benches_into_one_database_are_two_sets_of_eleven(tmp_path, capsys):
    file, db = puzzle_file(tmp_path / "puzzles.txt", 11, seed=4), tmp_path / "runs.sqlite"
    for line in readme_bench_lines():
        assert main(as_test_argv(line, file, db)) == 0
    capsys.readouterr()
    assert puzzles_by_set(db) == {"puzzles.txt (scrambled, seed 1)": 11, "puzzles.txt": 11}
    rows = results(db)
    digests = {r["set_name"]: r["set_digest"] for r in rows}
    assert len(set(digests.values())) == 2
    hashes = {name: {r["puzzle_hash"] for r in rows if r["set_name"] == name} for name in digests}
    assert not hashes["puzzles.txt"] & hashes["puzzles.txt (scrambled, seed 1)"]
    metrics = standard_metrics(median_runs(rows))
    assert {(m["set"], m["solver"], m["puzzles"]) for m in metrics} == {
        (name, solver, 11) for name in digests for solver in ("mrv", "dlx", VIRTUAL_BEST)}
    assert sum(m["wins"] for m in metrics if m["set"] == "puzzles.txt" and m["solver"] != VIRTUAL_BEST) == 11
    assert main(["report", "--db", str(db), "--plot", "cactus", "--out", str(tmp_path / "figs")]) == 0
    assert sorted(p.name for p in (tmp_path / "figs").glob("cactus-*.png")) == [
        "cactus-puzzles_txt.png", "cactus-puzzles_txt__scrambled__seed_1_.png"]   # a plot a set, 11 puzzles each
    # the second bench again: the same content, the same set; nothing left to run
    assert main(as_test_argv(readme_bench_lines()[1], file, db) + ["--resume"]) == 0
    assert "0 runs in " in capsys.readouterr().err
    assert puzzles_by_set(db) == {"puzzles.txt (scrambled, seed 1)": 11, "puzzles.txt": 11}


@pytest.mark.slow
def test_two_files_of_one_name_stay_two_sets(tmp_path, capsys):
    one, two = puzzle_file(tmp_path / "d1" / "puzzles.txt", 3, 1), puzzle_file(tmp_path / "d2" / "puzzles.txt", 4, 2)
    db = tmp_path / "s.sqlite"
    assert main(["bench", str(one), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["bench", str(two), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"puzzlebench: {two} is another file than the stored set puzzles.txt: "
                      "its puzzles are the set d2/puzzles.txt")
    assert puzzles_by_set(db) == {"puzzles.txt": 3, "d2/puzzles.txt": 4}
    assert main(["bench", str(one), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0   # found by content
    assert puzzles_by_set(db) == {"puzzles.txt": 3, "d2/puzzles.txt": 4}


def test_two_files_of_one_content_in_one_bench_are_refused(tmp_path, capsys):
    one = puzzle_file(tmp_path / "a.txt", 3, 1)
    two = tmp_path / "b.txt"
    two.write_text(one.read_text())
    db = tmp_path / "same.sqlite"
    assert main(["bench", str(one), str(two), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: {one} and {two} hold the same puzzles (one set): "
                                       "bench one of them\n")
    assert not db.exists()   # refused before the run: nothing stored, no database made


def edit_three_lines(path: Path) -> None:
    lines = path.read_text().splitlines()
    fresh = [p.write() for p in generate("sudoku", 3, seed=99, box=(2, 2))]
    path.write_text("\n".join(fresh + lines[3:]) + "\n")


@pytest.mark.parametrize("resume", [True, False])
def test_an_edited_file_is_a_new_set_said_in_one_line(tmp_path, capsys, resume):
    file, db = puzzle_file(tmp_path / "five.txt", 5, seed=6), tmp_path / "e.sqlite"
    assert main(["bench", str(file), "--solvers", FAST, "--db", str(db), "--quiet"]) == 0
    before = {r["puzzle_hash"]: r for r in results(db) if r["solver"] == "mrv"}
    edit_three_lines(file)
    capsys.readouterr()
    assert main(["bench", str(file), "--solvers", "mrv", "--db", str(db), "--quiet"]
                + (["--resume"] if resume else [])) == 0
    err = capsys.readouterr().err.splitlines()
    digest = set_digest((r.line, r.puzzle_hash) for r in read_file(str(file)))
    new = f"five.txt@{digest[:8]}"
    assert err[0] == (f"puzzlebench: {file.resolve()} changed since its results were stored as the set five.txt: "
                      f"3 of its 5 puzzles are new; it is the new set {new}, where its 2 unchanged puzzles keep "
                      "their results (five.txt keeps its own)")
    assert err[1].startswith("puzzlebench: 3 runs in " if resume else "puzzlebench: 5 runs in ")
    assert err[1].count(", 2 already in the database") == resume and len(err) == 2
    assert puzzles_by_set(db) == {"five.txt": 5, new: 5}
    rows = {(r["puzzle_id"], r["solver"]): r for r in results(db) if r["set_name"] == new}
    assert sorted(rows) == sorted((f"{new}:{n}", s) for n in range(1, 6) for s in ("mrv", "dlx")
                                  if s == "mrv" or n > 3)
    for n in (4, 5):   # the unchanged puzzles: their stored run kept under --resume, run again without
        kept = rows[f"{new}:{n}", "mrv"]
        assert (kept["run_id"] == before[kept["puzzle_hash"]]["run_id"]) == resume
    assert len([r for r in results(db) if r["set_name"] == "five.txt"]) == 10   # the earlier set untouched


@pytest.mark.slow
def test_resume_runs_again_what_was_stored_under_a_smaller_or_larger_time_limit(tmp_path, capsys):
    file, db = puzzle_file(tmp_path / "five.txt", 5, seed=6), tmp_path / "t.sqlite"
    base = ["bench", str(file), "--solvers", "mrv", "--db", str(db), "--quiet", "--resume"]
    assert main(base + ["--time-limit", "10"]) == 0
    capsys.readouterr()
    assert main(base + ["--time-limit", "0.001"]) in (0, 1)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "puzzlebench: 5 results stored under another time limit (10 s) run again at 0.001 s"
    assert err[1].startswith("puzzlebench: 5 runs in ")
    assert {r["time_limit"] for r in results(db)} == {0.001}
    assert main(base + ["--time-limit", "0.001"]) in (0, 1)
    assert capsys.readouterr().err.startswith("puzzlebench: 0 runs in ")
    assert main(base + ["--time-limit", "20"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "puzzlebench: 5 results stored under another time limit (0.001 s) run again at 20 s"
    assert {(r["time_limit"], r["status"]) for r in results(db)} == {(20.0, "unique")}


# -- the db command ------------------------------------------------------------------------------

def test_db_lists_removes_and_renames_sets(tmp_path, capsys):
    one, two = puzzle_file(tmp_path / "a.txt", 3, 1), puzzle_file(tmp_path / "b.txt", 2, 2)
    db = tmp_path / "l.sqlite"
    assert main(["bench", str(one), str(two), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["db", "list", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    digests = {r["set_name"]: r["set_digest"] for r in results(db)}
    assert out[0] == "runs" and out[1].split() == ["id", "started", "finished", "results", "command"]
    assert out[2].split()[0] == "1" and out[2].split()[3] == "5" and "puzzlebench" in out[2]
    assert out[3] == "sets" and out[4].split() == ["id", "name", "puzzles", "digest", "runs"]
    assert [line.split() for line in out[5:]] == [["1", "a.txt", "3", digests["a.txt"][:12], "1"],
                                                  ["2", "b.txt", "2", digests["b.txt"][:12], "1"]]
    with sqlite3.connect(db) as conn:   # a disagreement is stored under its puzzle's id (set:line)
        conn.executemany("INSERT INTO disagreements (puzzle_id, puzzle_hash, limit_) VALUES (?, 'h', 2)",
                         [("a.txt:1",), ("b.txt:1",), ("a.txt.old:1",)])
    assert main(["db", "rename-set", str(db), "a.txt", "first"]) == 0
    assert capsys.readouterr().out == f"renamed the set a.txt to first in {db}\n"
    assert puzzles_by_set(db) == {"first": 3, "b.txt": 2}
    assert disagreeing(db) == ["a.txt.old:1", "b.txt:1", "first:1"]
    assert main(["db", "rename-set", str(db), "b.txt", "first"]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: {db} has a set named first already\n"
    assert main(["bench", str(one), "--solvers", "mrv", "--db", str(db), "--quiet", "--resume"]) == 0
    assert "0 runs in " in capsys.readouterr().err    # the renamed set is still its content's set
    assert main(["db", "rm-set", str(db), "first"]) == 0
    assert capsys.readouterr().out == f"removed the set first (3 results) from {db}\n"
    assert puzzles_by_set(db) == {"b.txt": 2}
    assert disagreeing(db) == ["a.txt.old:1", "b.txt:1"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM result_log").fetchone() == (2,)


def disagreeing(db: Path) -> list[str]:
    with sqlite3.connect(db) as conn:
        return [row[0] for row in conn.execute("SELECT puzzle_id FROM disagreements ORDER BY puzzle_id")]


def test_db_errors_are_one_line_and_exit_2(tmp_path, capsys):
    file, db = puzzle_file(tmp_path / "a.txt", 2, 1), tmp_path / "e.sqlite"
    assert main(["bench", str(file), "--solvers", "mrv", "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["db", "rm-set", str(db), "nope"]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: no set 'nope' in {db} (sets: a.txt)\n"
    assert main(["db", "rename-set", str(db), "nope", "x"]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: no set 'nope' in {db} (sets: a.txt)\n"
    assert main(["db", "list", str(file)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: cannot read {file} as a results database: " \
                                      "file is not a database\n"
    missing = tmp_path / "none.sqlite"
    assert main(["db", "rm-set", str(missing), "a.txt"]) == 2
    assert capsys.readouterr().err == (f"puzzlebench: error: no results database at {missing} (make one with "
                                       f"`puzzlebench bench --db {missing}`)\n")
    assert not missing.exists()


# -- an older database ---------------------------------------------------------------------------

OLD_SCHEMA = """
CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, command TEXT, seed INTEGER,
    settings TEXT, cpu_model TEXT, cores INTEGER, memory_bytes INTEGER, platform TEXT, python TEXT,
    package_version TEXT, engines TEXT, git_commit TEXT, load TEXT);
CREATE TABLE puzzle_sets (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE shapes (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, shape TEXT NOT NULL, UNIQUE (kind, shape));
CREATE TABLE solvers (id INTEGER PRIMARY KEY, spec TEXT NOT NULL UNIQUE);
CREATE TABLE result_log (
    id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id),
    set_id INTEGER NOT NULL REFERENCES puzzle_sets(id), line INTEGER, puzzle_hash TEXT NOT NULL,
    shape_id INTEGER REFERENCES shapes(id), solver_id INTEGER NOT NULL REFERENCES solvers(id),
    limit_ INTEGER NOT NULL, time_limit REAL, status TEXT NOT NULL, count INTEGER,
    t_parse REAL, t_encode REAL, t_solve REAL, t_decode REAL, t_total REAL, peak_memory INTEGER,
    nodes INTEGER, guesses INTEGER, backtracks INTEGER, conflicts INTEGER, propagations INTEGER,
    raw_stats TEXT, size TEXT, error TEXT, verified INTEGER, wrong INTEGER,
    replaced_by INTEGER REFERENCES runs(id), t_cpu REAL, batch_size INTEGER, baseline_memory INTEGER,
    memory_limit INTEGER, repetition INTEGER);
CREATE VIEW results AS
SELECT r.id, r.run_id, s.name || ':' || r.line AS puzzle_id, r.puzzle_hash, s.name AS set_name, r.line,
       h.kind, h.shape, v.spec AS solver, r.limit_, r.time_limit, r.memory_limit, r.status, r.count,
       r.t_parse, r.t_encode, r.t_solve, r.t_decode, r.t_total, r.t_cpu, r.batch_size,
       r.peak_memory, r.baseline_memory,
       r.nodes, r.guesses, r.backtracks, r.conflicts, r.propagations, r.raw_stats, r.size, r.error,
       r.verified, r.wrong, COALESCE(r.repetition, 1) AS repetition
FROM result_log r JOIN puzzle_sets s ON s.id = r.set_id JOIN solvers v ON v.id = r.solver_id
LEFT JOIN shapes h ON h.id = r.shape_id WHERE r.replaced_by IS NULL;
CREATE TABLE disagreements (id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id),
    puzzle_id TEXT NOT NULL, puzzle_hash TEXT NOT NULL, limit_ INTEGER NOT NULL,
    solver_a TEXT, status_a TEXT, count_a INTEGER, solver_b TEXT, status_b TEXT, count_b INTEGER,
    UNIQUE (puzzle_id, puzzle_hash, limit_, solver_a, solver_b));
"""
"""The schema before sets had an identity (a set was its name): the README's two benches of one
file stored one set of both contents."""


def old_database(new: Path, old: Path) -> None:
    """``new``'s rows in a database of :data:`OLD_SCHEMA`, every set under the one name of
    the first (as the schema before set identity stored them: by the file's name)."""
    conn = sqlite3.connect(old)
    conn.executescript(OLD_SCHEMA)
    conn.execute("ATTACH DATABASE ? AS new", (str(new),))
    for table in ("runs", "shapes", "solvers", "result_log"):
        columns = ", ".join(row[1] for row in conn.execute(f"PRAGMA main.table_info({table})"))
        conn.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM new.{table}")
    conn.execute("INSERT INTO main.puzzle_sets (id, name) SELECT 1, base FROM new.puzzle_sets WHERE id = 2")
    conn.execute("UPDATE main.result_log SET set_id = 1")
    conn.commit()
    conn.execute("DETACH DATABASE new")
    conn.close()


@pytest.mark.slow
def test_an_older_database_is_read_then_its_merged_set_split_off(tmp_path, capsys):
    file, new, old = puzzle_file(tmp_path / "puzzles.txt", 11, seed=4), tmp_path / "n.sqlite", tmp_path / "o.sqlite"
    for line in readme_bench_lines():
        assert main(as_test_argv(line, file, new) + ["--repeat", "1"]) == 0
    old_database(new, old)
    capsys.readouterr()
    assert puzzles_by_set(old) == {"puzzles.txt": 22}     # the old schema's merged set, read as it is
    frame = puzzlebench.load_results(old)
    assert "set_digest" in frame.columns and frame["set_digest"].isna().all()
    assert main(["report", "--db", str(old), "--raw"]) == 0
    header, *raw = capsys.readouterr().out.splitlines()
    assert "set_digest" in header.split(",") and len(raw) == 2 * 2 * 11
    assert main(["db", "list", str(old)]) == 0      # read, not written: the digest computed from the rows
    listed = capsys.readouterr().out.splitlines()
    merged = set_digest(sorted((r["line"], r["puzzle_hash"]) for r in results(old) if r["solver"] == "mrv"))
    assert listed[-1].split() == ["1", "puzzles.txt", "22", merged[:12], "2"]
    with sqlite3.connect(old) as conn:
        assert [row[1] for row in conn.execute("PRAGMA table_info(puzzle_sets)")] == ["id", "name"]

    # a bench migrates it; the file's content is not the merged set: a new set, its results kept
    assert main(["bench", str(file), "--solvers", FAST, "--db", str(old), "--quiet", "--resume"]) == 0
    err = capsys.readouterr().err.splitlines()
    digest = set_digest((r.line, r.puzzle_hash) for r in read_file(str(file)))
    assert err[0].startswith(f"puzzlebench: {file.resolve()} changed since its results were stored as the set "
                             f"puzzles.txt: 0 of its 11 puzzles are new; it is the new set puzzles.txt@{digest[:8]}")
    assert err[1].startswith("puzzlebench: 0 runs in ") and ", 22 already in the database" in err[1]
    assert puzzles_by_set(old) == {"puzzles.txt": 22, f"puzzles.txt@{digest[:8]}": 11}
    reader = Database(old)
    assert {(s.name, s.digest, s.puzzles) for s in reader.stored_sets()} == {
        ("puzzles.txt", merged, 22), (f"puzzles.txt@{digest[:8]}", digest, 11)}
    reader.close()
    assert puzzlebench.load_results(old)["set_digest"].notna().all()
