"""Text components: sentence splitting, answer cleaning and text fit for a terminal."""

from medhalbench import _lazy
from medhalbench._terminal import printable
from medhalbench.text._cleaning import CleanedResponse, clean_response, is_declining
from medhalbench.text._sentences import ends_complete, split_sentences

__getattr__, __all__ = _lazy.exports(__name__, __file__)
