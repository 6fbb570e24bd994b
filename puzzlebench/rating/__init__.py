"""Difficulty rating of Sudoku puzzles, after F. Landreau, "Mise en place de méthodes
d'évaluation de la difficulté d'une grille de sudoku" (TIPE study, 2025).

``rate_puzzle(puzzle)`` → :class:`Rating`: a score on the Sudoku Explainer scale, by SE's own
rule (the hardest step of SE's ladder, :data:`puzzlebench.techniques.ladder.SE_LADDER`) where the
ladder solves the puzzle, else by a fitted model (``scored_by`` and ``ladder`` say which and
why); ``model="human"`` predicts a human solve time (fitted to Wang 2024's records).  A
package because rating has four separate concerns: :mod:`.criteria` (visual criteria),
:mod:`.profile` (what the human-technique solver learns, as features), :mod:`.model` (linear
models and their validation) and :mod:`.data` (labelled files); the harness only calls
:func:`rate_puzzle`, and ``puzzlebench rate`` is :mod:`puzzlebench.cli.rate`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import UsageError
from ..models.base import Puzzle
from ..techniques.grid import Step
from .model import DifficultyModel, load_model
from .profile import LADDER_SECONDS, Profile, feature_vector, profile_puzzle

BUILTIN_MODELS = {"se": "rating_se.json", "human": "rating_human.json"}
DEFAULT_MODEL = "se"


@lru_cache(maxsize=None)
def builtin_model(name: str) -> DifficultyModel:
    text = resources.files("puzzlebench").joinpath("data", BUILTIN_MODELS[name]).read_text()
    return DifficultyModel.from_dict(json.loads(text))


def get_model(model: str | Path | DifficultyModel | None) -> DifficultyModel:
    """A model: an object, a built-in name (``se``, ``human``) or the path of a JSON file."""
    if isinstance(model, DifficultyModel):
        return model
    if model is None:
        model = DEFAULT_MODEL
    if str(model) in BUILTIN_MODELS:
        return builtin_model(str(model))
    path = Path(model)
    if not path.exists():
        raise UsageError(f"model {str(model)!r}: no such file (built-in models: {', '.join(BUILTIN_MODELS)})")
    try:
        return load_model(path)
    except OSError as exc:   # a folder, a file not readable
        raise UsageError(f"model {str(model)!r}: cannot read it: {exc.strerror or exc}") from None
    except KeyError as exc:  # a KeyError says only the key: name what is missing
        raise UsageError(f"model {str(model)!r}: not a rating model (no {exc.args[0]!r})") from None
    except json.JSONDecodeError as exc:   # said "model 'p.txt': Expecting value: line 1 column 1 (char 0)"
        raise UsageError(f"{model}:{exc.lineno}:{exc.colno}: not a rating model (not JSON: {exc.msg})") from None
    except (ValueError, TypeError) as exc:
        raise UsageError(f"model {str(model)!r}: {exc}") from None


@dataclass
class Rating:
    """``status``: ``unique`` (rated), ``multiple`` / ``unsat`` (not a proper puzzle, so no
    score: the rating assumes exactly one solution) or ``error``."""

    status: str
    score: float | None = None
    hardest: str | None = None
    techniques: dict[str, int] = field(default_factory=dict)
    criteria: dict[str, float] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    guesses: int = 0
    backtracks: int = 0
    depth: int = 0
    model: str | None = None
    scored_by: str | None = None     # "se-ladder" or "model"
    ladder: str | None = None        # SE ladder: "solved", "beyond" (needs a guess), "timeout"
    se_rating: float | None = None   # SE's rule on the ladder's solve (when solved)
    ladder_seconds: float | None = None
    message: str | None = None
    source: str | None = None
    puzzle: str | None = None
    moves: list[Step] = field(default_factory=list, repr=False)  # the steps themselves, to be drawn

    def to_dict(self, explain: bool = False) -> dict:
        out = {"source": self.source, "puzzle": self.puzzle, "status": self.status,
               "score": None if self.score is None else round(self.score, 3),
               "model": self.model, "hardest": self.hardest, "techniques": self.techniques,
               "criteria": self.criteria, "guesses": self.guesses, "backtracks": self.backtracks,
               "depth": self.depth, "scored_by": self.scored_by, "ladder": self.ladder,
               "se_rating": self.se_rating}
        if self.message:
            out["message"] = self.message
        if explain:
            out["steps"] = self.steps
        return out


STATUS_MESSAGES = {
    "multiple": "the puzzle has more than one solution; the rating assumes exactly one",
    "unsat": "the puzzle has no solution; nothing to rate",
}


def rate_profile(prof: Profile, model: DifficultyModel) -> Rating:
    """The rating of a profile: SE's rule when the profile's SE ladder solved the puzzle and
    the model is on the SE scale, else the model's score."""
    if prof.status != "unique":
        return Rating(prof.status, criteria=prof.criteria, model=model.name,
                      message=STATUS_MESSAGES[prof.status])
    r = Rating("unique", model.predict_row(feature_vector(prof)), prof.hardest,
               dict(prof.techniques), prof.criteria, [s.text for s in prof.steps],
               prof.guesses, prof.backtracks, prof.depth, model.name, scored_by="model",
               moves=list(prof.steps))
    lad = prof.ladder
    if lad is not None:
        r.ladder, r.ladder_seconds = lad.status, lad.seconds
        if lad.status != "timeout":
            r.steps = [f"[{s.rating:.1f}] {s.text}" if s.rating is not None else s.text
                       for s in lad.steps]
            r.moves = list(lad.steps)
            r.hardest = lad.hardest
            r.techniques = dict(Counter(s.technique for s in lad.steps))
            r.guesses, r.backtracks, r.depth = lad.guesses, lad.backtracks, lad.depth
        if lad.status == "solved":
            r.se_rating = lad.rating
            if model.target_scale == "se":
                r.score, r.scored_by = lad.rating, "se-ladder"
    return r


def rate_puzzle(puzzle: Puzzle, model: str | Path | DifficultyModel | None = None, *,
                ladder_seconds: float | None = LADDER_SECONDS) -> Rating:
    """Rate one Sudoku (any block shape; the shipped weights were fitted on 9x9 puzzles, SE's
    ladder runs on 9x9 only, for at most ``ladder_seconds``)."""
    if puzzle.kind != "sudoku":
        return Rating("error", message=f"rating handles Sudoku puzzles only, not {puzzle.kind}",
                      source=puzzle.source)
    chosen = get_model(model)
    needs_quine = any(f.startswith("quine:") for f in chosen.features)
    rating = rate_profile(profile_puzzle(puzzle.box, puzzle.givens, quine=needs_quine, ladder=True,
                                         ladder_seconds=ladder_seconds), chosen)
    rating.source, rating.puzzle = puzzle.source, puzzle.write()
    return rating


__all__ = ["Rating", "rate_puzzle", "get_model", "DifficultyModel", "BUILTIN_MODELS"]
