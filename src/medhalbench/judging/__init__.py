"""What every verdict reader shares: the strict reader and its words, the extractor that
reads what it cannot, and verdict probabilities. Each benchmark's reader is the shared reader
with a schema (what "yes" means, which digits are verdicts, which words stand alone); the
contract (a reply read only when every cue it gives names one class) and its measured
precision are in this package's README, the words of every language in `verdict_words.yaml`.
"""

from medhalbench import _lazy
from medhalbench.judging._extract import extractor_template, read_then_extract
from medhalbench.judging._probability import TOP_LOGPROBS, verdict_probability
from medhalbench.judging._reader import Cues, decide, read_stance, read_with_cues
from medhalbench.judging._reply import (
    Reading,
    prepare_reply,
    read_reply,
    strip_reasoning,
)
from medhalbench.judging._schema import VerdictSchema
from medhalbench.judging._version import reader_version
from medhalbench.judging._vocabulary import Stance, vocabulary
from medhalbench.judging._yes_no import parse_yes_no

__getattr__, __all__ = _lazy.exports(__name__, __file__)
