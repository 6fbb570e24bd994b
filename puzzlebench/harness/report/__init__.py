"""Tables and plots from the results database, as the field reports solver comparisons.

Split by concern: :mod:`.statistics` (percentiles, one meaning of solved, the median run, the
shifted geometric mean after Achterberg, "Constraint Integer Programming", 2007), :mod:`.metrics`
(the registry: a column of any table is one :class:`Metric` entry), :mod:`.tables` (the summary
and the standard metrics: PAR-k, wins, speed-up, a virtual best solver, the paired tests),
:mod:`.compare` (two databases paired by content), :mod:`.headline` (a campaign at a glance), :mod:`.writers` (md, LaTeX, CSV, JSON, the
raw rows, ``bench``'s brief table) and :mod:`.plots` (the registry of figures: a figure is one
:class:`Plot` entry).  Repetitions are folded to their median first (:func:`median_runs`), and
each figure's uncertainty comes from :mod:`..uncertainty` (docs/METHODS.md).
"""

from ..uncertainty import DEFAULT_MARGIN
from .headline import headline
from .compare import COMPARE_FIELDS, compare, compare_noise_warnings, puzzles_in_common
from .metrics import METRICS, Metric, register_metric, table_columns, unregister_metric
from .plots import PLOTS, Plot, ecdf_points, page_plots, performance_ratios, profile_at, register_plot, unregister_plot
from .statistics import (DEFAULT_PAR, DEFAULT_SHIFT, TIME_KEYS, VIRTUAL_BEST, MetricOptions, clock_of, median_runs,
                         outcome, percentile, rows_without_time, shifted_geometric_mean, solved_in_limit,
                         solver_named, timed)
from .tables import noise_warnings, standard_metrics, summarise
from .writers import (BINARY_FORMATS, RAW_FORMATS, brief, compare_caption, metrics_caption, pyarrow_modules,
                      raw_table, render, render_compare, time_limit_words, write_raw)

__all__ = ["BINARY_FORMATS", "COMPARE_FIELDS", "DEFAULT_MARGIN", "DEFAULT_PAR", "DEFAULT_SHIFT", "METRICS", "PLOTS",
           "RAW_FORMATS", "TIME_KEYS", "VIRTUAL_BEST", "Metric", "MetricOptions", "Plot", "brief", "clock_of",
           "compare", "compare_caption", "headline", "compare_noise_warnings", "ecdf_points", "median_runs", "metrics_caption",
           "noise_warnings", "outcome", "page_plots", "percentile", "performance_ratios", "profile_at",
           "puzzles_in_common", "pyarrow_modules", "raw_table", "register_metric", "register_plot", "render",
           "render_compare", "rows_without_time", "shifted_geometric_mean", "solved_in_limit", "solver_named",
           "standard_metrics", "summarise", "table_columns", "time_limit_words", "timed", "unregister_metric",
           "unregister_plot", "write_raw"]
