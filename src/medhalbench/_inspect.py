"""Entry point for inspect: registers every benchmark's task, the embedded model provider and
the `system/NAME` provider of outputs written elsewhere."""

from medhalbench.models import EmbeddedModelAPI, SystemModelAPI
from medhalbench.registry import benchmarks

# Loading each benchmark's implementation registers its @task.
TASKS = [b.implementation.task for b in benchmarks()]

__all__ = ["TASKS", "EmbeddedModelAPI", "SystemModelAPI"]
