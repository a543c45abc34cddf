"""Plans before spending: model calls and tokens per role, and their cost at given prices."""

from medhalbench.planning._plan import (
    MAIN_ROLE,
    Plan,
    Price,
    RoleEstimate,
    plan_table,
    read_prices,
    task_plan,
)
from medhalbench.planning._tokens import MESSAGE_OVERHEAD, TOKENIZER_NAME, count_tokens, tokenizer

__all__ = [
    "MAIN_ROLE",
    "MESSAGE_OVERHEAD",
    "TOKENIZER_NAME",
    "Plan",
    "Price",
    "RoleEstimate",
    "count_tokens",
    "plan_table",
    "read_prices",
    "task_plan",
    "tokenizer",
]
