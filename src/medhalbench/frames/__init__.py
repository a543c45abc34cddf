"""Logs as pandas DataFrames: one row per run, per sample, per DAHL atomic unit, or per run
and figure; their columns and dtypes are declared in `RUNS`, `SAMPLES`, `UNITS` and
`medhalbench.report.FIGURE_COLUMNS`."""

from medhalbench import _lazy
from medhalbench.frames._frames import load_figures, load_runs, load_samples, load_units
from medhalbench.frames._schema import RUNS, SAMPLES, UNITS, FrameColumn

__getattr__, __all__ = _lazy.exports(__name__, __file__)
