"""Natural language inference: P(premise entails hypothesis) and bidirectional entailment."""

from medhalbench import _lazy
from medhalbench.nli._base import NLIModel, bidirectional_entailment, entailment
from medhalbench.nli._llm import LLM_NLI_MAX_TOKENS, LLMNLI, nli_prompt
from medhalbench.nli._load import is_llm_judge, llm_judge, load_nli
from medhalbench.nli._transformers import DEFAULT_NLI_MODEL, TransformersNLI, entailment_index

__getattr__, __all__ = _lazy.exports(__name__, __file__)
