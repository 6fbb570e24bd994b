"""The Quine dilemma solver of Félix Landreau's TIPE study ("Quine modifié", 2025: annexe 5
and its C code ``solve_cnf.c``), on any CNF.

Unit steps until the formula stalls, then a dilemma on a variable chosen by one of the
study's three heuristics (``h0`` random, ``h1`` smallest clause, ``h2`` largest): both copies
propagated side by side, a refuted copy's sibling holding, and the literals both copies imply
made true.  It is here as the study's difficulty measure (its ``d`` from depth, dilemmas and
steps, in ``raw``) and as a complete solver: what the study's code asserts away (both copies
refuted, a copy that is a model, UNSAT at the top, counting by blocking clauses, the clock)
is handled.  Each copy counts the false literals of its long clauses, and h1/h2 scan the
clauses as one numpy matrix, with every choice and count those of the plain loops.  The
algorithm, the additions and the statistics in full: :class:`QuineEngine`.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

from ..encoders.cnf import AMO_ENCODINGS, DEFAULT_AMO, ENCODINGS, Cnf, encode
from ..encoders.cnf import estimated_bytes as cnf_estimated_bytes
from ..errors import EngineError
from ..models.base import Puzzle
from ..results import Stats
from ..runtime.limits import Deadline
from .base import EVERY_KIND, Engine, Option, SearchOutcome, encodes_a_puzzle, limit_reached

UNSAT, IMPLIED, MODEL = "unsat", "implied", "model"
CLOCK_EVERY = 512

WEIGHTS = {  # the study's fitted weights (slides "3.C – Évaluation – Résultats")
    "h0": ((0.9, 0.7, 0.2), 2e-2, 2e-4),
    "h1": ((1.3, 2.0, 2.2), 9e-6, -2e-7),
    "h2": ((1.1, 2.2, 2.5), -2e-4, 3e-6),
}


class _Timeout(Exception):
    pass


class QFormula:
    """A CNF prepared for propagation: long clauses with occurrence lists, binary clauses as
    implication lists, unit clauses, and the clauses holding a positive literal."""

    def __init__(self, n_vars: int, clauses: list[list[int]]):
        self.n = n_vars
        self.long: list[tuple[int, ...]] = []
        self.length: list[int] = []  # of each long clause
        self._arrays = None  # the positive clauses as numpy arrays (h1, h2), made when first asked
        self.occ: list[list[int]] = [[] for _ in range(2 * n_vars + 1)]  # index lit + n
        self.imp: list[list[int]] = [[] for _ in range(2 * n_vars + 1)]  # lit -> implied lits
        self.units: list[int] = []
        self.binaries: list[tuple[int, int]] = []
        self.positive: list[tuple[int, ...]] = []
        self.empty = False
        self.primary = n_vars  # variables the heuristics h1/h2 prefer (a puzzle's candidates)
        self.count = [0] * (n_vars + 1)
        for c in clauses:
            self.add(c)

    def add(self, clause) -> None:
        c = tuple(dict.fromkeys(clause))
        if any(-l in c for l in c):
            return  # a tautology
        n = self.n
        for lit in c:
            self.count[abs(lit)] += 1
        if any(l > 0 for l in c):
            self.positive.append(c)
        if not c:
            self.empty = True
        elif len(c) == 1:
            self.units.append(c[0])
        elif len(c) == 2:
            a, b = c
            self.imp[-a + n].append(b)
            self.imp[-b + n].append(a)
            self.binaries.append(c)
        else:
            i = len(self.long)
            self.long.append(c)
            self.length.append(len(c))
            for lit in c:
                self.occ[lit + n].append(i)

    def counters(self):
        """A fresh count of false literals per long clause (one byte each when it fits)."""
        if not self.length or max(self.length) < 256:
            return bytearray(len(self.long))
        from array import array

        return array("i", bytes(4 * len(self.long)))

    def positive_arrays(self):
        """The clauses with a positive literal as a padded numpy matrix (literals, variables,
        signs, occurrence counts, padding mask), for the heuristics h1 and h2."""
        if self._arrays is None:
            import numpy as np

            width = max(map(len, self.positive), default=0)
            lits = np.zeros((len(self.positive), max(width, 1)), dtype=np.int64)
            for i, c in enumerate(self.positive):
                lits[i, :len(c)] = c
            var = np.abs(lits)
            self._arrays = (lits, var, lits > 0, np.asarray(self.count, dtype=np.int64)[var],
                            lits != 0)
        return self._arrays

    def extended(self, extra: list[list[int]]) -> "QFormula":
        """A copy with ``extra`` clauses, sharing what they do not touch."""
        g = QFormula.__new__(QFormula)
        g.n, g.empty, g.primary = self.n, self.empty, self.primary
        g.long, g.units, g.binaries, g.positive = list(self.long), list(self.units), list(self.binaries), list(self.positive)
        g.length, g._arrays = list(self.length), None
        g.occ, g.imp, g.count = list(self.occ), list(self.imp), list(self.count)
        touched = {lit + self.n for c in extra for lit in c} | {-lit + self.n for c in extra for lit in c}
        for i in touched:
            g.occ[i] = list(g.occ[i])
            g.imp[i] = list(g.imp[i])
        for c in extra:
            g.add(c)
        return g


class Copy:
    """One copy of the formula: an assignment (0 free, 1 true, 2 false), which long clauses
    are satisfied, the unit literals waiting, and the literals this copy deduced (``trail``)."""

    __slots__ = ("val", "sat", "open", "nfalse", "queue", "trail", "dead")

    def __init__(self, val: bytearray, sat: bytearray, open_: int, nfalse):
        self.val, self.sat, self.open, self.nfalse = val, sat, open_, nfalse
        self.queue: list[int] = []
        self.trail: list[int] = []
        self.dead = False

    def split(self) -> "Copy":
        return Copy(self.val[:], self.sat[:], self.open, self.nfalse[:])


@dataclass
class QuineStats:
    disjunctions: list[int] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    refuted: int = 0

    def at(self, table: list[int], depth: int) -> None:
        while len(table) <= depth:
            table.append(0)
        table[depth] += 1

    @property
    def max_depth(self) -> int:
        return max((d + 1 for d, k in enumerate(self.disjunctions) if k), default=0)

    def difficulty(self, heuristic: str) -> dict:
        alphas, beta, gamma = WEIGHTS[heuristic]
        depth = self.max_depth
        alpha = alphas[min(depth, len(alphas) - 1)]
        nd, nq = sum(self.disjunctions), sum(self.steps)
        return {"difficulty": alpha + beta * nd + gamma * nq,
                "inputs": {"max_depth": depth, "alpha": alpha, "beta": beta, "gamma": gamma,
                           "disjunctions": nd, "eliminations": nq}}


class QuineSolver:
    """Finds one model of a :class:`QFormula` (or proves there is none) the study's way."""

    def __init__(self, f: QFormula, heuristic: str, rng: random.Random, deadline: Deadline,
                 stats: QuineStats):
        self.f, self.h, self.rng, self.deadline, self.stats = f, heuristic, rng, deadline, stats
        self.ticks = 0

    # -- propagation -------------------------------------------------------------------------

    def assign(self, x: Copy, lit: int) -> bool:
        """Make ``lit`` true in ``x``; False when a clause becomes empty."""
        val, n = x.val, self.f.n
        var = lit if lit > 0 else -lit
        want = 1 if lit > 0 else 2
        cur = val[var]
        if cur:
            return cur == want
        val[var] = want
        x.trail.append(lit)
        sat = x.sat
        for ci in self.f.occ[lit + n]:
            if not sat[ci]:
                sat[ci] = 1
                x.open -= 1
        queue = x.queue
        for other in self.f.imp[lit + n]:
            a = val[other if other > 0 else -other]
            if not a:
                queue.append(other)
            elif (a == 1) != (other > 0):
                return False
        # a long clause whose literals are all false but one (counted per copy) has a unit
        long, length, nfalse = self.f.long, self.f.length, x.nfalse
        for ci in self.f.occ[-lit + n]:
            if sat[ci]:
                continue
            k = nfalse[ci] + 1
            nfalse[ci] = k
            free = length[ci] - k
            if free == 0:
                return False
            if free == 1:
                for l in long[ci]:
                    if not val[l if l > 0 else -l]:
                        queue.append(l)
                        break
        return True

    def step(self, x: Copy, depth: int) -> None:
        """One Quine step in ``x``: the next waiting unit literal becomes true."""
        queue, val = x.queue, x.val
        while queue:
            lit = queue.pop()
            a = val[lit if lit > 0 else -lit]
            if a:
                if (a == 1) != (lit > 0):
                    x.dead = True
                    return
                continue
            self.stats.at(self.stats.steps, depth)
            self.ticks += 1
            if self.ticks % CLOCK_EVERY == 0 and self.deadline.expired():
                raise _Timeout
            if not self.assign(x, lit):
                x.dead = True
            return

    def stalled(self, x: Copy) -> bool:
        """No unit literal waits (dropping those already true)."""
        queue, val = x.queue, x.val
        while queue:
            lit = queue[-1]
            a = val[lit if lit > 0 else -lit]
            if not a:
                return False
            if (a == 1) != (lit > 0):
                x.dead = True
                return False
            queue.pop()
        return True

    def satisfied(self, x: Copy) -> bool:
        """Every clause has a true literal (binary ones: at a stall, one with no true literal
        has both literals free)."""
        if x.open:
            return False
        val = x.val
        for a, b in self.f.binaries:
            va, vb = val[abs(a)], val[abs(b)]
            if not ((va and (va == 1) == (a > 0)) or (vb and (vb == 1) == (b > 0))):
                return False
        return True

    # -- heuristics ----------------------------------------------------------------------------

    def choose(self, x: Copy) -> int:
        val = x.val
        if self.h == "h0":
            seen, chosen = 0, 0
            pool = [c for i, c in enumerate(self.f.long) if not x.sat[i]] or self.f.binaries
            for c in pool:
                if any(val[abs(l)] and (val[abs(l)] == 1) == (l > 0) for l in c):
                    continue
                for l in c:
                    if not val[abs(l)] and abs(l) <= self.f.primary:
                        seen += 1
                        if self.rng.randrange(seen) == 0:
                            chosen = abs(l)
            if not chosen and self.f.primary < self.f.n:
                primary, self.f.primary = self.f.primary, self.f.n
                try:
                    return self.choose(x)
                finally:
                    self.f.primary = primary
            return chosen
        best_var = self._extreme_candidate(x, self.h == "h1")
        primary = self.f.primary
        if best_var:
            return best_var
        if primary < self.f.n:  # no open clause with a positive candidate: any variable
            self.f.primary = self.f.n
            try:
                return self.choose(x)
            finally:
                self.f.primary = primary
        for c in self.f.long + self.f.binaries:  # no open clause has a positive literal
            for l in c:
                if not val[abs(l)]:
                    return abs(l)
        return 0

    def _extreme_candidate(self, x: Copy, smallest: bool) -> int:
        """h1 (``smallest``) / h2: among the open clauses with a positive literal, those of
        the fewest (most) free literals that have a free positive candidate literal; of their
        free positive candidates, the one of fewest (most) occurrences; ties to the first
        in clause order, then literal order.  0 when there is none.  (The clauses are scanned
        as one numpy matrix: the same choice as a loop over them, about ten times faster.)"""
        import numpy as np

        lits, var, sign, occurrences, real = self.f.positive_arrays()
        if not len(lits):
            return 0
        value = np.frombuffer(x.val, dtype=np.uint8)[var]
        true = np.where(sign, value == 1, value == 2)
        free = (value == 0) & real
        size = free.sum(axis=1)
        cand = free & sign & (lits <= self.f.primary)
        cand &= ~true.any(axis=1)[:, None]
        rows = cand.any(axis=1)
        if not rows.any():
            return 0
        sizes = size[rows]
        cand &= (size == (sizes.min() if smallest else sizes.max()))[:, None]
        counts = occurrences[cand]
        cand &= occurrences == (counts.min() if smallest else counts.max())
        return int(lits.ravel()[np.argmax(cand.ravel())])

    # -- the dilemma -----------------------------------------------------------------------------

    def dilemma(self, x: Copy, depth: int) -> tuple[str, list[int]]:
        """Disjunction on a stalled copy ``x``: UNSAT, IMPLIED literals, or a MODEL."""
        stats = self.stats
        stats.at(stats.disjunctions, depth)
        var = self.choose(x)
        t, e = x.split(), x.split()
        t.dead = not self.assign(t, var)
        e.dead = not self.assign(e, -var)
        while True:
            if t.dead or e.dead:
                stats.refuted += t.dead + e.dead
                if t.dead and e.dead:
                    return UNSAT, []
                return IMPLIED, (e.trail if t.dead else t.trail)
            st, se = self.stalled(t), self.stalled(e)
            if t.dead or e.dead:
                continue
            if not st:
                self.step(t, depth + 1)
            if not se:
                self.step(e, depth + 1)
            if not (st and se):
                continue
            # both stalled: what both deduced holds (the seed stops at its first common
            # literal; waiting for the stall costs only unit steps and takes them all at once)
            common = [l for l in t.trail if e.val[abs(l)] == (1 if l > 0 else 2)]
            if common:
                return IMPLIED, common
            for copy in (t, e):
                if self.satisfied(copy):
                    return MODEL, copy.trail
            for copy in (t, e):
                if not self.stalled(copy) or copy.dead:
                    continue
                kind, lits = self.dilemma(copy, depth + 1)
                if kind == UNSAT:
                    copy.dead = True
                    break
                for l in lits:
                    if not self.assign(copy, l):
                        copy.dead = True
                        break
                if kind == MODEL and not copy.dead:
                    return MODEL, copy.trail
                if copy.dead:
                    break
                if not self.stalled(copy):
                    break  # new units in this copy: step them before the other recurses

    def solve(self) -> list[int] | None:
        """A model (the true/false value of every variable, free ones false) or None."""
        f = self.f
        if f.empty:
            return None
        root = Copy(bytearray(f.n + 1), bytearray(len(f.long)), len(f.long), f.counters())
        root.queue = list(reversed(f.units))
        while True:
            while not self.stalled(root):
                self.step(root, 0)
                if root.dead:
                    return None
            if root.dead:
                return None
            if self.satisfied(root):
                break
            kind, lits = self.dilemma(root, 0)
            if kind == UNSAT:
                return None
            for l in lits:
                if not self.assign(root, l):
                    return None
            if kind == MODEL:
                break
        val = root.val
        return [v if val[v] == 1 else -v for v in range(1, f.n + 1)]


