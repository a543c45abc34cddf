"""What the command line's commands run (`cli` declares them, lightly, and names these by
`module:attribute`): each command's values validated by their settings models, which model
plays each role, evaluations and builds run through inspect with our progress display and
one-line errors, and result tables printed."""

from medhalbench import _lazy
from medhalbench.commands._auditing import audit_from_command_line
from medhalbench.commands._builds import run_build_command, run_tool_command
from medhalbench.commands._demo import demo_from_command_line
from medhalbench.commands._errors import report
from medhalbench.commands._eval import run_eval_command
from medhalbench.commands._folders import made_for_output, writable_folder
from medhalbench.commands._indexing import index_from_command_line, recall_from_command_line
from medhalbench.commands._models import OptionError, generate_config
from medhalbench.commands._plans import keep_plan, task_plan_of
from medhalbench.commands._reporting import compare_from_command_line, report_from_command_line
from medhalbench.commands._reproducing import reproduce_from_command_line
from medhalbench.commands._rescoring import rescore_from_command_line
from medhalbench.commands._retry import retry_from_command_line
from medhalbench.commands._serving import serve_from_command_line
from medhalbench.commands._suite_commands import plan_from_command_line, run_from_command_line
from medhalbench.commands._tables import print_table

__getattr__, __all__ = _lazy.exports(__name__, __file__)
