"""The parts of a run's settings that benchmarks share, each declared once with what it means
when runs are set side by side (`arguments.Meaning`): how the model under test makes its
replies, the evidence a judge or detector is grounded in, and the marked types of the settings
every benchmark has. A benchmark's settings record is composed of them."""

from medhalbench.settings._shared import (
    Bootstrap,
    ExtractPrompt,
    Generation,
    Grounding,
    Outputs,
    RunData,
    SampleLimit,
    SampleSeed,
)

__all__ = [
    "Bootstrap",
    "ExtractPrompt",
    "Generation",
    "Grounding",
    "Outputs",
    "RunData",
    "SampleLimit",
    "SampleSeed",
]
