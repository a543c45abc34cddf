"""medhalbench: measure hallucination of large language models in medicine."""

from medhalbench._errors import DataError, MedhalbenchError, ResourceUnavailableError

__version__ = "0.1.0"

__all__ = ["DataError", "MedhalbenchError", "ResourceUnavailableError", "__version__"]
