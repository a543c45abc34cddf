"""medhalbench: measure hallucination of large language models in medicine.

The Python API reads the logs of finished runs as pandas DataFrames: `load_runs` (one row
per run), `load_samples` (one row per sample), `load_units` (one row per DAHL atomic unit)
and `load_figures` (one row per run and figure).
"""

from typing import TYPE_CHECKING

from medhalbench._errors import DataError, MedhalbenchError, ResourceUnavailableError
from medhalbench._lazy import exports
from medhalbench._version import VERSION

__version__ = VERSION

# Loaded on first use: the command line need not import pandas and inspect's analysis.
if TYPE_CHECKING:
    from medhalbench.frames import load_figures, load_runs, load_samples, load_units

__getattr__, _DEFERRED = exports(__name__, __file__)

__all__ = ["DataError", "MedhalbenchError", "ResourceUnavailableError", "__version__"]
__all__ += _DEFERRED
