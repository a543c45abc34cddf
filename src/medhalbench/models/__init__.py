"""Model layer: inspect's providers plus our in-process embedded provider."""

from medhalbench import _lazy
from medhalbench.models._default import embedded_may_judge, is_embedded
from medhalbench.models._embedded import EmbeddedModelAPI, embedded_settings
from medhalbench.models._engine import Engine, EngineError, EnginePool, EngineSettings, engine
from medhalbench.models._front import serve_front
from medhalbench.models._gguf import resolve_gguf, smollm2_gguf_path
from medhalbench.models._gguf_export import export_gguf
from medhalbench.models._repeatability import repeatability
from medhalbench.models._system import SYSTEM_PROVIDER, SystemModelAPI, writes_nothing

__getattr__, __all__ = _lazy.exports(__name__, __file__)
