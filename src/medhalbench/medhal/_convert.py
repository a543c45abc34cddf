"""Turning work items into paired factual / non-factual MedHal samples."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import GenerateConfig, Model

from medhalbench._prompts import read_prompt
from medhalbench.medhal._records import MedHalRecord
from medhalbench.medhal._sources import NLIItem, NoteItem, QAItem, SummaryItem
from medhalbench.nli import NLIModel, entailment
from medhalbench.text import split_sentences

CONVERTER_MAX_TOKENS = 160
MIN_REWRITE_CHARS = 100

# "Ans. is 'c' i.e., ...", "Answer is c)", "Ans: B", "(Option D)", "option b is correct"
_OPTION_REFERENCES = re.compile(
    r"\b(?:ans(?:wer)?\.?\s*(?:is\s*)?[:\-]?\s*[\"'(\[]?[a-h][\"')\]]?(?:\s*(?:i\.?\s*e\.?|,|:|-))?"
    r"|\(?\s*option\s+[a-h]\b\)?(?:\s+is\s+(?:correct|the\s+answer))?)",
    re.IGNORECASE,
)
_LEAD = re.compile(r"^\s*(?:statement|sentence|rewritten sentence)\s*:\s*", re.IGNORECASE)


def clean_explanation(text: str | None) -> str | None:
    """A dataset explanation with its references to option letters removed (None if empty)."""
    if not text:
        return None
    cleaned = _OPTION_REFERENCES.sub(" ", text)
    cleaned = re.sub(r"\s+", " ", cleaned).strip(" .,:;-")
    return cleaned + "." if cleaned and not cleaned.endswith((".", "!", "?")) else cleaned or None


def read_statement(reply: str) -> str | None:
    """The first non-empty line of a converter reply, label and quotes removed."""
    for line in reply.splitlines():
        line = _LEAD.sub("", line).strip().strip('"').strip()
        if line:
            return line
    return None


def estimate_tokens(*texts: str | None) -> int:
    """A model-independent token estimate (4 characters a token), for the budget."""
    return sum(len(t) for t in texts if t) // 4 + 1


_STOPWORDS = frozenset(
    "a an the of and or in on to with for by is are be at from as its it this that".split()
)


def content_words(text: str) -> list[str]:
    """Lower-cased words of a text without stopwords (for matching an option to a statement)."""
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOPWORDS]


def carries_option(statement: str, option: str) -> bool:
    """Whether a statement names an answer option: every content word of the option occurs
    in it (a plural or singular form counts)."""
    have = set(content_words(statement))
    wanted = content_words(option)
    return bool(wanted) and all(
        w in have or w.rstrip("s") in have or f"{w}s" in have for w in wanted
    )


@dataclass(frozen=True)
class ConverterReply:
    """A converter reply: the statement read from it (None if unreadable), the raw reply,
    and whether generation stopped at the token limit."""

    statement: str | None
    raw: str
    truncated: bool


def failed(*replies: ConverterReply) -> str:
    """Why replies gave no usable statement: `truncated` when one was cut at the token
    limit, else `unparseable`."""
    return "truncated" if any(r.truncated for r in replies) else "unparseable"


@dataclass
class Converter:
    """The `converter` model role and its prompts, and the NLI judge (if any) that checks
    that a QA statement states its option."""

    model: Model
    cache: bool = True
    nli: NLIModel | None = None
    nli_threshold: float = 0.5

    def __post_init__(self) -> None:
        self.qa = read_prompt(__package__, "qa_statement.txt")
        self.kv = read_prompt(__package__, "kv_statement.txt")
        self.contradict = read_prompt(__package__, "contradict_sentence.txt")

    async def ask(self, prompt: str, seed: int) -> ConverterReply:
        """The statement a prompt yields."""
        output = await self.model.generate(
            prompt,
            config=GenerateConfig(
                temperature=0.0, max_tokens=CONVERTER_MAX_TOKENS, seed=seed, cache=self.cache
            ),
        )
        return ConverterReply(
            read_statement(output.completion), output.completion, output.stop_reason == "max_tokens"
        )

    async def states(self, question: str, option: str, statement: str) -> bool:
        """Whether a statement states that `option` answers `question`: by word match and,
        with an NLI judge, by entailment from the question and option."""
        if not carries_option(statement, option):
            return False
        if self.nli is None:
            return True
        probability = await entailment(self.nli, f"{question} Answer: {option}", statement)
        return probability is not None and probability >= self.nli_threshold


def _sample(
    source: str, inner_id: str, kind: str, *, key: str | None = None, **fields: Any
) -> dict[str, Any]:
    # `inner_id` names the source item (shared by a pair); `key` the sample, when it differs.
    # Built as the record, so its fields (and extras such as `wrong_option`) are checked once.
    record = MedHalRecord(
        id=f"{source}-{key or inner_id}-{kind}", inner_id=inner_id, source=source, **fields
    )
    return record.model_dump()


@dataclass
class Conversion:
    """What one item produced: samples (pairs), counted drops, and raw converter replies."""

    samples: list[dict[str, Any]]
    dropped: dict[str, int]
    raw: list[str]


async def convert_qa(
    item: QAItem, source: str, converter: Converter, rng: random.Random
) -> Conversion:
    """Question + correct option -> factual; question + a seeded wrong option -> non-factual."""
    wrong = sorted(k for k, v in item.options.items() if k != item.answer and v.strip())
    if not wrong:
        return Conversion([], {"no_wrong_option": 1}, [])
    wrong_letter = rng.choice(wrong)
    seed = rng.randrange(2**31)
    true_reply = await converter.ask(
        converter.qa.format(question=item.question, option=item.options[item.answer]), seed
    )
    false_reply = await converter.ask(
        converter.qa.format(question=item.question, option=item.options[wrong_letter]), seed
    )
    raw = [true_reply.raw, false_reply.raw]
    true_statement, false_statement = true_reply.statement, false_reply.statement
    if not true_statement or not false_statement:
        return Conversion([], {failed(true_reply, false_reply): 1}, raw)
    # A statement must state its own option: the correct one in the factual statement, the
    # drawn wrong one in the other (a converter may write the wrong answer, or the same one twice).
    if content_words(true_statement) == content_words(false_statement):
        return Conversion([], {"same_statement": 1}, raw)
    if not await converter.states(item.question, item.options[item.answer], true_statement):
        return Conversion([], {"factual_lacks_correct_option": 1}, raw)
    if not await converter.states(item.question, item.options[wrong_letter], false_statement):
        return Conversion([], {"non_factual_lacks_its_option": 1}, raw)
    explanation = clean_explanation(item.explanation) or true_statement
    return Conversion(
        [
            _sample(
                source,
                item.inner_id,
                "f",
                context=None,
                statement=true_statement,
                label=True,
                explanation=None,
                synthetic=True,
            ),
            _sample(
                source,
                item.inner_id,
                "n",
                context=None,
                statement=false_statement,
                label=False,
                explanation=explanation,
                synthetic=True,
                wrong_option=wrong_letter,
            ),
        ],
        {},
        raw,
    )


def convert_nli(item: NLIItem, source: str) -> Conversion:
    """Entailed hypotheses -> factual, contradicted -> non-factual, paired per premise;
    neutral ones and unpaired leftovers are dropped and counted."""
    pairs = min(len(item.entailed), len(item.contradicted))
    samples = []
    for (e_id, entailed), (c_id, contradicted) in zip(
        item.entailed[:pairs], item.contradicted[:pairs], strict=True
    ):
        samples.append(
            _sample(
                source,
                item.inner_id,
                "f",
                key=e_id,
                context=item.premise,
                statement=entailed,
                label=True,
                explanation=None,
                synthetic=False,
            )
        )
        samples.append(
            _sample(
                source,
                item.inner_id,
                "n",
                key=c_id,
                context=item.premise,
                statement=contradicted,
                label=False,
                explanation=None,
                synthetic=False,
            )
        )
    dropped = {}
    if item.neutral:
        dropped["neutral"] = item.neutral
    unpaired = len(item.entailed) + len(item.contradicted) - 2 * pairs
    if unpaired:
        dropped["unpaired"] = unpaired
    return Conversion(samples, dropped, [])


async def convert_note(
    item: NoteItem,
    source: str,
    converter: Converter,
    rng: random.Random,
    others: dict[str, list[str]],
    per_note: int,
) -> Conversion:
    """Each chosen key-value -> a factual sentence; the same key's different value from
    another note -> a non-factual sentence, explained by the true sentence."""
    keys = [k for k in sorted(item.facts) if any(v != item.facts[k] for v in others.get(k, []))]
    dropped = {"no_swap": len(item.facts) - len(keys)} if len(keys) < len(item.facts) else {}
    samples: list[dict[str, Any]] = []
    raw: list[str] = []
    for key in rng.sample(keys, min(per_note, len(keys))):
        swapped = rng.choice(sorted({v for v in others[key] if v != item.facts[key]}))
        seed = rng.randrange(2**31)
        true_reply = await converter.ask(converter.kv.format(key=key, value=item.facts[key]), seed)
        false_reply = await converter.ask(converter.kv.format(key=key, value=swapped), seed)
        raw += [true_reply.raw, false_reply.raw]
        true_sentence, false_sentence = true_reply.statement, false_reply.statement
        if not true_sentence or not false_sentence:
            reason = failed(true_reply, false_reply)
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        if true_sentence == false_sentence:
            dropped["same_statement"] = dropped.get("same_statement", 0) + 1
            continue
        inner = f"{item.inner_id}:{key}"
        samples.append(
            _sample(
                source,
                inner,
                "f",
                context=item.note,
                statement=true_sentence,
                label=True,
                explanation=None,
                synthetic=True,
            )
        )
        samples.append(
            _sample(
                source,
                inner,
                "n",
                context=item.note,
                statement=false_sentence,
                label=False,
                explanation=true_sentence,
                synthetic=True,
                swapped_value=swapped,
            )
        )
    return Conversion(samples, dropped, raw)


async def convert_summary(
    item: SummaryItem, source: str, converter: Converter, rng: random.Random
) -> Conversion:
    """The summary -> factual; the summary with one long sentence rewritten to contradict
    the source -> non-factual, explained by the original sentence."""
    sentences = split_sentences(item.summary)
    long_ones = [i for i, s in enumerate(sentences) if len(s) >= MIN_REWRITE_CHARS]
    if not long_ones:
        return Conversion([], {"no_long_sentence": 1}, [])
    index = rng.choice(long_ones)
    reply = await converter.ask(
        converter.contradict.format(sentence=sentences[index]), rng.randrange(2**31)
    )
    rewritten, raw = reply.statement, reply.raw
    if not rewritten:
        return Conversion([], {failed(reply): 1}, [raw])
    if rewritten.strip() == sentences[index].strip():
        return Conversion([], {"same_statement": 1}, [raw])
    altered = " ".join(rewritten if i == index else s for i, s in enumerate(sentences))
    return Conversion(
        [
            _sample(
                source,
                item.inner_id,
                "f",
                context=item.text,
                statement=item.summary,
                label=True,
                explanation=None,
                synthetic=False,
            ),
            _sample(
                source,
                item.inner_id,
                "n",
                context=item.text,
                statement=altered,
                label=False,
                explanation=sentences[index],
                synthetic=True,
                rewritten_sentence=index,
            ),
        ],
        {},
        [raw],
    )
