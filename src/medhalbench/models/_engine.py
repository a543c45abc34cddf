"""llama.cpp's own server engine, in-process, through the prebuilt `xllamacpp` wheel.

A reply must not depend on what else is being decoded, or on what the engine decoded
before: the same command must give the same replies. llama.cpp's continuous batching breaks
the first (a sequence's logits change with the batch it shares), and reusing a cached
prompt prefix breaks the second unless the numerics are the same with and without the
cache. So the embedded model runs `parallel` replicas of one slot each (the weights are
memory-mapped once), each on one CPU thread with flash attention and small micro-batches:
then a prompt gives the same logits whether it is processed cold, after a cached prefix, or
wholly from the cache (measured in bench/embedded_repeatability.py, with the speed cost).
Calls are thread-safe and release the GIL, so inspect's worker threads run them side by side;
each goes to a free replica, preferring the one whose last prompt shares the longest prefix.

The price of exactness is one core per call: a call alone processes its prompt at about half
the speed of llama.cpp's defaults (all cores, micro-batches of 512), while `parallel` calls in
flight, as inspect sends them, match it within 10-15% (bench/embedded_prompt_throughput.py).
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medhalbench._errors import MedhalbenchError, ResourceUnavailableError

DEFAULT_N_CTX = 8192
DEFAULT_CACHE_RAM_MIB = 256


DETERMINISTIC_THREADS = 1
"""CPU threads per replica. With more, a prompt read from the cache (a suffix of a few tokens,
or its last token alone, processed after it) gives other logits than the same prompt
processed cold; and 2 threads give other replies than 1 (bench/embedded_prompt_throughput.py:
3 of 12 sampled replies equal)."""
MICRO_BATCH = 32
"""Tokens per micro-batch of prompt processing. From 64 up, flash attention takes its tiled
path for full micro-batches and the vector path for the rest, so a prompt processed after a
cached prefix (other micro-batch boundaries) gives other logits than the same prompt processed
cold; 32 and 33 were measured exact. Larger ones would buy about 15% of prompt speed
(128: 248 against 213 tokens/s on one thread)."""
FLASH_ATTENTION_ON = 1
"""llama.cpp's `flash_attn_type` value for "enabled" (-1 is auto, 0 disabled)."""


def default_parallel() -> int:
    """Replicas decoding at once: one per core up to 4. Each holds a call's whole context
    (SmolLM2 at 8192 tokens: about 190 MB of KV cache) and uses one thread."""
    return max(1, min(os.cpu_count() or 1, 4))


class EngineError(MedhalbenchError, RuntimeError):
    """The engine refused a request (e.g. a prompt larger than a slot's context)."""


@dataclass(frozen=True)
class EngineSettings:
    """What makes two engines different (one engine exists per distinct settings).

    Attributes:
        path: GGUF file.
        n_ctx: Context window of one call, in tokens.
        parallel: Calls decoded at once (replicas of one slot each in-process; slots of
            one server for `medhalbench serve`).
        n_threads: CPU threads per replica (more than 1 gives up exact repeatability).
        n_gpu_layers: Layers offloaded to a GPU (0 on CPU-only wheels).
        cache_ram_mib: Host memory per replica for cached prompt prefixes, in MiB (0: none).
    """

    path: str
    n_ctx: int = DEFAULT_N_CTX
    parallel: int = 2
    n_threads: int = DETERMINISTIC_THREADS
    n_gpu_layers: int = 0
    cache_ram_mib: int = DEFAULT_CACHE_RAM_MIB

    @property
    def repeatable(self) -> bool:
        """Whether replies are independent of scheduling and of the prompt cache."""
        return self.n_threads == DETERMINISTIC_THREADS


