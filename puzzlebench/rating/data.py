"""Reading puzzles, and puzzles with labels, for rating and fitting.

Two layouts, as in ../shared/data: a CSV file with a header line (the puzzle in the column
named ``puzzle``, else the first column), or one record a line with fields separated by
spaces (the puzzle is field 1).  A label column is a header name (CSV) or a 1-based field
number (either layout).  A missing, empty or non-numeric label is an error naming its line
and column, and so is a number no rating or time can be (:data:`LABEL_LIMIT`): ``--labels 2``
on a file whose second field is the solution read 81-digit grids as labels and fitted weights
near 1e80.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass

from ..errors import ParseError, Place, UsageError

LABEL_LIMIT = 1e15
"""The largest label magnitude read: a label is a rating (SE's 1.0-12.0, a few thousand on
other scales) or a time, and 10^15 of the smallest unit used, milliseconds, is 31,700 years.
Past it the field is something else: a Sudoku's solution (16 digits and up) read as a number."""


@dataclass(frozen=True)
class Record:
    line: int
    puzzle: str
    label: float | None = None


def _is_csv(lines: list[str]) -> bool:
    first = next((line for line in lines if line.strip()), "")
    return "," in first and not first.lstrip().startswith("#")


def _column_index(header: list[str], column: str, source: str) -> tuple[int, str]:
    if column.isdigit():
        k = int(column)
        if k < 1:
            raise UsageError(f"--labels {column}: field numbers start at 1")
        return k - 1, f"field {k}"
    if column in header:
        return header.index(column), f"column {column!r}"
    raise ParseError(f"no column {column!r} in the header (columns: {', '.join(header)})", Place(source, 1))


def read_records(text: str, source: str, label_column: str | None = None) -> list[Record]:
    """Every puzzle of a file, with its label when ``label_column`` is given."""
    lines = text.splitlines()
    records = []
    if _is_csv(lines):
        rows = list(csv.reader(io.StringIO(text)))
        header = [h.strip() for h in rows[0]]
        puzzle_at = header.index("puzzle") if "puzzle" in header else 0
        label_at, label_name = (_column_index(header, label_column, source) if label_column
                                else (None, ""))
        for number, row in enumerate(rows[1:], start=2):
            if not row or not "".join(row).strip():
                continue
            starts = _csv_starts(lines[number - 1] if number <= len(lines) else "")
            records.append(Record(number, row[puzzle_at].strip() if puzzle_at < len(row) else "",
                                  _label(row, starts, label_at, label_name, source, number)))
        return records
    if label_column is not None and not label_column.isdigit():
        raise UsageError(f"--labels {label_column!r}: {source} has no header line; "
                         "give the label's 1-based field number")
    label_at, label_name = (_column_index([], label_column, source) if label_column else (None, ""))
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        spans = [m.span() for m in re.finditer(r"\S+", line)]
        fields = [line[a:b] for a, b in spans]
        starts = [a + 1 for a, _ in spans] + [len(line) + 1]
        records.append(Record(number, fields[0], _label(fields, starts, label_at, label_name, source, number)))
    return records


def _csv_starts(raw: str) -> list[int]:
    """The 1-based column where each field of a CSV line starts (a comma inside quotes
    separates nothing), then the column just past the line's end."""
    starts, quoted = [1], False
    for column, char in enumerate(raw, start=1):
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            starts.append(column + 1)
    return starts + [len(raw) + 1]


def _label(fields: list[str], starts: list[int], at: int | None, name: str, source: str,
           line: int) -> float | None:
    """Field ``at`` of a line as a label; ``starts[k]``: the 1-based column where field k
    starts (``starts[len(fields)]``: just past the line's end, where a missing field is)."""
    if at is None:
        return None
    if at >= len(fields):
        raise ParseError(f"label {name} is missing (the line has {len(fields)} fields)",
                         Place(source, line, starts[len(fields)]))
    place = Place(source, line, starts[at])
    text = fields[at].strip()
    if not text:
        raise ParseError(f"label {name} is empty", place)
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ParseError(f"label {_shown(text)} in {name} is not a number", place)
    if abs(value) > LABEL_LIMIT:
        what = (f"{len(text)} digits: a grid, not a rating or a time" if text.isdigit()
                else f"{value:.3g}: no rating or time is that large")
        raise ParseError(f"label {_shown(text)} in {name} is not a plausible label ({what}); "
                         "--labels should name the field of a rating or a time", place)
    return value


def _shown(text: str) -> str:
    """A field quoted in a message, cut to fit one line."""
    return repr(text if len(text) <= 20 else text[:12] + "…" + text[-4:])
