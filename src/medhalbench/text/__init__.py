"""Text components: sentence splitting, answer cleaning and text fit for a terminal."""

from medhalbench.text._cleaning import CleanedResponse, clean_response, is_declining
from medhalbench.text._printable import printable
from medhalbench.text._sentences import ends_complete, split_sentences

__all__ = [
    "CleanedResponse",
    "clean_response",
    "ends_complete",
    "is_declining",
    "printable",
    "split_sentences",
]
