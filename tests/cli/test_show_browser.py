"""The gallery of every kind (``show --format html``) in a real, offline Chromium, opened from
``file://``: no console error, every drawing rendered with a size, every kind present;
the screenshot is kept as a test artefact (test-artifacts/show-gallery-*.png)."""

import pytest

from browser import browser, needs_browser  # noqa: F401 (the fixture)
from conftest import data_lines, run
from puzzlebench.models.examples import EXAMPLES, example
from puzzlebench.models.kinds import KIND_NAMES
from puzzlebench.models.sukaku import sukaku_line
from puzzlebench.engines.registry import make_engine

TATHAM = ("tatham_solo_killer_3x3_100.txt", "tatham_solo_jigsaw9_100.txt", "tatham_keen_4to7_96.txt",
          "tatham_unequal_4to7_96.txt", "tatham_solo_sudokux_3x3_100.txt")


def every_kind_text() -> str:
    """An example of every built-in kind, a Sukaku and two puzzles of each Tatham set, blank
    lines between (a Latin square written with its solution: the form read with no --kind)."""
    texts = []
    for name in sorted(EXAMPLES):
        puzzle = example(name)
        if puzzle.kind == "latin":
            texts.append(puzzle.write_with_solution(make_engine("mrv").run(puzzle).solutions[0]))
        elif "\n" not in puzzle.write() and getattr(puzzle, "box_inferred", True):
            texts.append(puzzle.write())
    texts.append(sukaku_line([1 if c == 0 else 0b110000101 if c % 7 == 1 else 0b111111111 for c in range(81)]))
    for name in TATHAM:
        texts += data_lines(name, limit=2)
    return "\n\n".join(texts) + "\n"


@needs_browser
@pytest.mark.slow
@pytest.mark.parametrize("solve", [False, True], ids=["givens", "solved"])
def test_the_gallery_of_every_kind_renders_offline(browser, tmp_path, capsys, solve):
    puzzles = tmp_path / "every-kind.txt"
    puzzles.write_text(every_kind_text())
    page = tmp_path / "gallery.html"
    code, out, err = run(capsys, "show", str(puzzles), "--format", "html", "--out", str(page),
                         *(["--solve"] if solve else []))
    assert (code, out, err) == (0, "", "")
    browser.open(page)
    sizes = browser.driver.execute_script(
        "return Array.from(document.querySelectorAll('svg.puzzle')).map(s => {"
        " const box = s.getBBox(); return [s.dataset.kind, box.width, box.height,"
        " s.querySelectorAll('.given, .solved, .candidates, .clue, .cage').length]; })")
    assert browser.console_errors() == []
    assert {kind for kind, *_ in sizes} == set(KIND_NAMES)
    assert all(width > 100 and height > 100 for _, width, height, _ in sizes), str(sizes)
    assert all(shown > 0 for kind, _, _, shown in sizes if solve or kind != "nqueens"), sizes   # 8 queens: none placed
    solved = browser.driver.execute_script("return document.querySelectorAll('svg.puzzle .solved').length")
    assert (solved > 0) == solve
    height = browser.driver.execute_script("return document.body.scrollHeight")
    browser.driver.set_window_size(1280, height + 40)
    assert browser.screenshot(f"show-gallery-{'solved' if solve else 'givens'}").stat().st_size > 0
