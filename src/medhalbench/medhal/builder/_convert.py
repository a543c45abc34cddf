"""Turning work items into paired factual / non-factual MedHal samples."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, Model

from medhalbench.medhal._dataset import MedHalRecord
from medhalbench.medhal.builder._converter_prompts import ConverterPrompts
from medhalbench.medhal.builder._rules import (
    FACTUAL_EXPLANATION,
    PAPER_CONVERTER_MAX_TOKENS,
    medmcqa_rejection,
    one_sentence,
    paper_explanation,
    qa_context,
    remove_keywords,
    rewrite_candidates,
)
from medhalbench.medhal.builder._sources import NLIItem, NoteItem, QAItem, SummaryItem
from medhalbench.nli import NLIModel, entailment
from medhalbench.outputs import stop_reason
from medhalbench.settings import BuildProtocol
from medhalbench.text import split_sentences

CONVERTER_MAX_TOKENS = 160

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
    that a QA statement states its option.

    Attributes:
        model: The `converter` model role.
        cache: Cache the converter's calls (the build's `cache`).
        nli_threshold: Entailment probability a QA statement needs (the build's).
        protocol: The build's protocol (its prompts and reply budget).
        nli: The NLI judge; None: the word match alone.
    """

    model: Model
    cache: bool
    nli_threshold: float
    protocol: BuildProtocol
    nli: NLIModel | None = None

    def __post_init__(self) -> None:
        self.prompts = ConverterPrompts.load(self.protocol)

    async def ask(self, prompt: str | list[ChatMessage], seed: int) -> ConverterReply:
        """The statement a prompt (or a chat) yields (`seed` sent under `ours`; the authors
        send none)."""
        paper = self.protocol == "paper"
        output = await self.model.generate(
            prompt,
            config=GenerateConfig(
                temperature=0.0,
                max_tokens=PAPER_CONVERTER_MAX_TOKENS if paper else CONVERTER_MAX_TOKENS,
                seed=None if paper else seed,
                cache=self.cache,
            ),
        )
        return ConverterReply(
            read_statement(output.completion),
            output.completion,
            stop_reason(output) == "max_tokens",
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


@dataclass(frozen=True)
class _Origin:
    """Where the samples of a pair come from: the source, the item (`inner_id`, shared by
    the pair) and the context they are judged in.

    Each sample is built as the record, so that its fields (and extras such as
    `wrong_option`) are checked once; its id is the source, `key` (the sample's own, where
    it has one, else `inner_id`) and `f` (factual) or `n`.
    """

    source: str
    inner_id: str
    context: str | None

    def _sample(
        self,
        statement: str,
        *,
        label: bool,
        explanation: str,
        synthetic: bool,
        key: str | None,
        extras: Mapping[str, object],
    ) -> dict[str, Any]:
        record = MedHalRecord(
            id=f"{self.source}-{key or self.inner_id}-{'f' if label else 'n'}",
            inner_id=self.inner_id,
            source=self.source,
            context=self.context,
            statement=statement,
            label=label,
            explanation=explanation,
            synthetic=synthetic,
            **extras,
        )
        return record.model_dump()

    def factual(
        self,
        statement: str,
        *,
        synthetic: bool,
        explanation: str = FACTUAL_EXPLANATION,
        key: str | None = None,
    ) -> dict[str, Any]:
        """A factual sample: `statement` is true, given the context.

        Args:
            statement: The statement.
            synthetic: A model wrote the statement.
            explanation: Why it is factual (the dataset's explanation, where it has one).
            key: The sample's own key, where it is not the item's.
        """
        return self._sample(
            statement, label=True, explanation=explanation, synthetic=synthetic, key=key, extras={}
        )

    def non_factual(
        self,
        statement: str,
        *,
        explanation: str,
        synthetic: bool,
        key: str | None = None,
        extras: Mapping[str, object] | None = None,
    ) -> dict[str, Any]:
        """A non-factual sample: `statement` is false, given the context.

        Args:
            statement: The statement.
            explanation: Why it is false (mostly its pair's true statement).
            synthetic: A model wrote the statement.
            key: The sample's own key, where it is not the item's.
            extras: Fields of ours beyond MedHal's (`wrong_option`, `swapped_value`, ...).
        """
        return self._sample(
            statement,
            label=False,
            explanation=explanation,
            synthetic=synthetic,
            key=key,
            extras=extras or {},
        )


@dataclass
class Conversion:
    """What one item produced: samples (pairs), counted drops, and raw converter replies."""

    samples: list[dict[str, Any]]
    dropped: dict[str, int]
    raw: list[str]


def wrong_options(item: QAItem) -> list[str]:
    """The letters of an item's wrong options that have text."""
    return sorted(k for k, v in item.options.items() if k != item.answer and v.strip())


def qa_question(item: QAItem, source: str, protocol: BuildProtocol) -> tuple[str | None, str] | str:
    """The context and the question the converter is given for a QA item, or why the item
    is dropped (`except_question`, `no_final_question`, `no_wrong_option`, ...): the filters
    a build and its plan both apply."""
    if protocol == "ours" or source == "medmcqa":
        rejection = medmcqa_rejection(item.question, item.options, protocol)
        if rejection is not None:
            return rejection
    split = qa_context(item.question, source, protocol)
    if split is None:
        return "no_final_question"
    return split if wrong_options(item) else "no_wrong_option"


def qa_explanations(
    dataset_explanation: str | None, true_statement: str, source: str, protocol: BuildProtocol
) -> tuple[str, str]:
    """The explanations of a QA pair: the dataset's (else "The statement is factual.") for the
    factual sample, the true statement for the non-factual one. Ours removes the option
    references from the dataset's; theirs (`fix_medmcqa_explanations`) runs its pattern over
    every MedMCQA explanation after the choice, the true statement's included, so an
    explanation that is only "Ans: d" becomes empty."""
    if protocol == "ours":
        return clean_explanation(dataset_explanation) or FACTUAL_EXPLANATION, true_statement
    explanations = (dataset_explanation or FACTUAL_EXPLANATION, true_statement)
    if source != "medmcqa":
        return explanations
    return paper_explanation(explanations[0]) or "", paper_explanation(explanations[1]) or ""


async def convert_qa(
    item: QAItem, source: str, converter: Converter, rng: random.Random
) -> Conversion:
    """Question + correct option -> factual; question + a seeded wrong option -> non-factual.

    Both protocols: MedMCQA's question filter and the authors' contexts (`_rules`); the
    factual sample is explained by the dataset's explanation (else "The statement is
    factual."), the non-factual one by the factual statement. Ours also filters MedQA, drops a
    pair whose statement is not one sentence or does not state its own option, and marks the
    statements synthetic (written by the converter); theirs drops each sample of several
    sentences on its own and marks QA samples not synthetic.
    """
    protocol = converter.protocol
    asked = qa_question(item, source, protocol)
    if isinstance(asked, str):
        return Conversion([], {asked: 1}, [])
    context, question = asked
    wrong_letter = rng.choice(wrong_options(item))
    seed = rng.randrange(2**31)
    prompts = converter.prompts
    true_reply = await converter.ask(
        prompts.qa_input(source, question, item.options[item.answer]), seed
    )
    false_reply = await converter.ask(
        prompts.qa_input(source, question, item.options[wrong_letter]), seed
    )
    raw = [true_reply.raw, false_reply.raw]
    true_statement, false_statement = true_reply.statement, false_reply.statement
    if not true_statement or not false_statement:
        return Conversion([], {failed(true_reply, false_reply): 1}, raw)
    origin = _Origin(source, item.inner_id, context)
    synthetic = protocol == "ours"
    factual_explanation, non_factual_explanation = qa_explanations(
        item.explanation, true_statement, source, protocol
    )
    factual = origin.factual(true_statement, synthetic=synthetic, explanation=factual_explanation)
    non_factual = origin.non_factual(
        false_statement,
        explanation=non_factual_explanation,
        synthetic=synthetic,
        extras={"wrong_option": wrong_letter},
    )
    if protocol == "paper":
        # Their filter takes each sample on its own: a pair can lose one of its two.
        kept = [s for s in (factual, non_factual) if one_sentence(s["statement"])]
        dropped = {"multi_sentence": 2 - len(kept)} if len(kept) < 2 else {}
        return Conversion(kept, dropped, raw)
    if not (one_sentence(true_statement) and one_sentence(false_statement)):
        return Conversion([], {"multi_sentence": 1}, raw)
    # A statement must state its own option: the correct one in the factual statement, the
    # drawn wrong one in the other (a converter may write the wrong answer, or the same one twice).
    if content_words(true_statement) == content_words(false_statement):
        return Conversion([], {"same_statement": 1}, raw)
    if not await converter.states(question, item.options[item.answer], true_statement):
        return Conversion([], {"factual_lacks_correct_option": 1}, raw)
    if not await converter.states(question, item.options[wrong_letter], false_statement):
        return Conversion([], {"non_factual_lacks_its_option": 1}, raw)
    return Conversion([factual, non_factual], {}, raw)


def convert_nli(item: NLIItem, source: str) -> Conversion:
    """Entailed hypotheses -> factual, contradicted -> non-factual, paired per premise (the
    entailed hypothesis explains its contradicted pair, as theirs does); neutral ones and
    unpaired leftovers are dropped and counted."""
    pairs = min(len(item.entailed), len(item.contradicted))
    origin = _Origin(source, item.inner_id, item.premise)
    samples = []
    for (e_id, entailed), (c_id, contradicted) in zip(
        item.entailed[:pairs], item.contradicted[:pairs], strict=True
    ):
        samples += [
            origin.factual(entailed, synthetic=False, key=e_id),
            # Theirs (`from_mednli`): the entailed hypothesis explains the contradiction.
            origin.non_factual(contradicted, explanation=entailed, synthetic=False, key=c_id),
        ]
    dropped = {}
    if item.neutral:
        dropped["neutral"] = item.neutral
    unpaired = len(item.entailed) + len(item.contradicted) - 2 * pairs
    if unpaired:
        dropped["unpaired"] = unpaired
    return Conversion(samples, dropped, [])


@dataclass(frozen=True)
class NoteValues:
    """The values each key takes across one source's clinical notes (where a non-factual
    value comes from), and how many keys of a note to use."""

    by_key: dict[str, list[str]]
    per_note: int

    @classmethod
    def of(cls, items: Sequence[object], per_note: int) -> NoteValues:
        """The values of the notes among `items`."""
        by_key: dict[str, list[str]] = defaultdict(list)
        for item in items:
            if isinstance(item, NoteItem):
                for key, value in item.facts.items():
                    by_key[key].append(value)
        return cls(dict(by_key), per_note)


async def convert_note(
    item: NoteItem, source: str, converter: Converter, rng: random.Random, values: NoteValues
) -> Conversion:
    """Each chosen key-value -> a factual sentence; the same key's different value from
    another note -> a non-factual sentence, explained by the true sentence."""
    others = values.by_key
    keys = [k for k in sorted(item.facts) if any(v != item.facts[k] for v in others.get(k, []))]
    dropped = {"no_swap": len(item.facts) - len(keys)} if len(keys) < len(item.facts) else {}
    samples: list[dict[str, Any]] = []
    raw: list[str] = []
    for key in rng.sample(keys, min(values.per_note, len(keys))):
        swapped = rng.choice(sorted({v for v in others[key] if v != item.facts[key]}))
        seed = rng.randrange(2**31)
        true_reply = await converter.ask(converter.prompts.kv_input(key, item.facts[key]), seed)
        false_reply = await converter.ask(converter.prompts.kv_input(key, swapped), seed)
        raw += [true_reply.raw, false_reply.raw]
        true_sentence, false_sentence = true_reply.statement, false_reply.statement
        if not true_sentence or not false_sentence:
            reason = failed(true_reply, false_reply)
            dropped[reason] = dropped.get(reason, 0) + 1
            continue
        if true_sentence == false_sentence:
            dropped["same_statement"] = dropped.get("same_statement", 0) + 1
            continue
        origin = _Origin(source, f"{item.inner_id}:{key}", item.note)
        samples += [
            origin.factual(true_sentence, synthetic=True),
            origin.non_factual(
                false_sentence,
                explanation=true_sentence,
                synthetic=True,
                extras={"swapped_value": swapped},
            ),
        ]
    return Conversion(samples, dropped, raw)


async def convert_summary(
    item: SummaryItem, source: str, converter: Converter, rng: random.Random
) -> Conversion:
    """Per pairing of the document (text-abstract, text-shorter abstract, abstract-shorter
    abstract; keywords removed from the summary): the summary -> factual; the summary with one
    sentence rewritten to contradict it -> non-factual, explained by "According to the
    context, " and the original sentence. Theirs keeps every factual summary, with or without
    its non-factual pair, rewrites any sentence but the last and lower-cases the rewrite; ours
    rewrites a sentence of at least 100 characters (the last included), keeps pairs only and
    lower-cases a rewrite only in a summary without capitals (SumPubMed's)."""
    protocol = converter.protocol
    samples: list[dict[str, Any]] = []
    dropped: dict[str, int] = {}
    raw: list[str] = []
    for name, document, full_summary in item.pairings():
        summary = remove_keywords(full_summary).strip()
        key = f"{item.inner_id}:{name}"
        origin = _Origin(source, item.inner_id, document)
        factual = origin.factual(summary, synthetic=False, key=key)
        sentences = split_sentences(summary)
        candidates = rewrite_candidates(sentences, protocol)
        if not candidates:
            dropped["no_sentence_to_rewrite"] = dropped.get("no_sentence_to_rewrite", 0) + 1
            samples += [factual] if protocol == "paper" else []
            continue
        index = rng.choice(candidates)
        reply = await converter.ask(
            converter.prompts.rewrite_input(document, sentences[index]), rng.randrange(2**31)
        )
        raw.append(reply.raw)
        rewritten = reply.statement
        reason = (
            failed(reply) if not rewritten
            else "same_statement" if rewritten.strip() == sentences[index].strip()
            else None
        )  # fmt: skip
        if reason is not None or rewritten is None:
            dropped[reason or "unparseable"] = dropped.get(reason or "unparseable", 0) + 1
            samples += [factual] if protocol == "paper" else []
            continue
        if protocol == "paper" or not any(c.isupper() for c in summary):
            rewritten = rewritten.lower().strip()
        altered = " ".join([*sentences[:index], rewritten, *sentences[index + 1 :]])
        samples += [
            factual,
            origin.non_factual(
                altered, explanation=f"According to the context, {sentences[index]}",
                synthetic=protocol == "ours", key=key,
                extras={"rewritten_sentence": index, "pairing": name},
            ),
        ]  # fmt: skip
    return Conversion(samples, dropped, raw)
