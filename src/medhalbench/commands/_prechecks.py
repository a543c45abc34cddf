"""Checks of a run before any work, beyond its options' own: every sample has its own id (a
duplicate would surface only when inspect starts), and an embedded model's context holds the
prompts (a context, `-M n_ctx=N`, too small for the longest prompt and its reply would leave
every reply empty: it is refused with the size the prompts need)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from inspect_ai import Task

from medhalbench._errors import DataError
from medhalbench.commands._models import Connection, OptionError
from medhalbench.planning import Plan, input_tokens
from medhalbench.results import MAIN_ROLE
from medhalbench.settings import normalise_model_name

EMBEDDED = "embedded/"
DEFAULT_REPLY_TOKENS = 512
"""The embedded model's reply length when a task sets none."""


def _context(name: str, via: Connection) -> int | None:
    """The context (`-M n_ctx=N`) given to an embedded model; None for any other model, or
    when none is given (the default fits)."""
    value = via.args.get("n_ctx")
    if not normalise_model_name(name).startswith(EMBEDDED):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def longest_prompt(task: Task) -> int:
    """Tokens of the task's longest sample input (SmolLM2's tokenizer, the embedded one)."""
    return max(input_tokens([s.input for s in task.dataset]), default=0)


def _refuse(option: str, n_ctx: int, prompt: int, reply: int, what: str) -> None:
    raise OptionError(
        f"{option} n_ctx={n_ctx}: too small for {what}: it needs {prompt:,} tokens of prompt "
        f"and up to {reply:,} of reply, a context of at least {prompt + reply:,} (give "
        "-M n_ctx=N, or leave it out for the default)"
    )


def check_sample_ids(tasks: Sequence[Task]) -> None:
    """Refuse a task whose samples share an id (inspect would stop when it starts).

    Raises:
        DataError: Naming the dataset and the first id given twice.
    """
    for task in tasks:
        counts = Counter(str(s.id) for s in task.dataset if s.id is not None)
        twice = [(i, n) for i, n in counts.items() if n > 1]
        if twice:
            sample_id, times = twice[0]
            raise DataError(
                f"the sample id {sample_id[:60]!r} is given to {times} samples"
                + (f" ({len(twice)} ids given more than once)" if len(twice) > 1 else "")
                + "; ids must be unique",
                path=task.dataset.name or task.name,
            )


def check_before_work(
    tasks: Sequence[Task],
    plans: Sequence[Plan],
    models: Mapping[str, Connection],
    roles: Mapping[str, tuple[str, Connection]],
) -> None:
    """Refuse, before any work (a dry run's too), a task whose samples share an id
    (`check_sample_ids`) or an embedded model whose context cannot hold a prompt and its reply.

    Args:
        tasks: The tasks.
        plans: Their plans (a judge's calls and tokens per call).
        models: Each model under test with its connection.
        roles: Each role's model name and connection.

    Raises:
        DataError: Naming the dataset and the first id given twice.
        OptionError: Naming the option, the context given and the size needed.
    """
    check_sample_ids(tasks)
    for name, via in models.items():
        n_ctx = _context(name, via)
        if n_ctx is None:
            continue
        for task in tasks:
            prompt = longest_prompt(task)
            reply = task.config.max_tokens or DEFAULT_REPLY_TOKENS
            if prompt + reply > n_ctx:
                _refuse("-M", n_ctx, prompt, reply, f"the longest prompt of {task.name}")
    for role, (name, via) in roles.items():
        n_ctx = _context(name, via)
        if n_ctx is None:
            continue
        for plan in plans:
            for estimate in plan.roles:
                if estimate.role != role or estimate.role == MAIN_ROLE or not estimate.calls:
                    continue
                # The plan knows a role's tokens in all: per call, on average.
                prompt = estimate.input_tokens // estimate.calls
                reply = estimate.output_tokens // estimate.calls
                if prompt + reply > n_ctx:
                    _refuse(f"--role-arg {role}:", n_ctx, prompt, reply, f"the {role}'s calls")
