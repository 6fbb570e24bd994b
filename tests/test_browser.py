"""The browser the tests of pages use (tests/browser.py) is offline and tells what a page did
wrong: a fetch fails and is reported on the console, as a script's own error is."""

from browser import browser, needs_browser  # noqa: F401 (the fixture)


@needs_browser
def test_the_browser_is_offline_and_reports_the_console(browser, tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<!doctype html><title>t</title><h1 id=title>puzzlebench</h1>"
                    "<script>console.error('own error')</script>"
                    "<img src='http://example.com/picture.png'>", encoding="utf-8")
    browser.open(page)
    assert browser.driver.find_element("id", "title").text == "puzzlebench"
    errors = browser.console_errors()
    assert any("own error" in e for e in errors), errors
    assert any("example.com/picture.png" in e and "ERR_INTERNET_DISCONNECTED" in e for e in errors), errors
    assert browser.screenshot("browser-probe").stat().st_size > 0
