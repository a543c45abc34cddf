"""A reply's text exactly as the provider sent it.

inspect moves a reasoning block that a provider sends inside the reply's text
(`<think>...</think>`, as DeepSeek-R1, Qwen3 and other open-weight models served without a
reasoning parser do) to a reasoning part of the message and strips the text around it, so
`ModelOutput.completion` is not what the server sent. The authors' scripts read the text as
sent (block, whitespace and all), so each call's text is kept, as the provider's response
holds it, in the output's metadata (`TEXT_AS_SENT`) before inspect logs or caches the output:
the paper-protocol columns read it, ours the completion. Reasoning a provider sends in a field
or part of its own (`reasoning_content`, a thinking block) is not part of the text, for their
scripts either, and is left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from inspect_ai.model import ModelOutput, StopReason

TEXT_AS_SENT = "text_as_sent"
"""The key of `ModelOutput.metadata` that holds the first choice's text as sent."""

PAPER_READS = "each reply's text as the provider sent it"
"""What the paper columns read, as a run's log states it (`RunFacts.paper_reads`)."""
PaperText = Literal["as sent", "completion"]
"""What a paper column read: every reply's text as sent, or, for a reply whose text was not
kept (cached before it was kept, or a response of a layout we do not know), inspect's
completion."""


def keep_text_as_sent(result: Any) -> None:
    """Keep the text of a provider's response in its output's metadata (a provider's
    `generate` result: an output and the call's record; nothing is kept without a record)."""
    if not isinstance(result, tuple):
        return
    output, call = result
    response = getattr(call, "response", None)
    if isinstance(output, ModelOutput) and isinstance(response, Mapping):
        text = text_in_response(response)
        if text is not None:
            output.metadata = {**(output.metadata or {}), TEXT_AS_SENT: text}


def text_in_response(response: Mapping[str, Any]) -> str | None:
    """The first choice's text in a provider's response, by its layout: OpenAI's chat
    completions (and the servers speaking it: vLLM, SGLang, Together, Groq, Mistral, ours),
    OpenAI's responses, Anthropic's messages, Google's candidates; None for another layout."""
    match response:
        case {"choices": [{"message": Mapping() as message}, *_]}:
            return _text_parts(message.get("content"), ("text",))
        case {"output": list(items)}:
            return "".join(
                _text_parts(item.get("content"), ("output_text",)) or ""
                for item in items
                if isinstance(item, Mapping) and item.get("type") == "message"
            )
        case {"content": list(blocks), "role": "assistant"}:
            return _text_parts(blocks, ("text",))
        case {"candidates": [{"content": {"parts": list(parts)}}, *_]}:
            return "".join(
                str(p.get("text") or "")
                for p in parts
                if isinstance(p, Mapping) and not p.get("thought")
            )
    return None


def _text_parts(content: Any, kinds: tuple[str, ...]) -> str | None:
    """A message's text: the string, or its text parts joined (None: no content)."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        return "".join(
            str(part.get("text") or "")
            for part in content
            if isinstance(part, Mapping) and part.get("type") in kinds
        )
    return None


def reply_as_sent(output: ModelOutput | None) -> str:
    """The reply's text as the provider sent it; inspect's completion where it was not kept
    (see `paper_text`)."""
    if output is None or not output.choices:
        return ""
    kept = (output.metadata or {}).get(TEXT_AS_SENT)
    return kept if isinstance(kept, str) else output.completion


def stop_reason(output: ModelOutput | None) -> StopReason | None:
    """Why the reply stopped; None where there is no reply (an output without a choice: a
    call stopped by its error, or by the call ceiling)."""
    return output.choices[0].stop_reason if output is not None and output.choices else None


def paper_text(outputs: list[ModelOutput | None]) -> PaperText:
    """What a paper column read of these outputs: "as sent" when every reply's text was
    kept."""
    kept = all(
        o is None or not o.choices or isinstance((o.metadata or {}).get(TEXT_AS_SENT), str)
        for o in outputs
    )
    return "as sent" if kept else "completion"
