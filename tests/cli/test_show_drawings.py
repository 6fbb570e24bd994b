"""``show --format svg|html``: one drawing to standard output, a file a drawing in ``--out
DIR``, one page of every drawing; its refusals in one line, before any puzzle is read; every
text of the page escaped."""

from xml.etree import ElementTree

from conftest import INKALA, INKALA_SOLUTION, run

SVG = "{http://www.w3.org/2000/svg}"


def svg_values(root, cls: str) -> str:
    """The values of one class, in cell order, as a line of 81 (``.`` where none)."""
    cells = ["."] * 81
    for e in root.iter(SVG + "text"):
        if e.get("class") == cls:
            r, c = e.get("data-cell")[1:].split("c")
            cells[(int(r) - 1) * 9 + int(c) - 1] = e.get("data-value")
    return "".join(cells)


def test_one_puzzle_is_drawn_to_standard_output(capsys):
    code, out, err = run(capsys, "show", "--example", "killer", "--format", "svg")
    root = ElementTree.fromstring(out)
    assert (code, err, root.get("data-kind")) == (0, "", "killer")
    assert len([g for g in root.iter(SVG + "g") if g.get("class") == "cage"]) > 20


def test_solve_draws_the_solution_in_the_cells_the_givens_leave(capsys, tmp_path):
    path = tmp_path / "one.txt"
    path.write_text(INKALA + "\n")
    code, out, _ = run(capsys, "show", str(path), "--format", "svg", "--solve")
    root = ElementTree.fromstring(out)
    assert code == 0
    assert svg_values(root, "given") == INKALA
    assert svg_values(root, "solved") == "".join("." if g != "." else s for g, s in zip(INKALA, INKALA_SOLUTION))


def test_several_puzzles_need_out_or_html(capsys, tmp_path):
    path = tmp_path / "two.txt"
    path.write_text(INKALA + "\n" + INKALA + "\n")
    assert run(capsys, "show", str(path), "--format", "svg") == (
        2, "", "puzzlebench: error: show --format svg: 2 puzzles; give --out DIR for a file each, "
               "or use --format html for one page\n")
    code, out, err = run(capsys, "show", str(path), "--format", "svg", "--out", str(tmp_path / "drawn"))
    assert (code, out, err) == (0, "", "")
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == ["001-two.txt-1.svg", "002-two.txt-2.svg"]
    assert ElementTree.parse(tmp_path / "drawn" / "002-two.txt-2.svg").getroot().get("data-kind") == "sudoku"


def test_a_wrong_out_is_refused_before_reading(capsys, tmp_path):
    a_file, a_dir = tmp_path / "page.html", tmp_path / "dir"
    a_file.write_text("keep")
    a_dir.mkdir()
    missing = str(tmp_path / "missing.txt")   # never read: the refusal comes first
    assert run(capsys, "show", missing, "--format", "svg", "--out", str(a_file)) == (
        2, "", f"puzzlebench: error: --out {a_file}: a file; --format svg writes a file a puzzle into a directory\n")
    assert run(capsys, "show", missing, "--format", "html", "--out", str(a_dir)) == (
        2, "", f"puzzlebench: error: --out {a_dir}: a directory; --format html writes one page: give its file name\n")
    assert run(capsys, "show", missing, "--out", str(a_dir)) == (
        2, "", "puzzlebench: error: --out is for --format svg (a directory) or html (a file); "
               "text goes to standard output\n")
    assert a_file.read_text() == "keep"


def test_the_page_draws_each_puzzle_and_escapes_every_text(capsys, tmp_path):
    path = tmp_path / "<b>set&.txt"
    path.write_text(INKALA + "\n<script>alert(1)</script>\n")
    code, out, err = run(capsys, "show", str(path), "--format", "html")
    assert code == 1
    assert err == (f"puzzlebench: {path}:2:1: error: unexpected character '<': expected a value (1-9, A-Z) "
                   "or an empty cell (. 0 _)\n")
    assert out.startswith("<!doctype html>") and out.count("<svg ") == 1
    assert "<script>" not in out and "<b>" not in out
    assert "&lt;b&gt;set&amp;.txt:2:1: error: unexpected character &#x27;&lt;&#x27;" in out
    assert run(capsys, "show", str(path), "--format", "html", "--out", str(tmp_path / "page.html"))[1] == ""
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == out


def test_text_stays_the_default_and_solve_adds_the_solution(capsys):
    code, out, _ = run(capsys, "show", "--example", "course-4x4", "--solve")
    assert code == 0 and "<svg" not in out and "solution:" in out