class Engine:
    """A loaded GGUF model answering OpenAI-style chat and completion requests.

    Args:
        settings: Model file and engine settings.
        slots: Calls one engine decodes at once (continuous batching: more than one makes a
            reply depend on the batch it shared).
        port: Also serve HTTP on 127.0.0.1 at this port (0: a free port, used only for
            tokenising; any other port makes it an OpenAI-compatible server).
        alias: Model name the HTTP server reports.
        api_key: Key the HTTP server requires (a random one when None).
    """

    def __init__(
        self,
        settings: EngineSettings,
        *,
        slots: int = 1,
        port: int = 0,
        alias: str | None = None,
        api_key: str | None = None,
    ) -> None:
        try:
            import xllamacpp
        except ImportError as ex:  # pragma: no cover - a dependency of the package
            raise ResourceUnavailableError(
                "The embedded model needs the 'xllamacpp' package (pip install xllamacpp)."
            ) from ex
        self.settings = settings
        self.api_key = api_key if api_key is not None else secrets.token_hex(16)
        params = xllamacpp.CommonParams()
        params.model.path = settings.path
        # Slots do not share one KV buffer: each call is sure of its full context.
        params.n_ctx = settings.n_ctx * slots
        params.n_parallel = slots
        params.kv_unified = False
        params.cpuparams.n_threads = settings.n_threads
        params.cpuparams_batch.n_threads = settings.n_threads
        params.flash_attn_type = FLASH_ATTENTION_ON
        params.n_ubatch = MICRO_BATCH
        params.n_gpu_layers = settings.n_gpu_layers
        params.cache_ram_mib = settings.cache_ram_mib
        params.verbosity = -1
        params.port = port
        params.api_keys = [self.api_key] if self.api_key else []
        if alias:
            params.model_alias = [alias]
        try:
            self._server: Any = xllamacpp.Server(params)
        except Exception as ex:
            where = f" or serve on 127.0.0.1:{port} (is the port in use?)" if port else ""
            raise ResourceUnavailableError(
                f"llama.cpp could not load {settings.path}{where}: {ex}"
            ) from None
        self.address = str(self._server.listening_address)

    def chat(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI chat-completions request (blocking; thread-safe)."""
        return self._checked(self._server.handle_chat_completions(request))

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI completions request (prompt text or token ids)."""
        return self._checked(self._server.handle_completions(request))

    def tokenize(self, text: str) -> list[int]:
        """The model's token ids for a text (no special tokens added)."""
        request = urllib.request.Request(
            f"{self.address}/tokenize",
            data=json.dumps({"content": text, "add_special": False}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return list(json.loads(response.read())["tokens"])

    def close(self) -> None:
        """Stop the engine's threads and free the model."""
        self._server = None

    def _checked(self, response: dict[str, Any]) -> dict[str, Any]:
        error = response.get("error") if isinstance(response, dict) else None
        if error:
            message = error.get("message", str(error)) if isinstance(error, dict) else str(error)
            if "context size" in message.lower():
                message += (
                    f" (a call may use {self.settings.n_ctx} tokens; raise it with -M n_ctx=N)"
                )
            raise EngineError(f"embedded model {Path(self.settings.path).name}: {message}")
        return response


def _prompt_text(request: dict[str, Any]) -> str:
    messages = request.get("messages") or []
    return "\x00".join(str(m.get("content", "")) for m in messages) or str(request.get("prompt"))


class EnginePool:
    """`settings.parallel` single-slot engines serving calls side by side: each call waits
    for a free one, preferring the one whose last prompt shares the longest prefix with it
    (its KV cache then holds that prefix). Loaded one by one, on demand."""

    def __init__(self, settings: EngineSettings) -> None:
        self.settings = settings
        self._engines: list[Engine] = []
        self._last_prompt: dict[int, str] = {}
        self._free: list[int] = []
        self._ready = threading.Condition()

    def _acquire(self, prompt: str) -> Engine:
        with self._ready:
            while not self._free and len(self._engines) >= self.settings.parallel:
                self._ready.wait()
            if not self._free:
                # Loading holds the lock: another caller would otherwise load one too many.
                self._engines.append(Engine(self.settings))
                self._free.append(len(self._engines) - 1)
            best = max(
                self._free,
                key=lambda i: len(os.path.commonprefix([self._last_prompt.get(i, ""), prompt])),
            )
            self._free.remove(best)
            self._last_prompt[best] = prompt
            return self._engines[best]

    def _release(self, engine: Engine) -> None:
        with self._ready:
            self._free.append(self._engines.index(engine))
            self._ready.notify()

    def _call(self, request: dict[str, Any], chat: bool) -> dict[str, Any]:
        engine = self._acquire(_prompt_text(request))
        try:
            return engine.chat(request) if chat else engine.complete(request)
        finally:
            self._release(engine)

    def chat(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI chat-completions request (blocking; thread-safe)."""
        return self._call(request, chat=True)

    def complete(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answer an OpenAI completions request (prompt text or token ids)."""
        return self._call(request, chat=False)

    def tokenize(self, text: str) -> list[int]:
        """The model's token ids for a text (no special tokens added)."""
        with self._ready:
            if not self._engines:
                self._engines.append(Engine(self.settings))
                self._free.append(0)
            first = self._engines[0]
        return first.tokenize(text)

    def close(self) -> None:
        """Stop every engine's threads and free the model."""
        with self._ready:
            for loaded in self._engines:
                loaded.close()
            self._engines.clear()
            self._free.clear()


_engines: dict[EngineSettings, EnginePool] = {}
_engines_lock = threading.Lock()


def engine(settings: EngineSettings) -> EnginePool:
    """The process-wide engines for these settings (loaded on first use)."""
    with _engines_lock:
        if settings not in _engines:
            _engines[settings] = EnginePool(settings)
        return _engines[settings]


def loaded_engines() -> list[EngineSettings]:
    """Settings of the engines loaded in this process."""
    with _engines_lock:
        return list(_engines)


@atexit.register
def _close_engines() -> None:
    # Stop the engines' threads while the interpreter is intact.
    with _engines_lock:
        for loaded in _engines.values():
            loaded.close()
        _engines.clear()
