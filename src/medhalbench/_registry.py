"""Entry point for inspect: registers our tasks and the embedded model provider."""

# ruff: noqa: F401
from medhalbench.dahl import dahl
from medhalbench.medhal import medhal
from medhalbench.medhallu import medhallu
from medhalbench.models import EmbeddedModelAPI
