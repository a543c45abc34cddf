"""Solvers: answer a question, or take an answer written elsewhere."""

from __future__ import annotations

from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def given_response() -> Solver:
    """Use the response in the sample's metadata instead of generating one."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        response = str(state.metadata["response"])
        state.output = ModelOutput.from_content(model="given", content=response)
        state.messages.append(ChatMessageAssistant(content=response, source="generate"))
        return state

    return solve
