"""A real browser for the tests of pages: Debian's Chromium driven by Selenium through Debian's
chromedriver, headless, with the network off (the DevTools protocol's offline emulation, so
a page that fetches anything fails), the page's console collected, and screenshots kept as
test artefacts in ``test-artifacts/`` (or ``$PUZZLEBENCH_ARTIFACTS``).  Selenium's driver
manager would go to the network for a driver: it is pointed at the installed one instead.
Tests skip, saying why, where Selenium, Chromium or its driver is absent."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

PROGRAMS = {   # program: (the environment variable naming another, its Debian package)
    "chromium": ("PUZZLEBENCH_CHROMIUM", "chromium"),
    "chromedriver": ("PUZZLEBENCH_CHROMEDRIVER", "chromium-driver"),
}
ARTIFACTS = Path(os.environ.get("PUZZLEBENCH_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts"))
FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-extensions", "--window-size=1280,900")


def program(name: str) -> str | None:
    """The path of ``chromium`` or ``chromedriver``: the one its variable names, else the one
    on PATH; ``None`` where there is none."""
    variable, _ = PROGRAMS[name]
    return os.environ.get(variable) or shutil.which(name)


def missing_browser() -> str | None:
    """Why no browser test can run here, or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "Selenium is not installed (pip install 'puzzlebench[browser]')"
    for name, (variable, package) in PROGRAMS.items():
        path = program(name)
        if path is None:
            return f"the program {name!r} is not on PATH (Debian package {package}; or set {variable})"
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{path} not found (Debian package {package})"
    return None


needs_browser = pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))


class Browser:
    """One headless Chromium: ``open(path)`` a local file, ``console_errors()``, ``screenshot(name)``;
    ``driver`` is Selenium's WebDriver for the rest."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = program("chromium")
        self.profile = tempfile.mkdtemp(prefix="puzzlebench-chromium-")
        for flag in (*FLAGS, f"--user-data-dir={self.profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(executable_path=program("chromedriver")), options=options)
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})

    def open(self, path: str | Path) -> None:
        self.driver.get(Path(path).resolve().as_uri())

    def console_errors(self) -> list[str]:
        """The console's messages of level SEVERE since the last call (a failed fetch among them)."""
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    """A browser for a test module (started once: about a second), closed at its end."""
    reason = missing_browser()
    if reason:
        pytest.skip(reason)
    chromium = Browser()
    try:
        yield chromium
    finally:
        chromium.close()
