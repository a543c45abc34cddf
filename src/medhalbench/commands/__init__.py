"""The command line's building blocks: options derived from declared arguments, the shared
model and connection options, which model plays each role, running evaluations and builds
through inspect with our progress display and one-line errors, and printing result tables.
The `eval`, `build` and tool commands of every benchmark are derived here from its
registry entry."""

from medhalbench.commands._builds import build_command, run_build, tool_command, tool_commands
from medhalbench.commands._derive import (
    ExamplesGroup,
    click_params,
    command_options,
    command_settings,
    examples_epilog,
    model_params,
    refusal,
    settings_from,
    take_values,
)
from medhalbench.commands._errors import (
    INTERRUPTED,
    USER_ERROR,
    fail,
    interruptible,
    report,
    stop_code,
)
from medhalbench.commands._eval import eval_command
from medhalbench.commands._failures import fail_on_unfinished
from medhalbench.commands._folders import log_folder, made_for_output, writable_folder
from medhalbench.commands._locks import locked
from medhalbench.commands._models import (
    OptionError,
    batchless,
    generate_config,
    parse_model_args,
)
from medhalbench.commands._options import (
    InputFile,
    bootstrap_option,
    connection_params,
    display_param,
    eval_model_params,
    flag,
    format_option,
)
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._progress import progress_display
from medhalbench.commands._retry import retry_runs
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
from medhalbench.commands._suite import (
    Suite,
    check_suite_contexts,
    read_suite,
    stale_logs,
    suite_path,
    suite_tasks,
)
from medhalbench.commands._tables import print_runs, print_table, show_results

__all__ = [
    "command_options",
    "command_settings",
    "generate_config",
    "model_params",
    "refusal",
    "settings_from",
    "batchless",
    "ExamplesGroup",
    "examples_epilog",
    "locked",
    "BATCH_SAMPLE_RETRIES",
    "INTERRUPTED",
    "USER_ERROR",
    "InputFile",
    "OptionError",
    "Suite",
    "build_command",
    "check_suite_contexts",
    "click_params",
    "connection_params",
    "console",
    "display_param",
    "eval_command",
    "eval_model_params",
    "fail",
    "fail_on_unfinished",
    "flag",
    "bootstrap_option",
    "format_option",
    "interruptible",
    "keep_plan",
    "parse_model_args",
    "print_log_locations",
    "print_plans",
    "print_runs",
    "print_table",
    "progress_display",
    "read_suite",
    "realtime_logging",
    "redacted_logs",
    "report",
    "retry_runs",
    "role_names",
    "run_build",
    "run_eval",
    "show_results",
    "split_models",
    "stale_logs",
    "stop_code",
    "suite_path",
    "suite_tasks",
    "take_values",
    "task_plan_of",
    "tool_command",
    "tool_commands",
    "log_folder",
    "made_for_output",
    "writable_folder",
]
