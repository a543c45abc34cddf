"""Text components: sentence splitting and answer cleaning."""

from medhalbench.text._cleaning import CleanedResponse, clean_response, is_declining
from medhalbench.text._sentences import ends_complete, split_sentences

__all__ = ["CleanedResponse", "clean_response", "ends_complete", "is_declining", "split_sentences"]
