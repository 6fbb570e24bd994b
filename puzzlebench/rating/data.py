"""Reading puzzles, and puzzles with labels, for rating and fitting.

Two layouts, as in ../shared/data: a CSV file with a header line (the puzzle in the column
named ``puzzle``, else the first column), or one record a line with fields separated by
spaces (the puzzle is field 1).  A label column is a header name (CSV) or a 1-based field
number (either layout).  A missing, empty or non-numeric label is an error naming the line.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from ..errors import ParseError, Place, UsageError


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
            records.append(Record(number, row[puzzle_at].strip() if puzzle_at < len(row) else "",
                                  _label(row, label_at, label_name, source, number)))
        return records
    if label_column is not None and not label_column.isdigit():
        raise UsageError(f"--labels {label_column!r}: {source} has no header line; "
                         "give the label's 1-based field number")
    label_at, label_name = (_column_index([], label_column, source) if label_column else (None, ""))
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split()
        records.append(Record(number, fields[0], _label(fields, label_at, label_name, source, number)))
    return records


def _label(fields: list[str], at: int | None, name: str, source: str, line: int) -> float | None:
    if at is None:
        return None
    if at >= len(fields):
        raise ParseError(f"label {name} is missing (the line has {len(fields)} fields)", Place(source, line))
    text = fields[at].strip()
    if not text:
        raise ParseError(f"label {name} is empty", Place(source, line))
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ParseError(f"label {text!r} in {name} is not a number", Place(source, line))
    return value
