"""Every example of the README and of the documentation pages runs as written.

A shell example is a ```console block: a line starting with ``$ `` is a command (one ending in
``\\`` goes on at the next line, and ``> `` lines are its here-document), any other line is
output, not compared (times differ from run to run).  A command exits 0, or with the code the
block shows after it as ``$ echo $?`` and the number.  Each block runs alone in bash, in a
folder of its own holding a copy of the repository files it names, with this repository's
``puzzlebench`` first on PATH, so a block works from a fresh clone as written.  A Python
example is a ```pycon block, run as a doctest in such a folder.

What a block needs that a machine may lack is read from its text, and the block is skipped
saying why: a program other than puzzlebench and the shell's tools, an ``ext:`` preset, a
public data set in ``../shared/data``, a Python extra.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import DATA, REPO, data_file, needs_program, needs_preset

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
# programs every machine with bash has, or that come with puzzlebench's environment
SHELL_TOOLS = {"puzzlebench", "python", "cd", "echo", "cat", "head", "tail", "wc", "cut", "ls",
               "grep", "sort", "mkdir", "rm", "cp", "test", "printf", "sed", "true", "false"}
DEBIAN_PACKAGES = {"java": "default-jre-headless"}
# what a command's text asks of Python: (a fragment of the text, the module it needs)
PYTHON_EXTRAS = [("--executor dask", "distributed"), ("cpmpy:", "cpmpy"), ("pycsp3", "pycsp3"),
                 ("parquet", "pyarrow"), ("load_results", "pandas")]
BLOCK_TIMEOUT = 60   # seconds: a hang guard, far above any block's time


@dataclass
class Command:
    line: int            # where it starts in its page, 1-based
    text: str            # as bash reads it (continuation and here-document lines joined)
    exit_code: int = 0


@dataclass
class Example:
    page: Path
    line: int            # the fence's line, 1-based
    language: str        # console or pycon
    lines: list[str]
    commands: list[Command] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def fenced_blocks(page: Path) -> list[Example]:
    """The ```console and ```pycon blocks of a page, in order."""
    blocks, current = [], None
    for number, line in enumerate(page.read_text().splitlines(), 1):
        match = FENCE.match(line.strip())
        if current is None and match and match.group(1) in ("console", "pycon"):
            current = Example(page, number, match.group(1), [])
        elif current is not None and line.strip() == "```":
            blocks.append(current)
            current = None
        elif current is not None:
            current.lines.append(line)
    assert current is None, f"{page.name}:{current.line}: a block with no closing fence"
    return blocks


def commands_of(example: Example) -> list[Command]:
    """The block's commands with the exit code each must give."""
    commands: list[Command] = []
    lines = example.lines
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        if not line.startswith("$ "):
            k += 1
            continue
        start, parts = k, [line[2:]]
        while parts[-1].endswith("\\") and k + 1 < len(lines):
            k += 1
            parts.append(lines[k].strip())
        while k + 1 < len(lines) and lines[k + 1].strip().startswith(">"):
            k += 1
            parts.append(lines[k].strip()[2:])
        text = "\n".join(parts)
        if text == "echo $?":
            assert commands, f"{example.name}: 'echo $?' with no command before it"
            commands[-1].exit_code = int(lines[k + 1].strip())
            k += 2
            continue
        commands.append(Command(example.line + 1 + start, text))
        k += 1
    return commands


def programs_of(text: str) -> set[str]:
    """The programs a command line starts: the first word of each pipeline stage."""
    found = set()
    for stage in re.split(r"\|\|?|&&|;|\n|\$\(", text):
        words = stage.strip().lstrip("(").split()
        while words and "=" in words[0]:   # VAR=value before the program
            words.pop(0)
        if words and re.fullmatch(r"\w[\w.+-]*", words[0]):
            found.add(words[0])
    return found


def skip_what_is_absent(example: Example) -> None:
    """Skip, saying why, where the block needs what this machine lacks."""
    text = "\n".join(c.text for c in example.commands) if example.language == "console" \
        else "\n".join(example.lines)
    if example.language == "console":
        for command in example.commands:
            for program in sorted(programs_of(command.text.split("\n")[0]) - SHELL_TOOLS):
                needs_program(program, DEBIAN_PACKAGES.get(program))
    for preset in sorted(set(re.findall(r"ext:([\w+.-]+)", text))):
        needs_preset(preset)
    for name in sorted(set(re.findall(r"\.\./shared/data/([\w.-]+)", text))):
        data_file(name)
    for fragment, module in PYTHON_EXTRAS:
        if fragment in text:
            pytest.importorskip(module, reason=f"{module} is not installed (an extra)")


def repository_paths(text: str) -> list[str]:
    """The words of ``text`` that name a file or folder of the repository by a relative path
    with a slash (``benchmarks/campaigns/paradigms.toml``, ``docs/``): a bare word is a program or a file the
    block makes."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        words = text.split()
    found = []
    for word in words:
        word = word.split("=", 1)[-1]
        if "/" in word and not word.startswith(("/", "-", "..")) and (REPO / word).exists():
            found.append(word.rstrip("/"))
    return found


def workspace(tmp_path: Path, example: Example) -> Path:
    """A folder laid out as a fresh clone's for the block: the repository files it names,
    copied, and ``../shared`` beside it where the public data sets are."""
    clone = tmp_path / "clone"
    clone.mkdir()
    text = "\n".join(example.lines)
    for relative in repository_paths(text.replace("$ ", " ").replace(">>>", " ")):
        source, target = REPO / relative, clone / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=True)
        else:
            shutil.copy2(source, target)
    if DATA.parent.exists():
        (tmp_path / "shared").symlink_to(DATA.parent)
    return clone


def environment() -> dict[str, str]:
    """This repository's puzzlebench, first on PATH and first on the module path."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    return env


