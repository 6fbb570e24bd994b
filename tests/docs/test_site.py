"""The README stays a first page and the documentation site stays whole: the site builds with
no warning, its API reference covers the public names, every page is in its navigation, and the
table of kinds and engines says what the engines declare."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import REPO, run

import puzzlebench

README = REPO / "README.md"
MKDOCS = REPO / "mkdocs.yml"
API_PAGE = REPO / "docs" / "api.md"
README_MAX_WORDS = 1500
FIRST_LINES = 60
# the table's columns, as the kinds' registry names them
KIND_COLUMNS = {"Sudoku": "sudoku", "Sudoku-X": "sudoku-x", "jigsaw": "jigsaw", "Latin": "latin",
                "N-Queens": "nqueens", "Skyscrapers": "skyscrapers", "Futoshiki": "futoshiki",
                "KenKen": "kenken", "Killer": "killer"}


def fenced_lines(text: str) -> list[tuple[int, str]]:
    """The lines inside fenced blocks, with their line numbers."""
    found, inside = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            inside = not inside
        elif inside:
            found.append((number, line.strip()))
    return found


def ci_commands() -> set[str]:
    return {line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()}


def test_the_readme_is_at_most_1500_words():
    words = len(README.read_text().split())
    assert words <= README_MAX_WORDS, f"README.md has {words} words; move detail to a page in docs/"


@pytest.mark.parametrize("command", ['pip install -e ".[dev]"', "python -m pytest -q -n 2"])
def test_the_readme_shows_what_ci_runs_within_its_first_60_lines(command):
    assert command in ci_commands(), f".ci/run no longer runs {command!r}"
    places = [n for n, line in fenced_lines(README.read_text()) if line == command]
    assert places and places[0] <= FIRST_LINES, f"README.md: {command!r} at lines {places}"


def test_the_api_reference_covers_every_public_name():
    text = API_PAGE.read_text()
    shown = re.findall(r"^::: (\S+)$", text, flags=re.M)
    public = {*puzzlebench.__all__, "encode"}
    assert sorted(public - {s.removeprefix("puzzlebench.") for s in shown}) == []
    assert [s for s in shown if not re.fullmatch(r"puzzlebench\.\w+", s)] == [], \
        "the reference names only top-level names, which stay where modules move"


def test_every_page_is_in_the_navigation():
    nav = MKDOCS.read_text()
    pages = sorted(p.name for p in (REPO / "docs").glob("*.md"))
    assert [p for p in pages if f": {p}" not in nav] == []


def test_every_page_the_readme_links_exists():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text())
    assert links and [link for link in links if "://" not in link and not (REPO / link).exists()] == []


def table_of(path) -> dict[str, set[str]]:
    """The kinds the table of a page gives each engine family: {family: {kind, ...}}."""
    rows = [line for line in path.read_text().splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert header[:2] == ["engine", "paradigm"], f"{path.name}: the table's header moved"
    kinds = [KIND_COLUMNS[name] for name in header[2:]]
    table = {}
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if set(cells[0]) <= set("-:"):
            continue
        families = families_in(cells[0])
        taken = {kind for kind, mark in zip(kinds, cells[2:]) if mark == "✓"}
        for family in families:
            table[family] = taken
    return table


def families_in(cell: str) -> set[str]:
    """The engine families a cell names: `dlx`, `dlx-py` are two; in `quine:h0`, `h1`, `h2`
    the bare words after a family's spec are its variants."""
    families, variants_follow = set(), False
    for spec in re.findall(r"`([^`]+)`", cell):
        if ":" in spec:
            families.add(spec.split(":")[0])
            variants_follow = True
        elif not variants_follow:
            families.add(spec)
    return families


def declared_kinds(capsys) -> dict[str, set[str]]:
    code, out, _ = run(capsys, "solvers", "--format", "jsonl")
    assert code == 0
    return {row["solver"]: set(row["kinds"]) for row in map(json.loads, out.splitlines())}


@pytest.mark.slow   # the first listing of the engines loads every engine's library
@pytest.mark.parametrize("page", ["README.md", "docs/engines.md"])
def test_the_table_of_kinds_is_what_the_engines_declare(page, capsys):
    assert table_of(REPO / page) == declared_kinds(capsys)


@pytest.mark.slow
def test_a_wrong_table_is_seen(tmp_path, capsys):
    text = README.read_text().replace("| `human` | human techniques | ✓ | – |",
                                      "| `human` | human techniques | ✓ | ✓ |")
    (tmp_path / "README.md").write_text(text)
    table = table_of(tmp_path / "README.md")
    assert table != declared_kinds(capsys) and "sudoku-x" in table["human"]


@pytest.mark.slow
def test_the_site_builds_with_no_warning(tmp_path):
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason=f"{module} is not installed (the docs extra)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p),
           "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr[-3000:]
    reference = (tmp_path / "site" / "api" / "index.html").read_text()
    missing = [name for name in [*puzzlebench.__all__, "encode"] if f'id="puzzlebench.{name}"' not in reference]
    assert missing == []
