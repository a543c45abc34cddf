"""Entry point for inspect: registers every benchmark's task and the embedded model provider."""

from medhalbench.models import EmbeddedModelAPI
from medhalbench.registry import benchmarks

# Loading the registry imports each benchmark's package, which registers its @task.
TASKS = [b.task for b in benchmarks()]

__all__ = ["TASKS", "EmbeddedModelAPI"]
