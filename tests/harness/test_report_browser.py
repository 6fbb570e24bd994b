"""The HTML report in a real, offline Chromium: it opens from ``file://`` with no console
error (so no network request: the browser is offline), its tables sort and filter, and a
puzzle's page shows its drawing and every solver's record.  Screenshots are kept."""

from __future__ import annotations

import pytest

from browser import browser, needs_browser  # noqa: F401 (the fixture)
from puzzlebench.cli import main
from report_db import SOLVERS, WEIRD_SET, make_report_db

pytestmark = needs_browser


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("page")
    db = make_report_db(folder)
    assert main(["report", "--db", str(db), "--format", "html", "--out", str(folder / "out")]) == 0
    return folder / "out" / "index.html"


def numbers(cells) -> list[float]:
    return [float(c.get_attribute("data-v")) for c in cells if c.get_attribute("data-v") != ""]


def test_the_report_opens_offline_sorts_filters_and_opens_a_puzzle(browser, page):
    driver = browser.driver
    browser.open(page)
    assert browser.console_errors() == []
    section = driver.find_element("id", "set-0")
    assert section.find_element("tag name", "h2").text == WEIRD_SET   # shown as text, never run
    summary = section.find_element("css selector", "table.summary")
    header = summary.find_element("css selector", "th[data-key=median]")
    header.click()
    column = [th.get_attribute("data-key") for th in summary.find_elements("css selector", "th")].index("median")
    times = numbers(summary.find_elements("css selector", f"tbody td:nth-child({column + 1})"))
    assert len(times) >= 2 and times == sorted(times)
    header.click()
    times = numbers(summary.find_elements("css selector", f"tbody td:nth-child({column + 1})"))
    assert times == sorted(times, reverse=True)
    section.find_element("css selector", ".filters input[value=bitboard]").click()   # leave bitboard out
    shown = [row.get_attribute("data-solver") for row in summary.find_elements("css selector", "tbody tr")
             if row.is_displayed()]
    assert "bitboard" not in shown and "mrv" in shown
    browser.screenshot("report-html-index")

    driver.execute_script("location.hash = '#puzzles'")
    puzzles = driver.find_element("id", "ptable")
    heads = [th.text for th in puzzles.find_elements("css selector", "thead th")]
    assert heads[:3] == ["set", "line", "kind"] and all(f"{s} status" in heads for s in SOLVERS.split(","))
    puzzles.find_element("xpath", ".//th[text()='mrv ms']").click()
    at = heads.index("mrv ms") + 1
    times = [c.text for c in puzzles.find_elements("css selector", f"tbody td:nth-child({at})")]
    solved = [float(t) for t in times if t != "-"]
    assert solved == sorted(solved) and times[:len(solved)] == [c for c in times if c != "-"]
    driver.find_element("css selector", "#quick option[value='2']").click()   # timeouts only
    rows = puzzles.find_elements("css selector", "tbody tr")
    assert rows and all("timeout" in row.text for row in rows)
    rows[0].click()
    drawn = driver.find_element("id", "pdraw")
    assert drawn.find_elements("tag name", "svg") or drawn.find_elements("tag name", "pre")
    records = driver.find_element("css selector", "#precords table.records")
    assert [th.text for th in records.find_elements("css selector", "thead th")][1:] != []
    assert "t_total" in records.text and "status" in records.text
    assert browser.console_errors() == []
    browser.screenshot("report-html-puzzle")
