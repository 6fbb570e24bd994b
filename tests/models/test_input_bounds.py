"""The bounds every reader takes from one place (puzzlebench/models/input_bounds.py), for files
and streams alike: what is read whole, a line and a block of puzzle text, and the nesting of a
campaign or rating model.  Endless streams are made as they are read, never held."""

import io
import json

import pytest

from conftest import INKALA
from puzzlebench.errors import ParseError
from puzzlebench.models.input_bounds import MAX_INPUT_BYTES, MAX_LINE_BYTES, MAX_NESTING, check_nesting, read_whole
from puzzlebench.models.reader import _chunks, read_puzzles, text_lines
from puzzlebench.models.sudoku import Sudoku

LONG_LINE = (f"this line is longer than {MAX_LINE_BYTES:,} bytes, more than any puzzle takes (the largest is "
             "a 64x64 grid); not read further")
NESTED = (f"nested more than {MAX_NESTING} deep (arrays and tables inside each other, each dot of a key a level); "
          "no file needs as many")


class EndlessStream:
    """A binary stream of ``unit`` over and over, made as it is read (``/dev/zero``, ``yes``),
    after ``head``; ``given`` counts the bytes it gave."""

    def __init__(self, unit: bytes, head: bytes = b""):
        self.unit, self.pending, self.given = unit, head, 0

    def _take(self, size: int, line: bool) -> bytes:
        assert size > 0, "a read without a bound"
        while len(self.pending) < size:
            self.pending += self.unit * max(1, 2**16 // len(self.unit))
        end = self.pending.find(b"\n", 0, size) + 1 if line else 0
        out, self.pending = self.pending[:end or size], self.pending[end or size:]
        self.given += len(out)
        return out

    def readline(self, size: int = -1) -> bytes:
        return self._take(size, True)

    def read(self, size: int = -1) -> bytes:
        return self._take(size, False)


# -- what is read whole ------------------------------------------------------------------------

@pytest.mark.slow
def test_a_file_read_whole_is_read_to_the_bound_and_no_further():
    assert read_whole(io.BytesIO(b"1" * MAX_INPUT_BYTES), "f") == b"1" * MAX_INPUT_BYTES
    unit = "ééé\n".encode()   # 7 bytes: the bound falls after the first "é" of a line, column 2
    stream = EndlessStream(unit)
    with pytest.raises(ParseError) as info:
        read_whole(stream, "<stdin>")
    line, column = MAX_INPUT_BYTES // len(unit) + 1, 2
    assert MAX_INPUT_BYTES % len(unit) == len("é".encode())
    assert str(info.value) == (f"<stdin>:{line}:{column}: the input is longer than {MAX_INPUT_BYTES:,} bytes "
                               "(256 MiB), the most read as one file; not read further")
    assert stream.given == MAX_INPUT_BYTES + 1


# -- puzzle text: a line, a block --------------------------------------------------------------

@pytest.mark.parametrize("head, bom, column", [(b"", b"", MAX_LINE_BYTES + 1), (b"", b"\xff\xfe", MAX_LINE_BYTES // 2 + 1),
                                               (f"{INKALA}\n".encode(), b"", MAX_LINE_BYTES + 1)])
def test_a_line_without_end_is_one_error_and_the_input_is_read_no_further(head, bom, column):
    """``solve /dev/zero`` never ended and said nothing: NUL bytes and no end of line.  Its
    rest is skipped to 256 MiB, then the input ends, with one error."""
    stream = EndlessStream(b"\0\0", (bom + head.decode().encode("utf-16-le" if bom else "utf-8")))
    items = list(read_puzzles(text_lines(stream), "z"))
    line = 2 if head else 1
    assert [str(item) for item in items[line - 1:]] == [
        f"z:{line}:{column}: {LONG_LINE}, nor the rest of the input (no end of line in 256 MiB)"]
    assert isinstance(items[0], Sudoku) or not head
    assert MAX_INPUT_BYTES < stream.given <= MAX_INPUT_BYTES + 2 * MAX_LINE_BYTES


def test_comments_before_a_block_are_not_held():
    """A stream of comment lines grew without end, every one held for the block to come."""
    lines = iter(["# a comment\n"] * 100_000 + [f"{INKALA}\n"])
    assert max(len(chunk) for _, chunk, _ in _chunks(lines)) == 1
    items = list(read_puzzles(iter(["# a comment\n"] * 100_000 + [f"{INKALA}\n"]), "c"))
    assert len(items) == 1 and items[0].source == "c:100001"


def test_a_cpmpy_instance_ends_with_its_rows():
    """A CPMpy header kept its block open to the next blank line, however long."""
    grid = ["# size=4 box=2x2\n", "1...\n", "....\n", "....\n", "....\n"]
    assert max(len(chunk) for _, chunk, _ in _chunks(iter(grid * 3 + ["1\n"] * 100_000))) == 5
    items = list(read_puzzles(iter(grid * 2 + [f"{INKALA}\n"]), "g"))
    assert [item.source for item in items] == ["g:1", "g:6", "g:11"]


def test_a_block_holding_more_than_the_bound_is_one_error_and_the_end():
    """Comment lines inside a block are held, but not past the bound (one line each, never
    their text); past it, one error where it passed and the input ends."""
    comment = "#" * 99 + "\n"
    stream = EndlessStream(comment.encode(), f"{INKALA[:4]}\n".encode())
    items = list(read_puzzles(text_lines(stream), "b"))
    line, column = divmod(MAX_LINE_BYTES - 4, 99)
    assert [str(item) for item in items] == [
        f"b:{line + 2}:{column + 1}: the lines from line 1 hold more than {MAX_LINE_BYTES:,} bytes with no blank line "
        "between them, more than any puzzle takes (the largest is a 64x64 grid); not read further, nor the rest of "
        "the input"]
    assert stream.given < 2 * MAX_LINE_BYTES


def test_a_csv_quote_left_open_is_one_error_and_the_rows_after_it_are_read():
    text = "puzzle\n\"" + "1" * 200_000 + "\n" + f"{INKALA}\n"
    items = list(read_puzzles(text, "q.csv"))
    assert str(items[0]) == ("q.csv:2: this CSV row does not read: field larger than field limit (131072) "
                             "(a quote left open?)")
    assert isinstance(items[-1], Sudoku) and items[-1].source == "q.csv:3"


# -- nesting --------------------------------------------------------------------------------------

DEEP = 100_000


@pytest.mark.parametrize("text, place", [
    ("x = " + "[" * DEEP + "]" * DEEP, "1:69"),                             # the 65th bracket
    ("x = " + "{a = " * DEEP + "1" + "}" * DEEP, "1:325"),
    ("db." + "a." * DEEP + "a = 1\n", "1:130"),                            # the 65th key part
    ("[" + "a." * 100 + "a]\n", "1:128"),                                  # a table header's name
    ('db = "x"\n[[set]]\n' + "k." * 63 + "k = 1\n", "3:125"),              # under a header's 2 levels
    ("x = [\n" + "[\n" * 64 + "1" + "]" * 65 + "\n", "65:1"),
    ("[\n" * DEEP + "]" * DEEP, "65:1"),                                    # JSON
])
def test_nesting_past_the_bound_is_placed_where_it_passes(text, place):
    with pytest.raises(ParseError) as info:
        check_nesting(text, "f")
    assert str(info.value) == f"f:{place}: {NESTED}"


@pytest.mark.parametrize("text", [
    "x = [\n" + "[\n" * 63 + "1" + "]" * 64 + "\n",                      # at the bound
    'a = "' + "[" * 100 + '"\nb = \'' + "{" * 100 + "'\n",                # in strings
    "# " + "[" * 100 + "\nb = [[1]]\n",                                   # in a comment
    "a = '''\n" + "[" * 100 + "'''\nb = \"\"\"\\\"\"\"[[\"\"\"\n",         # in multi-line strings
    "x = [" + "1.5, " * 1000 + "]\n",
    json.dumps({"a": [1.5, {"b.c": [[2]]}]}, indent=2),
])
def test_nesting_within_the_bound_or_in_strings_and_comments_passes(text):
    check_nesting(text, "f")
