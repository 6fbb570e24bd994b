"""The visual criteria of Landreau ("Mise en place de méthodes d'évaluation de la difficulté d'une grille de sudoku", TIPE study, 2025), annexe 1: what a person sees before solving anything.

- ``clues``: the number of givens (the seed: r ≈ 0.21 with human difficulty);
- ``candidates``: candidates left in the empty cells once the givens are removed from their
  rows, columns and boxes (pencil marks at the start);
- ``spread_rows`` / ``spread_columns`` / ``spread_boxes``: the standard deviation of the
  number of clues per row / column / box ("répartition géographique", σ = √(1/9 Σ (x_i - E x)²));
- ``spread_values``: the standard deviation of how often each value is given ("répartition
  entre valeurs").
"""

from __future__ import annotations

import math
from typing import Sequence

from ..techniques.grid import Contradiction, State, geometry

CRITERIA = ("clues", "candidates", "spread_rows", "spread_columns", "spread_boxes", "spread_values")


def population_std(xs: Sequence[float]) -> float:
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))


def visual_criteria(box: tuple[int, int], givens: Sequence[int]) -> dict[str, float]:
    g = geometry(tuple(box))
    n = g.n
    per_unit = [sum(1 for c in cells if givens[c]) for cells in g.units]
    per_value = [0] * n
    for v in givens:
        if v:
            per_value[v - 1] += 1
    try:
        state = State.from_givens(g, givens)
        candidates = sum(m.bit_count() for m in state.cand)
    except Contradiction:
        candidates = 0
    return {
        "clues": sum(1 for v in givens if v),
        "candidates": candidates,
        "spread_rows": round(population_std(per_unit[:n]), 4),
        "spread_columns": round(population_std(per_unit[n:2 * n]), 4),
        "spread_boxes": round(population_std(per_unit[2 * n:]), 4),
        "spread_values": round(population_std(per_value), 4),
    }
