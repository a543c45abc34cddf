"""A verdict's probability from the log-probabilities of the token that states it."""

from __future__ import annotations

import math
from collections.abc import Mapping

from inspect_ai.model import Logprobs, ModelOutput

TOP_LOGPROBS = 10
"""Alternatives asked for at each token: enough to hold both answers of a binary verdict."""


def _answer(token: str, answers: Mapping[str, str]) -> str | None:
    """The answer a token states or begins: '"YES",' and ' Yes' read as "yes", and so does
    'Y' when a tokenizer spells YES as 'Y' + 'ES' (a prefix of exactly one answer)."""
    word = token.strip().strip("\"'`*.,:;{}[]()").lower()
    if not word:
        return None
    if word in answers:
        return answers[word]
    begun = {answer for spelled, answer in answers.items() if spelled.startswith(word)}
    return begun.pop() if len(begun) == 1 else None


def verdict_probability(
    reply: Logprobs | ModelOutput | None, answers: Mapping[str, str], positive: str, negative: str
) -> float | None:
    """P(positive) / (P(positive) + P(negative)) at the first token that states (or begins)
    an answer, from that token's top alternatives.

    Args:
        reply: The reply's token log-probabilities, or its model output (None, or an output
            without them, when the provider gave none).
        answers: Token text (lower-cased, stripped) to answer, e.g. `{"1": "1", "0": "0"}`
            or `{"yes": "yes", "no": "no"}`.
        positive: The answer whose probability is wanted.
        negative: Its alternative.

    Returns:
        The probability, or None without log-probabilities, without a token that states
        an answer, or when neither answer is among that token's alternatives.
    """
    if isinstance(reply, ModelOutput):  # its log-probabilities are its first choice's
        reply = reply.choices[0].logprobs if reply.choices else None
    if reply is None:
        return None
    for token in reply.content:
        if _answer(token.token, answers) is None:
            continue
        mass = {positive: 0.0, negative: 0.0}
        alternatives = token.top_logprobs or []
        if not any(a.token == token.token for a in alternatives):
            alternatives = [*alternatives, token]  # type: ignore[list-item]
        for alternative in alternatives:
            answer = _answer(alternative.token, answers)
            if answer in mass:
                mass[answer] += math.exp(alternative.logprob)
        total = mass[positive] + mass[negative]
        return mass[positive] / total if total > 0 else None
    return None
