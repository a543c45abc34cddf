"""Reports: a summary of every model on every benchmark beside the papers' figures, each
benchmark's tables, charts and paired comparisons, from inspect logs of any of our tasks."""

from medhalbench import _lazy
from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._compare import (
    Comparison,
    compare_logs,
    comparison_table,
    comparison_text,
    json_safe,
)
from medhalbench.report._contrasts import contrasts, differences
from medhalbench.report._export import csv_frame, markdown
from medhalbench.report._html import render_html
from medhalbench.report._latex import latex, latex_table
from medhalbench.report._layout import column_parts
from medhalbench.report._multiple import holm
from medhalbench.report._names import condition_words, find_run, log_stem
from medhalbench.report._page import Page, build_page
from medhalbench.report._published import in_setting, on_paper_data, published_of
from medhalbench.report._runs_table import OwnColumns, runs_table
from medhalbench.report._settings import RunSettings, applied, settings_of
from medhalbench.report._summary import (
    BenchmarkSummary,
    distinctions,
    mark_distinctions,
    place,
    run_names,
    summary_tables,
)
from medhalbench.report._tidy import FIGURE_COLUMNS, figures_frame
from medhalbench.report._write import tables, write_report
from medhalbench.settings import SUFFIXES, ComparisonFormat, ReportFormat

__getattr__, __all__ = _lazy.exports(__name__, __file__)
