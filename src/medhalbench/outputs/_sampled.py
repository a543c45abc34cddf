"""The model under test's reply, generated with a seed of its epoch's own, so that epochs
sample (a temperature above 0 gives each epoch its own draw) and still repeat run to run."""

from __future__ import annotations

import hashlib

from inspect_ai.model._generate_config import active_generate_config
from inspect_ai.solver import Generate, Solver, TaskState, solver

SEED_RANGE = 2**31
"""Derived seeds stay below this: every provider that takes a seed takes a 32-bit one."""


def epoch_seed(seed: int, epoch: int, sample_id: str | int) -> int:
    """The seed sent for one epoch of one sample: the run's seed in the first epoch (what
    `--reply-seed` says is sent), and one derived from it, the epoch and the sample after.

    Args:
        seed: The run's reply seed.
        epoch: The epoch, from 1.
        sample_id: The sample's id.

    Returns:
        The seed to send.
    """
    if epoch <= 1:
        return seed
    digest = hashlib.sha256(f"{seed}\x00{epoch}\x00{sample_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_RANGE


async def generate_for_epoch(state: TaskState, generate: Generate) -> TaskState:
    """Generate the reply with its epoch's seed (as is when the run sends no seed). A tool
    call in the reply (none is offered) is its last turn, read as the reply: it is never
    answered as a tool, which would ask the model again without end."""
    # inspect's effective config for this task: the run's seed, however it was set.
    seed = active_generate_config().seed
    if seed is None or state.epoch <= 1:
        return await generate(state, tool_calls="none")
    seeded = epoch_seed(seed, state.epoch, state.sample_id)
    return await generate(state, tool_calls="none", seed=seeded)


@solver
def epoch_generate() -> Solver:
    """Generate the reply, each epoch after the first with a seed of its own (`epoch_seed`)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate_for_epoch(state, generate)

    return solve
