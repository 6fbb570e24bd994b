"""``bench --certify``: each claim of absence proved and checked in its run, its certificate
stored with the row, counted by the report's ``certified`` column (red on the page where a
claim went unproved), and compared by ``report --compare``."""

from __future__ import annotations

import contextlib
import csv
import io
import sqlite3
from pathlib import Path

import pytest

from conftest import INKALA, run
from puzzlebench.cli import main

FAKE_UNSAT = 'ext@cmd=printf "s UNSATISFIABLE\\n"'
TWO = "1.......................................4........................................"


@pytest.fixture(scope="module")
def benched(tmp_path_factory) -> tuple[Path, int, str]:
    """A certified bench of Inkala's puzzle, a puzzle with many solutions and a fake UNSAT program."""
    folder = tmp_path_factory.mktemp("certify")
    (folder / "p.txt").write_text(f"{INKALA}\n{TWO}\n")
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["bench", str(folder / "p.txt"), "--solvers", f"bitboard,{FAKE_UNSAT}", "--certify",
                     "--db", str(folder / "c.sqlite"), "--quiet"])
    return folder, code, err.getvalue()


def stored(db: Path) -> dict[tuple[str, str], tuple]:
    with sqlite3.connect(db) as conn:
        return {(p, s): tuple(rest) for p, s, *rest in conn.execute(
            "SELECT puzzle_id, solver, status, certificate, prover, proof_bytes > 0, check_seconds >= 0 FROM results")}


def test_each_claim_is_stored_with_its_certificate(benched):
    folder, code, err = benched
    rows = stored(folder / "c.sqlite")
    assert rows[("p.txt:1", "bitboard")] == ("unique", "verified", "bitboard", 1, 1)   # its own proof
    assert rows[("p.txt:2", "bitboard")] == ("multiple", None, None, None, None)   # two found: no claim
    assert rows[("p.txt:1", FAKE_UNSAT)][:3] == ("error", "failed", "sat:cadical195")
    assert code == 1


def test_the_report_counts_the_claims_certified(benched, capsys):
    folder, _, _ = benched
    code, out, _ = run(capsys, "report", "--db", str(folder / "c.sqlite"), "--format", "csv")
    rows = {row["solver"]: row for row in csv.DictReader(io.StringIO(out))}
    assert (rows["bitboard"]["certified"], rows["bitboard"]["claims"]) == ("1", "1")
    assert (rows[FAKE_UNSAT]["certified"], rows[FAKE_UNSAT]["claims"]) == ("0", "2")   # both refuted


def test_an_unproved_claim_is_red_on_the_page(benched, capsys, tmp_path):
    folder, _, _ = benched
    code, _, err = run(capsys, "report", "--db", str(folder / "c.sqlite"), "--format", "html", "--out", str(tmp_path))
    page = (tmp_path / "index.html").read_text()
    assert code == 0 and page.count("class='unproved'") == 1, err


def test_compare_keeps_the_certified_claims(benched, capsys, tmp_path):
    folder, _, _ = benched
    plain = tmp_path / "plain.sqlite"
    run(capsys, "bench", str(folder / "p.txt"), "--solvers", "bitboard", "--db", str(plain), "--quiet")
    code, out, _ = run(capsys, "report", "--compare", str(plain), str(folder / "c.sqlite"))
    header = next(line for line in out.splitlines() if line.startswith("| set |"))
    row = next(line for line in out.splitlines() if line.startswith("| p.txt | bitboard |"))
    assert header.endswith("| certified B |") and row.endswith("| 1/1 |")


def test_a_proof_folder_without_certify_is_refused(tmp_path, capsys):
    (tmp_path / "p.txt").write_text(INKALA + "\n")
    code, out, err = run(capsys, "bench", str(tmp_path / "p.txt"), "--solvers", "mrv", "--proof-dir", str(tmp_path / "proofs"),
                         "--db", str(tmp_path / "x.sqlite"))
    assert (code, err) == (2, "puzzlebench: error: a proof folder (--proof-dir) goes with --certify\n")
    assert not (tmp_path / "x.sqlite").exists()
