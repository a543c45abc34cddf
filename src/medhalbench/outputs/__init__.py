"""How the reply under test is had: generated with a seed per epoch (in our layout, or as its
authors' script called it: `--paper-call`), or written elsewhere (`--responses`) and scored
as given; and each reply's text exactly as the provider sent it, for the paper columns."""

from medhalbench import _lazy
from medhalbench.outputs._given import (
    GIVEN_OUTPUT,
    GivenOutput,
    Matched,
    given_output,
    left_out_facts,
    match_outputs,
    system_model,
    text_key,
)
from medhalbench.outputs._paper_call import (
    AuthorsCall,
    Layout,
    authors_layout,
    one_user_message,
    reply_config,
    reply_solvers,
)
from medhalbench.outputs._sampled import epoch_generate, epoch_seed, generate_for_epoch
from medhalbench.outputs._sent import (
    PAPER_READS,
    TEXT_AS_SENT,
    PaperText,
    keep_text_as_sent,
    paper_text,
    reply_as_sent,
    stop_reason,
    text_in_response,
)

__getattr__, __all__ = _lazy.exports(__name__, __file__)
