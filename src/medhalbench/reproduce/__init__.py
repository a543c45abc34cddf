"""Reproducing the papers' tables: packaged suites of each published table's grid, and the
view that sets our figures beside the published ones, cell by cell."""

from medhalbench import _lazy
from medhalbench.reproduce._export import (
    reproduced_tables,
    reproduction_text,
    reproductions,
    table_cells,
)
from medhalbench.reproduce._tables import PAPER_TABLES, PaperTable, paper_table
from medhalbench.reproduce._view import Cell, Tally, reproduction, reproduction_table, verdict

__getattr__, __all__ = _lazy.exports(__name__, __file__)
