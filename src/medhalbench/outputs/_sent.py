"""A reply as the provider sent it.

inspect moves a reasoning block that a provider sends inside the reply's text
(`<think>...</think>`, as DeepSeek-R1, Qwen3 and other open-weight models served without a
reasoning parser do) to a reasoning part of the message, so `ModelOutput.completion` is the
text after the block. The authors' scripts read the text as the server sent it, block
included: the paper-protocol columns read `reply_as_sent`, ours the completion. Reasoning a
provider sends in a field of its own (`reasoning_content`) is not part of the text, for
their scripts either, and is left out.
"""

from __future__ import annotations

from inspect_ai.model import ContentReasoning, ModelOutput

INLINE_REASONING = "think"
"""inspect's name for reasoning it parsed out of a reply's text (`ContentReasoning.internal`)."""


def reply_as_sent(output: ModelOutput | None) -> str:
    """The reply's text with each reasoning block the provider sent inside it put back, in
    the common layout (`<think>\\n...\\n</think>\\n\\n` before the answer): inspect keeps the
    block's text, not the whitespace around it."""
    if output is None or not output.choices:
        return ""
    content = output.message.content
    if isinstance(content, str):
        return content
    blocks = [
        part.reasoning
        for part in content
        if isinstance(part, ContentReasoning) and part.internal == INLINE_REASONING
    ]
    return "".join(f"<think>\n{block}\n</think>\n\n" for block in blocks) + output.completion
