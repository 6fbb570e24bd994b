"""How sure a report's figures are: bootstrap intervals, paired tests and run-to-run noise.

Every method but Holm's is scipy.stats' (docs/METHODS.md names each with its reference): a
percentile bootstrap interval of a median and of a paired ratio of shifted geometric means
(Efron & Tibshirani 1993), the Wilcoxon signed-rank test of a change beyond a margin in paired
log times (Wilcoxon 1945; zeros as Pratt 1959; the margin as Hodges & Lehmann 1954), the
exact binomial (McNemar 1947) test of the
puzzles one side solved and the other did not, Holm's (1979) step-down adjustment of a table's
p-values, and the median absolute deviation of repeated runs.  The bootstrap is seeded: the
same results give the same report.
"""

from __future__ import annotations

import math
import warnings
from typing import Sequence

import numpy as np

from ..runtime.interrupts import ctrl_c_kept


def _stats():
    """scipy.stats, imported when a figure is computed: it takes most of a second to import,
    which every command would pay at start; a Ctrl-C is held while it is imported
    (:func:`~puzzlebench.runtime.interrupts.ctrl_c_kept`), as the commands' own imports are."""
    with ctrl_c_kept():
        from scipy import stats
    return stats

CONFIDENCE = 0.95
ALPHA = 0.05         # a test's level: significant where the adjusted p is below it
RESAMPLES = 2000     # Efron & Tibshirani (1993, ch. 13): 1,000 or more for percentile intervals
SEED = 20260      # any fixed seed: the same results give the same intervals
DEFAULT_MARGIN = 0.05   # a change in time of 5% or less is not called one (report --margin)
TINY_LOG_TIME = 1e-7   # with no shift, a time measured as 0 is taken as this before its log


BATCH_VALUES = 4_000_000   # resampled values held at once (32 MB): a set of 49,158 puzzles in 81 resamples


def _rng() -> np.random.Generator:
    return np.random.default_rng(SEED)


