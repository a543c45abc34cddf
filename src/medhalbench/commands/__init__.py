"""Building blocks of medhalbench's commands: model and connection options, running tasks
through inspect with our progress and errors, printing results tables. Each benchmark builds
its own `eval` and `build` commands from these."""

from medhalbench.commands._defaults import default_of
from medhalbench.commands._errors import INTERRUPTED, USER_ERROR, fail, interruptible, report
from medhalbench.commands._generic import task_eval_command
from medhalbench.commands._models import (
    DEFAULT_ATTEMPT_TIMEOUT,
    DEFAULT_MAX_RETRIES,
    OptionError,
    parse_model_args,
)
from medhalbench.commands._plans import keep_plan, print_plans, task_plan_of
from medhalbench.commands._progress import progress_display
from medhalbench.commands._run import (
    BATCH_SAMPLE_RETRIES,
    DEFAULT_LOG_DIR,
    DISPLAYS,
    absolute,
    builder_model_options,
    console,
    fail_on_unfinished,
    figure_options,
    model_options,
    print_log_locations,
    prompt_options,
    realtime_logging,
    role_model,
    run_build,
    run_eval,
    split_models,
)
from medhalbench.commands._suite import Suite, read_suite, suite_path, suite_tasks
from medhalbench.commands._tables import print_runs, print_table, show_results
from medhalbench.commands._types import (
    COUNT,
    FRACTION,
    NON_NEGATIVE,
    POSITIVE,
    SHARE,
    TEMPERATURE,
)

__all__ = [
    "keep_plan",
    "Suite",
    "read_suite",
    "realtime_logging",
    "suite_path",
    "suite_tasks",
    "task_plan_of",
    "BATCH_SAMPLE_RETRIES",
    "COUNT",
    "DEFAULT_ATTEMPT_TIMEOUT",
    "DEFAULT_LOG_DIR",
    "DEFAULT_MAX_RETRIES",
    "DISPLAYS",
    "FRACTION",
    "INTERRUPTED",
    "NON_NEGATIVE",
    "POSITIVE",
    "SHARE",
    "TEMPERATURE",
    "USER_ERROR",
    "OptionError",
    "absolute",
    "builder_model_options",
    "console",
    "default_of",
    "fail",
    "fail_on_unfinished",
    "figure_options",
    "interruptible",
    "model_options",
    "parse_model_args",
    "print_log_locations",
    "print_plans",
    "print_runs",
    "print_table",
    "progress_display",
    "prompt_options",
    "report",
    "role_model",
    "run_build",
    "run_eval",
    "show_results",
    "split_models",
    "task_eval_command",
]
