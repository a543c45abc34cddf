"""Reports: a summary of every model on every benchmark beside the papers' figures, each
benchmark's tables, charts and paired comparisons, from inspect logs of any of our tasks."""

from medhalbench.report._collect import CollectedResults, collect
from medhalbench.report._compare import Comparison, compare_logs, comparison_table
from medhalbench.report._contrasts import Contrasts, Difference, contrasts, differences
from medhalbench.report._html import render_html
from medhalbench.report._page import Page, Section, build_page, summary_table
from medhalbench.report._write import ReportFormat, tables, write_report

__all__ = [
    "CollectedResults",
    "Comparison",
    "Contrasts",
    "Difference",
    "Page",
    "ReportFormat",
    "Section",
    "build_page",
    "collect",
    "compare_logs",
    "comparison_table",
    "contrasts",
    "differences",
    "render_html",
    "summary_table",
    "tables",
    "write_report",
]
