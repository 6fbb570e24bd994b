"""Cross-checking: every two solvers that finished the same puzzle with the same solution limit
must agree on the status and the number of solutions.

Only finished answers take part (``unique``, ``multiple``, ``sat``, ``unsat``): a timeout's
count is whatever was found by then, and an error has no answer.  Results are compared only
between runs with the same limit (limit 2 says ``multiple`` with count 2 where counting all
says ``multiple`` with the exact count).  A disagreement is never averaged away: it is stored,
printed, and makes the bench's exit code 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable

FINISHED = ("unique", "multiple", "sat", "unsat")


@dataclass(frozen=True)
class Disagreement:
    puzzle_id: str
    puzzle_hash: str
    limit: int
    solver_a: str
    status_a: str
    count_a: int
    solver_b: str
    status_b: str
    count_b: int

    def as_row(self) -> tuple:
        return (self.puzzle_id, self.puzzle_hash, self.limit, self.solver_a, self.status_a, self.count_a,
                self.solver_b, self.status_b, self.count_b)

    def __str__(self) -> str:
        limit = "all" if self.limit == 0 else self.limit
        return (f"{self.puzzle_id} (limit {limit}): {self.solver_a} says {self.status_a} "
                f"count={self.count_a}, {self.solver_b} says {self.status_b} count={self.count_b}")


def crosscheck(results: Iterable[dict]) -> list[Disagreement]:
    """Every pair of disagreeing answers among ``results`` (rows of the results table)."""
    groups: dict[tuple, list[dict]] = {}
    for r in results:
        if r["status"] in FINISHED:
            groups.setdefault((r["puzzle_id"], r["puzzle_hash"], r["limit_"]), []).append(r)
    out = []
    for (pid, phash, limit), rows in groups.items():
        rows.sort(key=lambda r: r["solver"])
        for a, b in combinations(rows, 2):
            if (a["status"], a["count"]) != (b["status"], b["count"]):
                out.append(Disagreement(pid, phash, limit, a["solver"], a["status"], a["count"],
                                        b["solver"], b["status"], b["count"]))
    return out


def crosscheck_db(conn, limit: int, sets: list[str], solvers: list[str]) -> list[Disagreement]:
    """:func:`crosscheck` done by SQLite over the latest results, warm-ups left out (a
    self-join of the log on the puzzle and the limit, which SQLite serves with an index of its
    own making), for the given sets and solvers: no row is read into Python unless it disagrees."""
    finished = ", ".join(f"'{s}'" for s in FINISHED)
    set_marks, solver_marks = ", ".join("?" * len(sets)), ", ".join("?" * len(solvers))
    sql = f"""
        SELECT s.name || ':' || a.line, a.puzzle_hash, a.limit_, va.spec, a.status, a.count,
               vb.spec, b.status, b.count
        FROM result_log a
        JOIN result_log b ON b.set_id = a.set_id AND b.line = a.line AND b.puzzle_hash = a.puzzle_hash
                         AND b.limit_ = a.limit_ AND b.solver_id != a.solver_id
        JOIN puzzle_sets s ON s.id = a.set_id
        JOIN solvers va ON va.id = a.solver_id
        JOIN solvers vb ON vb.id = b.solver_id
        WHERE a.replaced_by IS NULL AND b.replaced_by IS NULL AND va.spec < vb.spec
          AND COALESCE(a.warmup, 0) = 0 AND COALESCE(b.warmup, 0) = 0
          AND a.limit_ = ? AND s.name IN ({set_marks})
          AND va.spec IN ({solver_marks}) AND vb.spec IN ({solver_marks})
          AND a.status IN ({finished}) AND b.status IN ({finished})
          AND (a.status != b.status OR a.count != b.count)
        GROUP BY a.set_id, a.line, a.puzzle_hash, a.limit_, va.spec, a.status, a.count, vb.spec, b.status, b.count
        ORDER BY min(a.id), vb.spec"""  # grouped: one row a disagreement, however many repetitions show it
    return [Disagreement(*row) for row in conn.execute(sql, (limit, *sets, *solvers, *solvers))]