def check_model(clauses: list[list[int]], model: list[int]) -> None:
    """A model that breaks a clause of the file is the run's error (``solve-cnf`` exits 1)."""
    true = set(model)
    for c in clauses:
        if not any(l in true for l in c):
            raise EngineError(f"Quine returned an assignment that breaks clause {c}")


_PREPARED: dict[tuple, QFormula] = {}


def prepared(cnf: Cnf) -> QFormula:
    """The shape's formula prepared once (cached); the givens come in as unit clauses."""
    if cnf.base_key is None:
        return QFormula(cnf.n_vars, cnf.all_clauses())
    base = _PREPARED.get(cnf.base_key)
    if base is None:
        if len(_PREPARED) > 16:
            _PREPARED.clear()
        base = _PREPARED[cnf.base_key] = QFormula(cnf.n_vars, cnf.clauses)
    return base.extended([[u] for u in cnf.units])


def count_models(f: QFormula, heuristic: str, seed: int, limit: int | None, keep: int,
                 deadline: Deadline, block_vars: list[int] | None,
                 check_against: list[list[int]] | None = None):
    """Models up to ``limit`` by blocking clauses; ``block_vars`` None: block whole models.
    Returns (models kept, count, timed out, stats of the first search, total stats)."""
    rng = random.Random(seed)
    first = QuineStats()
    total = QuineStats()
    models, count, timed_out = [], 0, False
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 4 * f.n + 1000))
    try:
        while True:
            stats = first if count == 0 else QuineStats()
            try:
                model = QuineSolver(f, heuristic, rng, deadline, stats).solve()
            except _Timeout:
                timed_out = True
                model = None
            for name in ("disjunctions", "steps"):
                for d, k in enumerate(getattr(stats, name)):
                    while len(getattr(total, name)) <= d:
                        getattr(total, name).append(0)
                    getattr(total, name)[d] += k
            total.refuted += stats.refuted
            if model is None:
                break
            if check_against is not None:
                check_model(check_against, model)
            count += 1
            if len(models) < keep:
                models.append(model)
            if limit_reached(count, limit):
                break
            if block_vars is None:
                block = [-l for l in model]
            else:
                chosen = set(l for l in model if l > 0)
                block = [-v for v in block_vars if v in chosen]
                if not block:
                    break
            f = f.extended([block])
    finally:
        sys.setrecursionlimit(old)
    return models, count, timed_out, first, total


