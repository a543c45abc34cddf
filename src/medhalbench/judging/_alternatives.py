"""Replies that offer more than one verdict instead of one ("0 or 1", "YES if ..., otherwise
NO", "True (or false, depending ...)", "between 0 and 1"), and questions that only restate
the options ("True or false? ...")."""

from __future__ import annotations

import re

from medhalbench.judging._labels import classify_label
from medhalbench.judging._prose import clause_start, negated_before, sentence
from medhalbench.judging._schema import OPPOSITE, Tone, VerdictSchema
from medhalbench.judging._values import answer_stance, read_value
from medhalbench.judging._vocabulary import WORD_CHAR, Stance, vocabulary

Token = tuple[int, int, Tone, str]
"""A verdict value in a text: where it starts and ends, what it says, and its kind (a word
kind, `digit`, `answer` for yes/no, `unsure`)."""

_DIGIT_TOKEN = r"(?<![\w.\-])([012])(?![\w])(?!\.\d)(?!-\w)"


def _word_tokens(text: str) -> list[Token]:
    words = vocabulary()
    tokens: list[Token] = []
    for match in words.found(text):
        meaning = words.meaning(match)
        prefix = text[clause_start(text, match.start()) : match.start()]
        negated = negated_before(prefix) or bool(words.negation_after.match(text[match.end() :]))
        stance: Stance = OPPOSITE[meaning.stance] if negated else meaning.stance
        tokens.append((match.start(), match.end(), stance, meaning.kind))
    return tokens


def _answer_tokens(text: str, schema: VerdictSchema) -> list[Token]:
    words = vocabulary()
    tokens: list[Token] = []
    for pattern, affirm in ((words.yes, True), (words.no, False)):
        for match in pattern.finditer(text):
            if affirm or not words.faults.match(text[match.end() :].lstrip()):
                answered = answer_stance(schema, affirm)
                assert answered is not None
                tokens.append((match.start(), match.end(), answered, "answer"))
    return tokens


def value_tokens(text: str, schema: VerdictSchema) -> list[Token]:
    """Verdict values standing alone in the text (digits, yes/no, verdict words), for
    finding alternatives offered between them."""
    tokens = _word_tokens(text)
    for match in re.finditer(_DIGIT_TOKEN, text):
        coded = schema.digits.get(match.group(1))
        if coded is not None:
            tokens.append((match.start(), match.end(), coded, "digit"))
    if schema.yes is not None:
        tokens += _answer_tokens(text, schema)
    unsure = vocabulary().unsure.finditer(text)
    tokens += [(m.start(), m.end(), "unsure", "unsure") for m in unsure]
    return sorted(tokens)


_QUESTION_AFTER = re.compile(r"^\s*[?？:：]")


def asks(text: str, end: int) -> bool:
    """Whether options ending at `end` are a question an answer follows ("True or false?
    True"), not alternatives offered ("0 or 1?" and nothing else)."""
    question = _QUESTION_AFTER.match(text[end:])
    if question is None:
        return False
    return bool(re.search(WORD_CHAR, text[end + question.end() :]))


# Before options that end in a colon, a question lists them ("Is it true or false:") or
# nothing does ("True or false:"); a statement ("It is false or true:") asks nothing.
_ASKS_BEFORE = re.compile(
    r"\W*(?:(?:is|are|was|were|does|do|did|can|could|would|should|whether)\b.*)?", re.I | re.S
)


def _joined_as_options(text: str, first: Token, second: Token) -> bool:
    """Two values of one kind and different verdicts joined by an alternative ("true or
    false", "0 / 1")."""
    words = vocabulary()
    joined = text[first[1] : second[0]]
    return (
        first[2] != second[2]
        and first[3] == second[3]
        and bool(
            re.fullmatch(
                rf"\s*(?:,\s*)?(?:{words.alternatives.pattern}|/)\s*", joined, re.IGNORECASE
            )
        )
    )


