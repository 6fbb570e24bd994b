"""The bounds every reader takes from one place (puzzlebench/models/input_bounds.py), for files
and streams alike.  Endless streams are made as they are read, never held."""

import io

import pytest

from puzzlebench.errors import ParseError
from puzzlebench.models.input_bounds import MAX_INPUT_BYTES, read_whole


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