def script_of(example: Example) -> str:
    """The block as a bash script that stops at the first command with another exit code,
    naming it."""
    out = []
    for command in example.commands:
        first = command.text.split("\n")[0]
        out.append(command.text)
        out.append(f'rc=$?; if [ "$rc" != {command.exit_code} ]; then '
                   f'echo {shlex.quote(f"{example.page.name}:{command.line}: ")}"exit $rc, expected '
                   f'{command.exit_code}: "{shlex.quote(first)} >&2; exit 99; fi')
    return "\n".join(out) + "\n"


def run_console(example: Example, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script_of(example)], cwd=cwd, env=environment(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=BLOCK_TIMEOUT)


def run_pycon(example: Example, cwd: Path) -> str:
    """The doctest's report of the block's failures ('' when every example gives its output)."""
    code = ("import doctest, sys\n"
            "text = sys.stdin.read()\n"
            "test = doctest.DocTestParser().get_doctest(text, {}, 'example', 'example', 0)\n"
            "runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)\n"
            "runner.run(test)\n"
            "sys.exit(1 if runner.failures else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], input="\n".join(example.lines) + "\n",
                          cwd=cwd, env=environment(), capture_output=True, text=True,
                          timeout=BLOCK_TIMEOUT)
    return "" if done.returncode == 0 else done.stdout + done.stderr


def all_examples() -> list[Example]:
    examples = []
    for page in PAGES:
        for example in fenced_blocks(page):
            if example.language == "console":
                example.commands = commands_of(example)
            examples.append(example)
    return examples


EXAMPLES = all_examples()


@pytest.mark.slow
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_example_runs_as_written(example, tmp_path):
    skip_what_is_absent(example)
    cwd = workspace(tmp_path, example)
    if example.language == "pycon":
        assert run_pycon(example, cwd) == ""
        return
    done = run_console(example, cwd)
    assert done.returncode == 0, done.stderr[-3000:]


def test_every_page_with_commands_has_examples():
    """A page that shows a command outside a tested block would escape the test: every
    ``$ puzzlebench`` line of a page is inside a ```console block."""
    for page in PAGES:
        inside = {c.line for e in fenced_blocks(page) if e.language == "console"
                  for c in commands_of(e)}
        shown = [n for n, line in enumerate(page.read_text().splitlines(), 1)
                 if line.strip().startswith("$ puzzlebench")]
        assert [n for n in shown if n not in inside] == [], page.name


def test_commands_and_their_exit_codes_are_read(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n```console\n$ puzzlebench solve \\\n    --example list\nsome output\n"
                    "$ cat > a.txt <<'EOF'\n> 4\n> EOF\n$ puzzlebench solve-cnf p.cnf\n"
                    "s SATISFIABLE\n$ echo $?\n10\n```\n")
    [example] = fenced_blocks(page)
    assert [(c.line, c.text, c.exit_code) for c in commands_of(example)] == [
        (3, "puzzlebench solve \\\n--example list", 0),
        (6, "cat > a.txt <<'EOF'\n4\nEOF", 0),
        (9, "puzzlebench solve-cnf p.cnf", 10)]


def test_the_programs_a_command_starts_are_seen():
    assert programs_of("cadical p.cnf > out.txt; puzzlebench decode --cnf p.cnf") == {
        "cadical", "puzzlebench"}
    assert programs_of("PATH=/x minizinc --solver gecode p.mzn | head -1") == {"minizinc", "head"}
    assert programs_of("java -jar ACE.jar p.xml && echo done") == {"java", "echo"}
    assert programs_of('ACE=$(python -c "import x; print(1)")') == {"python"}


@pytest.mark.slow
def test_a_failing_command_fails_its_block(tmp_path):
    """The check can fail: a wrong exit code, or a command that is not there, names the line."""
    page = tmp_path / "page.md"
    page.write_text("```console\n$ puzzlebench solve --example list\n"
                    "$ puzzlebench solve no-such-file.txt\n```\n"
                    "```console\n$ puzzlebench solve no-such-file.txt\n$ echo $?\n2\n"
                    "$ puzzlebench solve --example 8-queens\n$ echo $?\n1\n```\n")
    wrong_file, wrong_code = fenced_blocks(page)
    for example in (wrong_file, wrong_code):
        example.commands = commands_of(example)
    done = run_console(wrong_file, tmp_path)
    assert done.returncode == 99
    assert done.stderr.endswith("page.md:3: exit 2, expected 0: puzzlebench solve no-such-file.txt\n")
    done = run_console(wrong_code, tmp_path)
    assert done.returncode == 99
    assert done.stderr.endswith("page.md:9: exit 0, expected 1: puzzlebench solve --example 8-queens\n")


def test_a_wrong_python_output_fails_its_block(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n")
    [example] = fenced_blocks(page)
    assert "Expected:\n    3\nGot:\n    2" in run_pycon(example, tmp_path)


def test_the_files_a_block_names_are_copied(tmp_path):
    example = Example(REPO / "README.md", 1, "console",
                      ["$ puzzlebench solve benchmarks/campaigns/paradigms.toml docs/ no/such.txt -o out.txt"])
    clone = workspace(tmp_path, example)
    assert sorted(str(p.relative_to(clone)) for p in clone.rglob("*") if p.is_file()) == sorted(
        ["benchmarks/campaigns/paradigms.toml", *(str(p.relative_to(REPO)) for p in (REPO / "docs").rglob("*")
                                    if p.is_file())])
