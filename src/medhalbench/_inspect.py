"""Entry point for inspect: registers every benchmark's task, the embedded model provider and
the `system/NAME` provider of outputs written elsewhere."""

from medhalbench.models import EmbeddedModelAPI, SystemModelAPI
from medhalbench.registry import benchmarks

# Loading the registry imports each benchmark's package, which registers its @task.
TASKS = [b.task for b in benchmarks()]

__all__ = ["TASKS", "EmbeddedModelAPI", "SystemModelAPI"]
