"""Outputs written elsewhere (`--responses`): scored as given, with nothing generated."""

from medhalbench.outputs._given import (
    GIVEN_OUTPUT,
    GivenOutput,
    given_output,
    match_outputs,
    nothing_generated,
    system_model,
    text_key,
)

__all__ = [
    "GIVEN_OUTPUT",
    "GivenOutput",
    "given_output",
    "match_outputs",
    "nothing_generated",
    "system_model",
    "text_key",
]
