"""Plans before spending: model calls and tokens per role, and their cost at given prices."""

from medhalbench import _lazy
from medhalbench.planning._plan import (
    MAIN_ROLE,
    Plan,
    Price,
    RoleEstimate,
    input_tokens,
    plan_cost,
    plan_table,
    read_prices,
    task_plan,
)
from medhalbench.planning._tokens import MESSAGE_OVERHEAD, TOKENIZER_NAME, count_tokens, tokenizer

__getattr__, __all__ = _lazy.exports(__name__, __file__)
