"""The benchmark scripts' shared helpers: the public sets read where the data folder says,
engines raced puzzle by puzzle and their rows, a Markdown table, a page written under its
provenance, a section spliced in by its heading with the rest kept."""

import pytest

from puzzlebench.harness import pages
from puzzlebench.models.sudoku import parse_sudoku_line

TWO = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
OPEN = "0" * 16   # an empty 4x4 grid: many solutions


def test_the_data_folder_is_the_environments_else_beside_the_repository(tmp_path, monkeypatch):
    monkeypatch.delenv(pages.DATA_ENV, raising=False)
    assert pages.data_folder() == pages.Path(pages.__file__).resolve().parents[3] / "shared" / "data"
    (tmp_path / "set.txt").write_text("# a comment\nline1\n\nline2\nline3\nline4\nline5\n")
    monkeypatch.setenv(pages.DATA_ENV, str(tmp_path))
    assert pages.data_lines("set.txt") == ["line1", "line2", "line3", "line4", "line5"]
    assert pages.data_lines("set.txt", every=2) == ["line1", "line3", "line5"]
    assert pages.data_lines("set.txt", every=2, limit=2) == ["line1", "line3"]


def test_spread_takes_evenly_spaced_items():
    assert pages.spread(list(range(10)), 3) == [0, 3, 6]
    assert pages.spread([1, 2], 5) == [1, 2]


