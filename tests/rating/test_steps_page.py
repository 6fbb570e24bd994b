"""``rate --explain --format html``: every step drawn on its grid. The drawings are read back
with ``xml.etree`` and held to the steps (the candidates struck are the step's removals, the
value placed, the arrows its links, strong solid and weak dashed); the page is walked in
Chromium with the slider and the list, offline, its console clean."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

from puzzlebench.cli import main
from puzzlebench.models.sudoku import parse_sudoku_line
from puzzlebench.rating.profile import se_ladder

from browser import browser, needs_browser  # noqa: F401 (the fixture)
from conftest import data_lines

SVG = "{http://www.w3.org/2000/svg}"
CHAINS = "...9...72..9..5.3.......5.47..69.2......5......2.41..82.7.......1.8..7..65...4..."  # SE 8.7
CYCLE = "8.......3...2..6..1.4.9..8....3...6861.....7938...5....5..7.8.4..6..1...4.......6"   # SE 6.8


def hardest() -> str:
    """The first of the forum's hardest, or a skip where the public sets are absent."""
    return data_lines("sudoku9_forum_hardest_1905_11plus.txt", limit=1)[0].split()[0]


def drawings(page: str) -> list[list[ET.Element]]:
    """Per puzzle section, the SVG of each step, parsed."""
    out = []
    for section in re.findall(r'<section class="rated".*?</section>', page, re.S):
        out.append([ET.fromstring(svg) for svg in re.findall(r'<template class="step">(<svg.*?</svg>)', section, re.S)])
    return out


def marks(svg: ET.Element, cls: str) -> set[tuple[str, int]]:
    return {(e.get("data-cell"), int(e.get("data-value"))) for e in svg.iter() if e.get("class") == cls}


def name(cell: int) -> str:
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def test_each_step_is_drawn_as_it_is(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{CHAINS}\n{CYCLE}\n")
    out = tmp_path / "steps.html"
    assert main(["rate", str(puzzles), "--explain", "--format", "html", "--out", str(out)]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {out}\n2 puzzles: 2 unique")
    page = out.read_text()
    kinds = Counter()
    for line, svgs in zip((CHAINS, CYCLE), drawings(page)):
        p = parse_sudoku_line(line)
        steps = se_ladder(p.box, p.givens, seconds=None).steps
        assert len(svgs) == len(steps)
        for step, svg in zip(steps, svgs):
            assert marks(svg, "struck") == {(name(c), v) for c, v in step.eliminations}, step.text
            assert marks(svg, "placed") == {(name(c), v) for c, v in step.placements}, step.text
            assert marks(svg, "ring") == {(name(c), v) for c, v in step.candidates}, step.text
            links = [e for e in svg.iter() if (e.get("class") or "").startswith("link ")]
            assert [e.get("class") for e in links] == [f"link {kind}" for *_, kind in step.links]
            for e in links:  # weak links dashed, strong ones solid
                assert (e[0].get("stroke-dasharray") is not None) == (e.get("class") == "link weak")
            shaded = {e.get("class") for e in svg.iter() if e.get("class") in ("unit", "pattern-cell")}
            assert ("unit" in shaded) == bool(step.units) and ("pattern-cell" in shaded) == bool(step.cells)
            kinds.update(k for *_, k in step.links)
        assert f"SE {max(s.rating for s in steps):.1f}" in page
    assert kinds["strong"] and kinds["weak"]


def test_names_and_errors_appear_as_text(tmp_path, capsys):
    puzzles = tmp_path / "<b>&amp;.txt"
    puzzles.write_text(f"{CYCLE}\n<script>alert(1)</script>\n")
    out = tmp_path / "steps.html"
    assert main(["rate", str(puzzles), "--format", "html", "--out", str(out)]) == 1
    page = out.read_text()
    assert "<script>alert" not in page and "<b>&amp;" not in page
    assert "&lt;b&gt;&amp;amp;.txt:2:1: error: unexpected character &#x27;&lt;&#x27;" in page
    assert page.count("<script>") == 1   # the page's own
    assert "error" in capsys.readouterr().err


def test_bad_html_options_are_one_line_errors(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{CYCLE}\n")
    assert main(["rate", str(puzzles), "--format", "html", "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"puzzlebench: error: --out {tmp_path}: cannot write there: Is a directory\n"
    assert main(["rate", str(puzzles), "--out", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err == "puzzlebench: error: rate: --out goes with --fit or --format html\n"
    assert not (tmp_path / "x.html").exists()


def test_without_out_the_page_goes_to_stdout(tmp_path, capsys):
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{CYCLE}\n")
    assert main(["rate", str(puzzles), "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.startswith("<!doctype html>") and page.rstrip().endswith("</html>")
    assert len(drawings(page)[0]) > 30


def rated_page(tmp_path, line: str, seconds: str) -> str:
    puzzles = tmp_path / f"{line[:8]}.txt"
    puzzles.write_text(f"{line}\n")
    out = tmp_path / f"{line[:8]}.html"
    assert main(["rate", str(puzzles), "--explain", "--format", "html", "--out", str(out),
                 "--time-limit", seconds]) == 0
    return out


@needs_browser
def test_the_steps_page_walks_in_a_browser(browser, tmp_path):
    p = parse_sudoku_line(CHAINS)
    steps = se_ladder(p.box, p.givens, seconds=None).steps
    browser.open(rated_page(tmp_path, CHAINS, "0"))
    section = browser.driver.find_element("css selector", "section.rated")
    assert section.find_element("css selector", ".count").text == f"step 1 of {len(steps)}"

    def struck() -> set[tuple[str, int]]:
        return {(e.get_attribute("data-cell"), int(e.get_attribute("data-value")))
                for e in section.find_elements("css selector", ".board svg g.struck")}

    chain = next(i for i, s in enumerate(steps) if s.technique == "dynamic forcing chain")
    # the list: a click on a step shows it
    section.find_elements("css selector", ".steps li button")[chain].click()
    assert struck() == {(name(c), v) for c, v in steps[chain].eliminations}
    assert len(section.find_elements("css selector", ".board svg g.link")) == len(steps[chain].links)
    assert section.find_element("css selector", ".steps li.current").text.startswith("[8.7] dynamic forcing chain")
    browser.screenshot("rate-steps-chain")
    # the slider: moved with the keyboard, one step each way
    slider = section.find_element("css selector", ".slider")
    slider.send_keys("\ue014")   # the right arrow key
    assert section.find_element("css selector", ".count").text == f"step {chain + 2} of {len(steps)}"
    assert struck() == {(name(c), v) for c, v in steps[chain + 1].eliminations}
    for _ in range(3):
        slider.send_keys("\ue012")   # the left arrow key
    assert struck() == {(name(c), v) for c, v in steps[chain - 2].eliminations}
    assert browser.console_errors() == []


@needs_browser
def test_the_hardest_puzzle_page_walks_in_a_browser(browser, tmp_path):
    """One of the forum's hardest (SE 11+): past SE's ladder, its steps are the human ladder's
    with its guesses; walked with the next button."""
    browser.open(rated_page(tmp_path, hardest(), "0.5"))
    section = browser.driver.find_element("css selector", "section.rated")
    count = section.find_element("css selector", ".count")
    total = int(count.text.split()[-1])
    for i in range(2, 8):
        section.find_element("css selector", ".next").click()
        assert count.text == f"step {i} of {total}"
        shown = section.find_element("css selector", ".board figcaption .words").text
        assert section.find_element("css selector", ".steps li.current").text.endswith(shown)
    assert browser.console_errors() == []
    assert browser.screenshot("rate-steps-hardest").stat().st_size > 0
