"""``puzzlebench db``: what a results database holds, and its sets kept in order.

``db list DB`` lists its runs and its sets (a set is its puzzles' content: the digest shown
is its identity, the name a readable label); ``db rm-set DB NAME`` removes a set and every
result of it; ``db rename-set DB OLD NEW`` gives a set another name.
"""

from __future__ import annotations

from ..harness.database import BenchLock, Database, ResultsReader, refused_as
from .common import EXIT_OK


def cmd_db_list(args) -> int:
    reader = ResultsReader(args.db)
    try:
        runs, sets = reader.run_listing(), reader.set_listing()
    finally:
        reader.close()
    print("runs")
    print(_table(["id", "started", "finished", "results", "command"],
                 [[r["id"], r["started"], r["finished"] or "-", r["results"], r["command"] or ""] for r in runs]))
    print("sets")
    print(_table(["id", "name", "puzzles", "digest", "runs"],
                 [[s["id"], s["name"], "-" if s["puzzles"] is None else s["puzzles"],
                   (s["digest"] or "-")[:12], s["runs"]] for s in sets]))
    return EXIT_OK


def _table(header: list[str], rows: list[list]) -> str:
    """Columns padded to their widest cell, numbers to the right; the last column as it is."""
    cells = [header] + [[str(v) for v in row] for row in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(len(header))]
    right = [bool(rows) and all(isinstance(row[k], int) for row in rows) for k in range(len(header))]
    lines = []
    for row in cells:
        padded = [c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row[:-1], widths, right)]
        lines.append("  ".join([*padded, row[-1]]).rstrip())
    return "\n".join(lines)


def _writable(path: str) -> tuple[Database, BenchLock]:
    """A database that exists and is puzzlebench's, opened to be written while no bench is."""
    ResultsReader(path).close()   # refuses a missing file, another program's, a damaged one
    lock = BenchLock(path)
    try:
        return Database(path), lock
    except BaseException:
        lock.release()
        raise


def cmd_db_rm_set(args) -> int:
    db, lock = _writable(args.db)
    try:
        with refused_as(f"cannot write {args.db}"):
            removed = db.remove_set(args.name)
    finally:
        db.close()
        lock.release()
    print(f"removed the set {args.name} ({removed} result{'' if removed == 1 else 's'}) from {args.db}")
    return EXIT_OK


def cmd_db_rename_set(args) -> int:
    db, lock = _writable(args.db)
    try:
        with refused_as(f"cannot write {args.db}"):
            db.rename_set(args.old, args.new)
    finally:
        db.close()
        lock.release()
    print(f"renamed the set {args.old} to {args.new} in {args.db}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("db", help="list a results database's runs and sets, remove or rename a set")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True, parser_class=type(p))
    a = actions.add_parser("list", help="the runs and the sets (id, name, puzzles, digest, runs)",
                           description="List the runs and the sets (id, name, puzzles, digest, runs).")
    a.add_argument("db", metavar="DB", help="the results database")
    a.set_defaults(func=cmd_db_list)
    a = actions.add_parser("rm-set", help="remove a set and every result of it",
                           description="Remove a set and every result of it.")
    a.add_argument("db", metavar="DB", help="the results database")
    a.add_argument("name", metavar="NAME", help="the set's name, as db list shows it")
    a.set_defaults(func=cmd_db_rm_set)
    a = actions.add_parser("rename-set", help="give a set another name", description="Give a set another name.")
    a.add_argument("db", metavar="DB", help="the results database")
    a.add_argument("old", metavar="OLD", help="the set's name, as db list shows it")
    a.add_argument("new", metavar="NEW", help="its new name")
    a.set_defaults(func=cmd_db_rename_set)