def test_a_page_opens_with_its_provenance_and_keeps_the_notes_written_by_hand(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Old\n\nold figures\n\n## Design notes\n\nwhy, by hand\n")
    text = pages.write_page(page, title="New", lead="What it measures.", command="python benchmarks/x.py", writer="benchmarks/x.py",
                            loads=["1.50 1.00 0.50", "2.25 1.00 0.50"], lines=["| a |", "|---|"])
    head = text.split("-->")[0].splitlines()
    assert head[:4] == ["<!--", "provenance:", "  command: python benchmarks/x.py", "  writer: benchmarks/x.py"]
    assert [line.split(":")[0] for line in head[4:]] == ["  commit", "  date", "  machine", "  load"]
    assert head[-1] == "  load: 1.50 to 2.25"
    assert text.split("-->\n")[1] == ("\n# New\n\nWhat it measures.\n\nCommand: `python benchmarks/x.py`\n\n| a |\n|---|\n\n"
                                      "## Design notes\n\nwhy, by hand\n")
    assert page.read_text() == text


def test_a_section_is_replaced_up_to_the_next_heading_or_its_notes(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## A\n\nold a\n\n### A.1\n\nold a.1\n\n## B\n\nold b\n\nNotes:\n- by hand\n\n"
                    "## C\n\nc\n")
    pages.splice_section(page, "## A", ["new a"])
    pages.splice_section(page, "## B", ["new b"])
    assert page.read_text() == ("# Title\n\n## A\n\nnew a\n\n## B\n\nnew b\n\nNotes:\n- by hand\n\n"
                                "## C\n\nc\n")
    pages.splice_section(page, "## D", ["d"])
    assert page.read_text().endswith("## C\n\nc\n\n## D\n\nd\n")
    pages.splice_section(tmp_path / "new.md", "## E", ["e"])
    assert (tmp_path / "new.md").read_text() == "## E\n\ne\n"


def test_the_command_line_leaves_out_where_the_page_went_and_the_machines_paths():
    argv = ["/somewhere/benchmarks/bench_x.py", "--tdoku", "/opt/lib/libtdoku.so", "--out", "a.md", "--n", "3",
            "--out=b.md", "../data/set.txt"]
    assert pages.command_line(argv) == "python benchmarks/bench_x.py --tdoku libtdoku.so --n 3 set.txt"


def test_a_race_runs_every_engine_and_seed_on_a_puzzle_before_the_next():
    puzzles = [parse_sudoku_line(TWO), parse_sudoku_line(OPEN)]
    order = [(k, seed, spec, r.status.value) for k, seed, spec, r in
             pages.race(puzzles, ["bitboard", "mrv", "dlx"], seeds=range(2), once=["dlx"], time_limit=10)]
    # mrv takes no seed and dlx is run once: seed 1 is the native engine's alone
    assert [(k, seed, spec) for k, seed, spec, _ in order] == [
        (0, 0, "bitboard"), (0, 0, "mrv"), (0, 0, "dlx"), (0, 1, "bitboard"),
        (1, 0, "bitboard"), (1, 0, "mrv"), (1, 0, "dlx"), (1, 1, "bitboard")]
    assert {status for k, _, _, status in order} == {"unique", "multiple"}


def test_a_runs_row_keeps_its_fields_and_comes_back_from_its_file(tmp_path):
    runs = pages.race_results([parse_sudoku_line(TWO)], ["bitboard"], time_limit=10)
    row = pages.run_row("bitboard", 0, runs["bitboard"][0], set="top", puzzle=3)
    assert {k: row[k] for k in ("set", "puzzle", "spec", "seed", "status")} == {
        "set": "top", "puzzle": 3, "spec": "bitboard", "seed": 0, "status": "unique"}
    path = tmp_path / "runs.jsonl"
    assert pages.read_rows(path) == []
    pages.append_rows(path, [row])
    pages.append_rows(path, [row])
    assert pages.read_rows(path) == [row, row]


def test_decided_runs_and_their_shifted_geometric_mean_count_a_run_out_of_time_at_the_limit():
    rows = [{"status": "unique", "cpu": 1.0}, {"status": "timeout", "cpu": 3.0}, {"status": "multiple", "cpu": 7.0}]
    done, mean = pages.decided_sgm(rows, limit=3.0)
    assert done == 2
    assert mean == pytest.approx(((2 * 4 * 4) ** (1 / 3)) - 1)   # 1, 3 (the limit), 3 (past it): shift 1


def test_a_markdown_table_aligns_the_first_column_left_unless_told():
    assert pages.md_table(["set", "n"], [["a", 1], ["b", 22]]) == ["| set | n |", "|---|---:|", "| a | 1 |",
                                                                    "| b | 22 |"]
    assert pages.md_table(["set", "note"], [], "ll") == ["| set | note |", "|---|---|"]


def test_seeds_are_a_count_from_0_or_a_range_and_anything_else_is_named():
    assert pages.seed_range("3") == range(3)
    assert pages.seed_range("1-2") == range(1, 3)
    for text in ("x", "3-1", "0"):
        with pytest.raises(pages.argparse.ArgumentTypeError) as error:
            pages.seed_range(text)
        assert str(error.value) == f"not a count of seeds or a range 'a-b' of them: {text!r}"


def test_parts_take_turns_round_by_round():
    calls = []
    runs = pages.take_turns({"a": lambda: calls.append("a") or 1, "b": lambda: calls.append("b") or 2}, rounds=3)
    assert calls == ["a", "b"] * 3
    assert [out for out, _, _ in runs["a"]] == [1, 1, 1] and [out for out, _, _ in runs["b"]] == [2, 2, 2]
    assert all(wall >= 0 and cpu >= 0 for done in runs.values() for _, wall, cpu in done)


def test_a_columnar_result_is_read_whole_and_counts_its_unique_puzzles_and_nodes():
    from puzzlebench import solve_many
    table = solve_many([TWO, OPEN], solver="bitboard", limit=2, columns=True)
    unique, nodes = pages.columns_read(table)
    assert unique == 1
    assert nodes == sum(r.stats.nodes for r in solve_many([TWO, OPEN], solver="bitboard", limit=2))


def runs(*cpus, limit=None):
    """Rows of runs taking these CPU seconds; one at ``limit`` or past it is out of time."""
    return [{"status": "timeout" if limit is not None and cpu >= limit else "unique", "cpu": cpu} for cpu in cpus]


def test_paired_runs_give_the_speed_up_its_interval_and_the_runs_only_one_side_decided():
    f = pages.paired_figures(runs(1.0, 3.0, 5.0, limit=5.0), runs(6.0, 7.0, 9.0, limit=5.0), limit=5.0)
    assert f["runs"] == 3 and f["decided"] == (2, 0) and f["only"] == (2, 0)
    assert f["sgm"] == pytest.approx((((2 * 4 * 6) ** (1 / 3)) - 1, 5.0))   # every run past 5 s counted at 5 s
    assert f["speedup"] == pytest.approx(f["sgm"][1] / f["sgm"][0])
    assert f["p_decided"] == pytest.approx(0.5)   # two of two discordant puzzles: 2 * 0.5^2
    low, high = f["interval"]
    assert low <= f["speedup"] <= high
    assert pages.speedup_words(f) == f"{f['speedup']:.2f} [{low:.2f}, {high:.2f}]"


def test_the_same_runs_are_not_told_apart_and_a_steady_fourfold_gap_is():
    jitter = [1.0 + 0.01 * k for k in range(20)]
    same = pages.paired_figures(runs(*jitter), runs(*jitter), limit=20.0)
    assert same["speedup"] == pytest.approx(1.0) and not pages.told_apart(same)
    apart = pages.paired_figures(runs(*jitter), runs(*(4 * t for t in jitter)), limit=20.0)
    assert apart["interval"][0] > 1 and apart["p_time"] < 0.05 and pages.told_apart(apart)
    slower = pages.paired_figures(runs(*(4 * t for t in jitter)), runs(*jitter), limit=20.0)
    assert slower["interval"][1] < 1 and pages.told_apart(slower)


def test_runs_told_apart_by_what_only_one_side_decided():
    f = pages.paired_figures(runs(*[1.0] * 10), runs(*[9.0] * 10, limit=9.0), limit=9.0)
    assert f["only"] == (10, 0) and f["p_decided"] < 0.01 and pages.told_apart(f)
