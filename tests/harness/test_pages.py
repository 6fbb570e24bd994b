"""The benchmark scripts' shared helpers: the public sets read where the data folder says, a
page written under its provenance, a section spliced in by its heading with the rest kept."""

from puzzlebench.harness import pages


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
