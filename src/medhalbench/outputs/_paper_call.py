"""The call to the model under test as the authors' scripts made it (`--paper-call ROUTE`):
their message layout and generation settings, on the route their script took (`open`, for
open-weight models; `openai`, their OpenAI API route). The prompts stay ours unless the user
gives theirs as files; each benchmark declares its routes (`PAPER_CALLS` in its task)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

Layout = Callable[[str, str], list[ChatMessage]]
"""The messages a script sent, from the system prompt and the user's text."""


def one_user_message(separator: str) -> Layout:
    """The system prompt put in front of the user's text, in one user message."""
    return lambda system, user: [ChatMessageUser(content=f"{system}{separator}{user}")]


@dataclass(frozen=True)
class AuthorsCall:
    """How an authors' script called the model under test on one route.

    Attributes:
        layout: The messages it sent.
        config: Its generation settings (what it left unset, the provider's default).
    """

    layout: Layout
    config: GenerateConfig


def reply_config(call: AuthorsCall | None, ours: GenerateConfig) -> GenerateConfig:
    """The call under test's generation settings: ours, or on the authors' route theirs, with
    the log-probabilities ours asks for (which change nothing that is sampled)."""
    if call is None:
        return ours
    return call.config.merge(GenerateConfig(logprobs=ours.logprobs, top_logprobs=ours.top_logprobs))


def reply_solvers(call: AuthorsCall | None, generate: Solver) -> list[Solver]:
    """The solvers that make the call under test: `generate`, after the authors' layout on
    their route."""
    return [authors_layout(call.layout), generate] if call else [generate]


@solver
def authors_layout(layout: Layout) -> Solver:
    """Send the sample's system prompt and user text in the authors' layout."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        system = "\n".join(m.text for m in state.messages if isinstance(m, ChatMessageSystem))
        user = "\n".join(m.text for m in state.messages if isinstance(m, ChatMessageUser))
        state.messages = layout(system, user)
        return state

    return solve