def option_questions(text: str, schema: VerdictSchema) -> list[tuple[int, int]]:
    """Where the reply restates the question's options ("True or false?", "Is the statement
    true or false:"): from the start of the sentence to the question mark or colon, and a
    yes or no after it, which answers an either-or question with nothing."""
    tokens = value_tokens(text, schema)
    words = vocabulary()
    spans = []
    for first, second in zip(tokens, tokens[1:], strict=False):
        if not _joined_as_options(text, first, second):
            continue  # a question lists options of one kind ("true or false?", "0 or 1?")
        question = _QUESTION_AFTER.match(text[second[1] :])
        if question is None or not asks(text, second[1]):
            continue
        begin, _ = sentence(text, first[0])
        colon = question.group().strip() in ":："
        if colon and not _ASKS_BEFORE.fullmatch(text[begin : first[0]]):
            continue  # "The statement is not factual or factual: yes" asks nothing
        end = second[1] + question.end()
        blank = len(text[end:]) - len(text[end:].lstrip())
        answer = words.yes.match(text, end + blank) or words.no.match(text, end + blank)
        spans.append((begin, answer.end() if answer else end))
    return spans


def _labelled(text: str, token: Token, schema: VerdictSchema) -> Token:
    """A token that is a label ("factual: no") stands for its value's verdict."""
    colon = re.match(r"[ \t]*[:：][ \t]*", text[token[1] :])
    classified = classify_label(text[token[0] : token[1]]) if colon else None
    if colon is None or classified is None or classified[0] == "explanation":
        return token
    value = read_value(text, token[1] + colon.end(), schema, classified[0])
    if value.tone not in ("holds", "fails", "unsure"):
        return token
    return (token[0], value.end, value.tone, "label")


def _between_two(text: str, after: list[Token]) -> bool:
    """ "between 0 and 1": a verdict between two different ones."""
    if after[0][2] == after[1][2]:
        return False
    between = text[after[0][1] : after[1][0]]
    conjunctions = vocabulary().conjunctions.pattern
    return bool(re.fullmatch(rf"\s*(?:{conjunctions}|&)\s*", between, re.IGNORECASE))


def _offered_at(
    text: str, connector: re.Match[str], tokens: list[Token], schema: VerdictSchema
) -> str | None:
    """Why the values on either side of one connector ("or", "/", "between") are offered
    as alternatives, or None."""
    start, end = connector.span()
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = [t for t in tokens if line_start <= t[0] and t[1] <= start and start - t[1] <= 80]
    after = [t for t in tokens if end <= t[0] < line_end and t[0] - end <= 80]
    if connector.group(0).lower() == "between" and len(after) >= 2:
        return "offers a verdict between two" if _between_two(text, after) else None
    if not before or not after:
        return None
    first, second = before[-1], _labelled(text, after[0], schema)
    if first[2] == second[2]:
        return None
    if first[3] == second[3] and asks(text, second[1]):
        return None  # "True or false? ...": the question, not an answer
    return "offers both verdicts as alternatives"


def offers_both(text: str, schema: VerdictSchema) -> str | None:
    """Why the reply offers more than one verdict instead of one ("0 or 1", "YES if ...,
    otherwise NO", "True (or false, depending ...)", "between 0 and 1"), or None. A
    question that lists the options ("True or false? ...") offers nothing."""
    words = vocabulary()
    tokens = value_tokens(text, schema)
    connectors = re.finditer(rf"{words.alternatives.pattern}|/|\bbetween\b", text, re.IGNORECASE)
    for connector in connectors:
        offered = _offered_at(text, connector, tokens, schema)
        if offered:
            return offered
    for first, second in zip(tokens, tokens[1:], strict=False):
        joined = text[first[1] : second[0]]
        if first[2] != second[2] and re.fullmatch(r"\s*(?:and|&)\s*", joined, re.I):
            if first[3] != second[3] or not asks(text, second[1]):
                return "offers both verdicts joined"
        if first[2] != second[2] and _in_part(text, first) and _in_part(text, second):
            if sentence(text, first[0]) == sentence(text, second[0]):
                return "gives each verdict in part (a tie)"  # "half right, half wrong"
    return None


def _in_part(text: str, token: Token) -> bool:
    """Whether a verdict value is given in part ("half wrong", "partly true")."""
    prefix = text[clause_start(text, token[0]) : token[0]]
    return bool(re.search(rf"(?:{vocabulary().partial.pattern})\s*$", prefix, re.I))
