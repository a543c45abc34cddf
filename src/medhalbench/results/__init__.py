"""Results of benchmark runs: figures read from inspect logs, tables of them with the papers'
published rows, and small SVG charts. Shared by every benchmark and the report."""

from medhalbench import _lazy
from medhalbench.results._charts import (
    Bar,
    ReliabilityBin,
    bar_of,
    grouped_bars,
    horizontal_bars,
    line_chart,
    reliability_bins,
    reliability_diagram,
)
from medhalbench.results._figures import (
    FIGURES_KEY,
    FigureSet,
    chosen_figures,
    every_figure,
    keep_every_figure,
    log_metrics,
    metric_scores,
)
from medhalbench.results._logs import MAX_LOG_BYTES, local_path, log_headers, log_paths, read_log
from medhalbench.results._published import PublishedRow, read_published
from medhalbench.results._record import (
    PlannedRole,
    RunFacts,
    RunRecord,
    Sent,
    TokenEstimate,
)
from medhalbench.results._runs import (
    MAIN_ROLE,
    Estimate,
    RunResult,
    benchmark_name,
    log_roles,
    role_configs,
    run_record,
    run_result,
    sample_score,
    sample_scores,
    served_models,
)
from medhalbench.results._tables import (
    AUROC_UNDEFINED,
    EXPLANATION_UNDEFINED,
    F1_UNDEFINED,
    PRECISION_UNDEFINED,
    RECALL_UNDEFINED,
    UNDEFINED,
    Cell,
    Column,
    FigureRow,
    ResultTable,
    calibration_table,
    figure_names,
    figure_rows,
    format_cell,
    prompt_files,
    published_figure,
    results_table,
    run_title,
    sample_counts,
    setting_text,
    token_table,
    undefined_reason,
    yes_no,
)

__getattr__, __all__ = _lazy.exports(__name__, __file__)
