"""A set is what it holds: its identity in the database is the digest of its puzzles (their
lines and hashes in order, and the seed they were scrambled with), not its file's name.

A bench's records come named by their file (``puzzles.txt``); here each file's records are
matched with the stored set of the same digest, or stored as a new set under a readable name
that no other set has: the file's name with what was done to it (``puzzles.txt (scrambled,
seed 1)``), its folder when another file of that name is stored (``d2/puzzles.txt``), its
digest's first characters when the file itself changed since it was stored
(``puzzles.txt@1a2b3c4d``).  The records are renamed to their set's name.  A changed file's
unchanged puzzles keep their stored results in the new set (copied; the earlier set keeps
its own): two contents are never one set, so no table counts the puzzles of both.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import UsageError
from ..models.reader import Record
from .database import Database, StoredSet, set_digest


@dataclass(frozen=True)
class SetOrigin:
    """Where a set's records come from: the file (``None``: puzzles made in memory), the
    sample taken of it (``None``: every record) and whether they were scrambled, with the seed
    of either."""

    path: str | None = None
    sample: int | None = None
    seed: int | None = None
    scrambled: bool = False

    def base(self, name: str) -> str:
        """The set's readable name before any disambiguation."""
        done = ([f"sample {self.sample}"] if self.sample is not None else []) + (["scrambled"] if self.scrambled else [])
        return f"{name} ({', '.join(done)}, seed {self.seed})" if done else name


def file_origin(path: str, sampled: int | None, seed: int | None, scrambled: bool) -> SetOrigin:
    """The origin of a file's records (``-``: standard input, no file); ``sampled`` the
    sample's size when it left some records out."""
    return SetOrigin(None if path == "-" else str(Path(path).resolve()), sampled, seed, scrambled)


def identify_sets(items: list[Record], origins: dict[str, SetOrigin], db: Database, stderr: TextIO) -> None:
    """Each set of ``items`` (by its file's name) matched with its stored set or stored as a
    new one, its records renamed to the set's name; a changed file, or another file of a
    stored set's name, said in one line on ``stderr``.  Two files of one content in one bench
    are refused (their rows would be one set's, each pair stored twice)."""
    groups: dict[str, list[Record]] = {}
    for item in items:
        groups.setdefault(item.set_name, []).append(item)
    digests: dict[str, str] = {}
    for name, records in groups.items():
        origin = origins.get(name, SetOrigin())
        digest = set_digest(((r.line, r.puzzle_hash) for r in records), origin.seed if origin.scrambled else None)
        same = next((other for other, known in digests.items() if known == digest), None)
        if same is not None:
            raise UsageError(f"{origins.get(same, SetOrigin()).path or same} and {origin.path or name} hold the "
                             "same puzzles (one set): bench one of them")
        digests[name] = digest
    for name, records in groups.items():
        found = _identify(name, digests[name], records, origins.get(name, SetOrigin()), db, stderr)
        for item in records:
            item.set_name = found.name


def _identify(name: str, digest: str, records: list[Record], origin: SetOrigin, db: Database,
              stderr: TextIO) -> StoredSet:
    stored = db.stored_sets()
    for found in stored:
        if found.digest == digest:
            return found
    base = origin.base(name)
    # the latest set read from this file (or stored before sets had one) the same way
    earlier = [s for s in stored if (s.base or s.name) == base and s.source in (origin.path, None)]
    taken = {s.name for s in stored}
    if earlier:
        candidates = [base, f"{base}@{digest[:8]}"]
    else:
        candidates = [base, *_by_folder(name, origin), f"{base}@{digest[:8]}"]
    chosen = next(c for c in candidates if c not in taken)
    puzzles = sum(1 for r in records if r.puzzle is not None)
    new = db.add_set(chosen, digest, base, origin.path, puzzles)
    shown = origin.path or name
    if earlier:
        before = earlier[-1]
        lines_of: dict[str, list[int]] = {}
        for r in records:
            if r.puzzle is not None:
                lines_of.setdefault(r.puzzle_hash, []).append(r.line)
        kept = db.copy_results(before.id, new.id, lines_of)
        print(f"puzzlebench: {shown} changed since its results were stored as the set {before.name}: "
              f"{puzzles - kept} of its {puzzles} puzzles are new; it is the new set {chosen}, where its {kept} "
              f"unchanged puzzles keep their results ({before.name} keeps its own)", file=stderr)
    elif chosen != base:
        print(f"puzzlebench: {shown} is another file than the stored set {base}: its puzzles are the set {chosen}",
              file=stderr)
    return new


def _by_folder(name: str, origin: SetOrigin) -> list[str]:
    """Readable names of a file that another file of its name has been stored before:
    its folder's name before it, then more of its path."""
    if origin.path is None:
        return []
    parents = Path(origin.path).parent.parts[::-1]
    return [origin.base("/".join([*reversed(parents[:k]), name])) for k in range(1, len(parents))]

