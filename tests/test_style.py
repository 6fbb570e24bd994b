"""The house style of the source's own prose, checked: module docstrings short (what the module
is for and why it is shaped so), C files opened by a short comment, and no comment that tells
the story of a bug that was fixed: a comment says why the code is as it is now (issue 31)."""

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

PACKAGE = next(folder / "puzzlebench" for folder in Path(__file__).resolve().parents
               if (folder / "puzzlebench" / "__init__.py").is_file())   # wherever the tests live
MAX_LINES = 15
PYTHON = sorted(PACKAGE.rglob("*.py"))
C_SOURCES = sorted(p for ext in ("*.c", "*.h") for p in PACKAGE.rglob(ext))

# phrases that narrate the code's history rather than say why it is as it is
NARRATION = [re.compile(p, re.IGNORECASE) for p in (
    r"\bused to (?:be|crash|fail|raise|print|hang|take|give|return|say|count|run)\b",
    r"\bwas an? (?:[\w.]+ )?traceback\b",
    r"\bwere (?:an? )?(?:[\w.]+ )?tracebacks?\b",
    r"\bno longer\b",
    r"\ban earlier .* is gone\b",
    r"\bis gone now\b",
    r"\bbefore this (?:change|commit|fix|patch)\b",
    r"\b(?:fixed|the) bug (?:was|where|that)\b",
    r"\bthe old (?:order|code|version|kernel|rule|way|behaviou?r)\b",
    r"\b(?:previously|formerly|nowadays)\b",
    r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b",
)]


def rel(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def docstrings(tree: ast.AST):
    """``(line, text)`` of the module's, every class's and every function's docstring."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text is not None:
                yield node.body[0].lineno, text


def python_prose(path: Path):
    source = path.read_text()
    yield from docstrings(ast.parse(source))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string


def c_prose(path: Path):
    source = path.read_text()
    for match in re.finditer(r"/\*.*?\*/|//[^\n]*", source, re.DOTALL):
        text = re.sub(r"^\s*\*(?!/)", "", match.group(), flags=re.MULTILINE)   # the margin's stars
        yield source.count("\n", 0, match.start()) + 1, text


def narrations(path: Path, prose) -> list[str]:
    found = []
    for line, text in prose(path):
        flat = " ".join(text.split())     # a phrase may run over a line break
        found += [f"{rel(path)}:{line}: {pattern.search(flat).group()!r}"
                  for pattern in NARRATION if pattern.search(flat)]
    return found


@pytest.mark.parametrize("path", PYTHON, ids=rel)
def test_module_docstring_is_short(path):
    docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
    lines = len(docstring.splitlines())
    assert lines <= MAX_LINES, f"{rel(path)}: module docstring of {lines} lines (at most {MAX_LINES})"


@pytest.mark.parametrize("path", C_SOURCES, ids=rel)
def test_c_file_comment_is_short(path):
    source = path.read_text().lstrip()
    if not source.startswith("/*"):
        return
    lines = source[:source.index("*/")].count("\n") + 1
    assert lines <= MAX_LINES, f"{rel(path)}: opening comment of {lines} lines (at most {MAX_LINES})"


def test_no_comment_narrates_a_fixed_bug():
    found = [hit for path in PYTHON for hit in narrations(path, python_prose)]
    found += [hit for path in C_SOURCES for hit in narrations(path, c_prose)]
    assert not found, "comments that tell a past bug's story (say why the code is so now):\n" + "\n".join(found)


@pytest.mark.parametrize("text", [
    "# os:path was an AttributeError traceback",
    "# it was a traceback, exit 1",
    "/* An earlier array kernel of this file (a hidden-count per option) is gone */",
    "# the engine used to crash here",
    "# fixed on 2025-03-14",
    "# without, the old order: a two-candidate cell first",
])
def test_the_narration_patterns_catch_a_narration(text):
    assert any(pattern.search(text) for pattern in NARRATION)


@pytest.mark.parametrize("text", [
    "# the key used to sort the rows",
    "# the process is not its child any more in multiprocessing's bookkeeping",
    "# the worker is gone (killed): its units are re-run",
    "# values fixed by propagation",
])
def test_the_narration_patterns_spare_plain_prose(text):
    assert not any(pattern.search(text) for pattern in NARRATION)
