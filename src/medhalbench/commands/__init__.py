"""What the command line's commands run (`cli` declares them, lightly, and names these by
`module:attribute`): each command's values validated by their settings models, which model
plays each role, evaluations and builds run through inspect with our progress display and
one-line errors, and result tables printed."""

from medhalbench.commands._auditing import audit_from_command_line
from medhalbench.commands._builds import run_build, run_build_command, run_tool_command
from medhalbench.commands._demo import demo_from_command_line
from medhalbench.commands._derive import command_settings, refusal, settings_from, take_values
from medhalbench.commands._errors import (
    INTERRUPTED,
    USER_ERROR,
    fail,
    interruptible,
    report,
    stop_code,
)
from medhalbench.commands._eval import run_eval_command
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._folders import log_folder, made_for_output, writable_folder
from medhalbench.commands._indexing import index_from_command_line, recall_from_command_line
from medhalbench.commands._locks import locked
from medhalbench.commands._models import OptionError, batchless, generate_config
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._progress import progress_display
from medhalbench.commands._reporting import compare_from_command_line, report_from_command_line
from medhalbench.commands._retry import retry_from_command_line, retry_runs
from medhalbench.commands._roles import role_names
from medhalbench.commands._run import (
    BATCH_SAMPLE_RETRIES,
    console,
    print_log_locations,
    realtime_logging,
    redacted_logs,
    run_eval,
    split_models,
)
from medhalbench.commands._serving import serve_from_command_line
from medhalbench.commands._suite import (
    Suite,
    check_suite_contexts,
    read_suite,
    stale_logs,
    suite_path,
    suite_tasks,
)
from medhalbench.commands._suite_commands import plan_from_command_line, run_from_command_line
from medhalbench.commands._tables import print_runs, print_table, show_results

__all__ = [
    "BATCH_SAMPLE_RETRIES",
    "INTERRUPTED",
    "USER_ERROR",
    "audit_from_command_line",
    "batchless",
    "check_suite_contexts",
    "command_settings",
    "compare_from_command_line",
    "console",
    "demo_from_command_line",
    "fail",
    "fail_on_unfinished",
    "generate_config",
    "index_from_command_line",
    "interruptible",
    "keep_plan",
    "locked",
    "log_folder",
    "made_for_output",
    "OptionError",
    "plan_from_command_line",
    "print_log_locations",
    "print_plans",
    "print_runs",
    "print_table",
    "progress_display",
    "read_suite",
    "realtime_logging",
    "recall_from_command_line",
    "redacted_logs",
    "refusal",
    "report",
    "report_from_command_line",
    "retry_from_command_line",
    "retry_runs",
    "role_names",
    "run_build",
    "run_build_command",
    "run_eval",
    "run_eval_command",
    "run_from_command_line",
    "run_tool_command",
    "serve_from_command_line",
    "settings_from",
    "show_results",
    "split_models",
    "stale_logs",
    "stop_code",
    "Suite",
    "suite_path",
    "suite_tasks",
    "take_values",
    "task_plan_of",
    "writable_folder",
]