def _batch(n: int) -> int:
    """How many resamples of ``n`` values to draw at once, so that a large set does not hold
    all 2,000 x n in memory."""
    return max(1, min(RESAMPLES, BATCH_VALUES // max(n, 1)))


def _interval(result) -> tuple[float, float] | None:
    low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
    return (low, high) if math.isfinite(low) and math.isfinite(high) else None


def median_interval(values: Sequence[float]) -> tuple[float, float] | None:
    """The 95% percentile bootstrap interval of the median of ``values`` (``None`` for fewer
    than two: one value has no spread to resample)."""
    if len(values) < 2:
        return None
    result = _stats().bootstrap((np.asarray(values, dtype=float),), np.median, n_resamples=RESAMPLES,
                             batch=_batch(len(values)), confidence_level=CONFIDENCE, method="percentile",
                             vectorized=True, axis=-1, rng=_rng())
    return _interval(result)


def log_times(values: Sequence[float], shift: float) -> np.ndarray:
    """ln((t + s) / s) of each time, the terms of a shifted geometric mean (log1p keeps the
    small times exact under a large shift); with no shift, ln t, a time of 0 taken as
    :data:`TINY_LOG_TIME`.  Differences of these are differences of ln(t + s)."""
    times = np.asarray(values, dtype=float)
    if shift > 0:
        return np.log1p(times / shift)
    return np.log(np.maximum(times, TINY_LOG_TIME))


def sgm_of_logs(logs, shift: float, axis=-1):
    """The shifted geometric mean from :func:`log_times`' terms: s (exp(mean) - 1), or
    exp(mean) with no shift."""
    mean = np.mean(logs, axis=axis)
    return shift * np.expm1(mean) if shift > 0 else np.exp(mean)


def ratio_interval(base: Sequence[float], mine: Sequence[float], shift: float) -> tuple[float, float] | None:
    """The 95% percentile bootstrap interval of sgm(base) / sgm(mine), resampling the puzzles
    (the pairs ``base[i]``, ``mine[i]`` together); ``None`` for fewer than two puzzles."""
    if len(base) < 2:
        return None
    logs = log_times(base, shift), log_times(mine, shift)

    def ratio(a, b, axis=-1):
        return sgm_of_logs(a, shift, axis) / sgm_of_logs(b, shift, axis)
    # a resample whose times are all 0 has the ratio inf (and scipy's standard error of such
    # ratios nan): an interval that is not finite is none, so its warnings say nothing more
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = _stats().bootstrap(logs, ratio, n_resamples=RESAMPLES, batch=_batch(len(base)),
                                 confidence_level=CONFIDENCE, method="percentile", vectorized=True, paired=True,
                                 axis=-1, rng=_rng())
    return _interval(result)


def sgm_interval(times: Sequence[float], shift: float) -> tuple[float, float] | None:
    """The 95% percentile bootstrap interval of the shifted geometric mean of ``times``
    (seconds): :func:`ratio_interval` against a constant 1 s, whose mean is 1 in every resample,
    so that one method and one seed give every interval of a report."""
    return ratio_interval(times, [1.0] * len(times), shift)


def paired_time_test(a: Sequence[float], b: Sequence[float],
                     margin: float = DEFAULT_MARGIN) -> tuple[float, int] | None:
    """Whether the times ``b`` differ from the paired times ``a`` by more than ``margin`` (a
    share: 0.05, five per cent): the Wilcoxon signed-rank test of the differences of their
    logs, zero differences ranked and dropped after (Pratt), against the interval null
    hypothesis |shift| <= ln(1 + margin) (Hodges & Lehmann 1954: two one-sided tests, the
    lesser p doubled).  Returns the p-value and the direction (1: ``b`` slower, -1: faster);
    ``None`` with no pair.  The margin keeps a whole run's drift of a fraction of a per cent on
    a shared machine, which hundreds of pairs would detect, from being called a change."""
    if len(a) == 0:
        return None
    differences = log_times(b, 0.0) - log_times(a, 0.0)
    if margin == 0:
        if not np.any(differences):
            return 1.0, 0
        return float(_stats().wilcoxon(differences, zero_method="pratt").pvalue), int(np.sign(np.median(differences)))
    bound = math.log1p(margin)
    slower = _one_sided(differences - bound, "greater")
    faster = _one_sided(differences + bound, "less")
    return min(1.0, 2 * min(slower, faster)), 1 if slower < faster else -1 if faster < slower else 0


def _one_sided(values: np.ndarray, alternative: str) -> float:
    if not np.any(values):
        return 1.0   # every value on the bound: no evidence beyond it
    return float(_stats().wilcoxon(values, zero_method="pratt", alternative=alternative).pvalue)


def solved_test(gained: int, lost: int) -> float:
    """The exact McNemar test: the two-sided binomial p-value of ``gained`` among the
    discordant puzzles (solved by one side only), at one half; 1.0 with none."""
    if gained + lost == 0:
        return 1.0
    return float(_stats().binomtest(gained, gained + lost, 0.5).pvalue)


def holm(pvalues: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (``None`` stays ``None``): the i-th smallest of m
    times (m - i + 1), made non-decreasing in that order, at most 1.  scipy has no Holm
    (``false_discovery_control`` is Benjamini-Hochberg) and statsmodels is not a dependency."""
    given = [(p, i) for i, p in enumerate(pvalues) if p is not None]
    adjusted: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, i) in enumerate(sorted(given)):
        running = max(running, min(1.0, (len(given) - rank) * p))
        adjusted[i] = running
    return adjusted


def relative_mad(values: Sequence[float]) -> float | None:
    """The median absolute deviation of repeated runs' times over their median (``None`` for
    fewer than two runs or a median of 0)."""
    if len(values) < 2:
        return None
    centre = float(np.median(values))
    if centre <= 0:
        return None
    return float(_stats().median_abs_deviation(values)) / centre