class QuineEngine(Engine):
    """Landreau's modified Quine on a puzzle's CNF (see the module doc).

    The study's algorithm:

    - *Quine steps*: while the formula has a clause with one literal, make that literal true
      (substitute it: clauses it satisfies go, its complement leaves the others).  One step is
      one such substitution.
    - When the formula stalls (no unit clause), a *disjunction* (dilemma) on a variable ``v``
      chosen by the heuristic: one copy with ``v`` true, one with ``v`` false, propagated step
      by step side by side.  A copy that reaches an empty clause is refuted: everything the
      other copy deduced holds in the formula.  As soon as the two copies have deduced a common
      literal, the literals implied by both become true in the formula.  When both copies stall,
      disjunctions recurse inside them.

    Heuristics (the study's ``heuristique_0..2``, its slides' heuristics 1–3):

    - ``h0``: a random literal occurrence of the open clauses (seeded: option ``seed`` + the engine seed);
    - ``h1``: a positive literal of a smallest clause having one (a bivalue cell in Sudoku),
      ties to the variable with the fewest occurrences;
    - ``h2``: the same in a largest such clause, ties to the most occurrences.
      On a puzzle's CNF all three look at the candidates' literals first (auxiliary variables, such
      as the Skyscrapers visibility ones, only when no open clause has a positive candidate):
      the study's CNF had no auxiliary variables, and branching on them is very slow.
      (Occurrences are counted in the formula given to the engine, once, not re-counted in each
      reduced copy as the study does: the study's count is a 9x9-Sudoku specific table.)

    What was added to make it sound and complete (the study's code asserts these away):

    - both copies refuted: the formula is unsatisfiable (the seed stops with ``assert``);
    - a copy that satisfies every clause: that copy's assignment is a model and is returned as
      such (the seed applies it like deduced literals, which is right for finding one model but
      is not an implication);
    - a refuted formula at the top level answers UNSAT instead of aborting;
    - counting: after each model, a clause forbidding it (over the candidates of the open
      cells; over every variable for a plain DIMACS file) is added and the search starts again,
      up to the limit; every model is checked against every clause before it is returned;
    - the clock is looked at every 512 steps (time limit).

    How it is computed (the choices and every count are those of the plain loops): a copy counts
    the false literals of each long clause, so that a clause becomes unit or empty without being
    scanned; h1 and h2 scan the clauses with a positive literal as one numpy matrix (a test holds
    the scan to the loop on random formulas and assignments).

    Each disjunction either refutes a copy, returns a model, or returns a non-empty set of new
    implied literals, so the search always progresses and ends (at most one disjunction level per
    variable).

    Statistics, in ``raw`` (of the first search, the one that finds the first solution, as the
    seed measures a puzzle): disjunctions per depth (depth 0 = disjunctions on the formula
    itself), Quine steps per depth (depth 0 = steps on the formula itself, depth k+1 = steps in
    the copies of a depth-k disjunction), maximum depth (deepest disjunction level + 1; 0 when
    propagation alone solves it), and the study's difficulty ``d = α(max depth) + β·n_d + γ·n_Q``
    with the study's fitted weights for the heuristic (α(k) for k > 2 is α(2)), and its inputs.
    Shared columns (over every search of the run): ``nodes`` = ``guesses`` = disjunctions,
    ``backtracks`` = refuted copies, ``propagations`` = Quine steps."""

    kinds = EVERY_KIND
    family = "quine"
    summary = "Landreau's modified Quine (TIPE 2025): unit steps, dilemmas propagated side by side (Python)"
    variants = ("h1", "h0", "h2")
    options = (
        Option("seed", int, 0, "random seed of heuristic h0",
               applies=lambda engine, on: None if engine.variant == "h0" else
               f"{engine.variant} chooses without chance: only h0 takes a seed"),
        Option("encoding", str, "extended", "CNF encoding: " + ", ".join(ENCODINGS), ENCODINGS,
               applies=encodes_a_puzzle),
        Option("amo", str, DEFAULT_AMO, "at-most-one encoding: " + ", ".join(AMO_ENCODINGS), AMO_ENCODINGS,
               applies=encodes_a_puzzle),
    )
    libraries = ("numpy", "pysat.card")   # numpy: h1 and h2's clause matrix; pysat.card: the encoder's
    seed_parameter = "quine:h0 alone: its random generator is seeded with @seed + the engine seed"
    statistics = {
        "nodes": "disjunctions (dilemmas), at every depth",
        "guesses": "disjunctions (each splits the formula in two copies)",
        "backtracks": "copies refuted by an empty clause",
        "propagations": "Quine steps (unit literals substituted), at every depth",
    }

    def takes_seed(self) -> bool:
        return self.variant == "h0"   # h1 and h2 choose without chance

    def estimated_bytes(self, puzzle: Puzzle) -> int:
        """The formula's clause lists and the search's copy of them (:class:`QFormula`: a tuple
        a clause, its place in the implication or occurrence lists, the heuristics' matrix):
        160 bytes a clause and 48 a literal above the formula, the most measured up to an empty
        36x36 (results/budget.md)."""
        return cnf_estimated_bytes(puzzle, self.settings["encoding"], self.settings["amo"],
                                   per_clause=160, per_literal=48)

    def encode(self, puzzle: Puzzle) -> Cnf:
        return encode(puzzle, self.settings["encoding"], self.settings["amo"])

    def size(self, artifact: Cnf) -> dict[str, int]:
        return {"variables": artifact.n_vars, "clauses": artifact.n_clauses}

    def search(self, artifact: Cnf, limit, keep, deadline: Deadline) -> SearchOutcome:
        f = prepared(artifact)
        f.primary = artifact.n_candidates  # branch on candidates, not on auxiliary variables
        models, count, timed_out, first, total = count_models(
            f, self.variant, self.settings["seed"] + (self.engine_seed or 0), limit, keep, deadline,
            artifact.open_candidate_vars())
        return SearchOutcome([[l for l in m[:artifact.n_candidates] if l > 0] for m in models],
                             count, timed_out, quine_stats(first, total, self.variant))

    def decode(self, artifact: Cnf, raw) -> tuple[int, ...]:
        return artifact.decode(raw)


def quine_stats(first: QuineStats, total: QuineStats, heuristic: str) -> Stats:
    d = first.difficulty(heuristic)
    raw = {"disjunctions_per_depth": first.disjunctions, "steps_per_depth": first.steps,
           "max_depth": first.max_depth, "refuted": first.refuted, "difficulty": d["difficulty"],
           "difficulty_inputs": d["inputs"], "heuristic": heuristic,
           "all_searches": {"disjunctions_per_depth": total.disjunctions,
                            "steps_per_depth": total.steps, "refuted": total.refuted}}
    nd = sum(total.disjunctions)
    return Stats(nodes=nd, guesses=nd, backtracks=total.refuted, propagations=sum(total.steps), raw=raw)
