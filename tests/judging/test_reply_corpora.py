"""The three verdict readers on replies written in other models' styles, each labelled by its
meaning before the reader was run on it.

- `replies_styles_a.jsonl`: GPT-4o, Claude, Llama, Qwen, Mistral, Gemini, DeepSeek-R1
  (`<think>`), terse, verbose, JSON with other keys, tables, boxed, emojis, hedges, replies
  whose label contradicts their explanation, ten languages. The reader was developed on it.
- `replies_styles_b.jsonl`: kept unseen until the reader was done, in other families' styles
  (Gemma, Command R, Yi, GLM, Kimi, Magistral, o1/o3, OpenBioLLM, Meditron, Grok, Nemotron,
  Aya, QwQ; XML tags, YAML, `key=value`, Python dicts, nested JSON, Korean, Arabic, Hindi,
  Turkish, Polish, Vietnamese, Indonesian, Swedish). Its first run read 148 of 153 as the
  careful reader did, two of them as the wrong class; the classes behind those five are fixed.
- `replies_styles_c.jsonl`: written after the reader was done and run once, as it stands.
- `replies_styles_e.jsonl`: written and labelled by another hand, unseen by the reader's
  author, in yet other styles (Phi, Falcon, Jamba, DBRX, InternLM, Baichuan, MiniCPM, Granite,
  OLMo, Solar, BioMistral, Med42, ...; Greek, Thai, Hebrew, Swahili, Czech, Romanian). Its
  first run: agreement 0.805 on 133, six read as the wrong class (an empty "Factual:" label,
  two verdicts each under its own condition, "Likely true, but ...", a label its explanation
  contradicts); the classes behind them are fixed and the six languages added (0.985 now).
- `replies_styles_d.jsonl`: newer families' sectioned and one-line styles (GPT-5, ...).
- `replies_styles_f.jsonl`: another unseen set by another hand (prompt echoes, probabilities,
  thinking aloud, Ukrainian, Persian, Bengali, Tamil, Hungarian, Finnish, Malay, Tagalog,
  Norwegian). Its first run: agreement 0.742 on 124, three read as the wrong class ("P(true)
  ≈ 0.6", "I can't call it either way", a verdict withdrawn by "unless"); the classes behind
  them are fixed and the nine languages added (0.976 now; double negatives stay unread).
- `replies_styles_g.jsonl`: 211 replies written for issue 41 by a hand that never saw the
  reader, in the classes that had been read as the wrong class on unseen sets (a verdict
  withdrawn or left open after it is given, hedges that never commit, fields named by a
  verdict word and tool calls of every major provider, ticks in a table's columns and
  checkboxes, refusals and questions back in many languages, a yes/no that answers another
  question, a label its explanation contradicts) and in those left unread (fact-checking and
  NLI labels, quiz marks, options the reply defines and then picks, reasoning channels,
  casual verdicts, more languages). Its first run, before any change: agreement 0.687 on
  211, 14 read as the wrong class, 52 not read. The classes behind them were fixed (never a
  reply), the reader's rules rewritten as small functions: agreement 1.000, none read as
  the wrong class.
- `replies_styles_h.jsonl`: 289 replies written for issue 58 by a hand that never saw the
  reader or its corpora (frozen, sha256 328edeff...), in new styles: other models (GPT-5, o3,
  Claude 4, Llama 4, DeepSeek-R1, ...), languages, formats and traps (echoes of the prompt's
  options, ties, verdicts withdrawn, fields named after a class, "not applicable" values,
  refusals in other languages, probabilities). Its first run, before the change: agreement
  0.913, 11 read as the wrong class, 14 not read; after the two-step reading: 0.965, none.
- `replies_styles_i.jsonl`: 269 replies written after issue 58 by a hand that never saw the
  reader or its corpora (frozen, sha256 ece24775...): 31 families, 27 languages, tables,
  XML, fields named after a class, echoes, ties, withdrawals, double negatives. Its first
  run: agreement 0.862, three read as the wrong class (a negated verdict before its reasons
  "Not factual — wrong drug class", a negation opening the clause "Nothing in the statement
  is unsupported", "let me retract that"); the classes behind them are fixed: 0.870, none.
- `replies_probes.jsonl`: replies written to find a wrong-class read (negation scope, label
  heads, glosses, hedges in other languages).

The first rule is never the wrong class: a reply read as a class other than the careful
reader's (a hedge read as a class included) fails the test whatever the agreement. The
second is agreement, with a bar per corpus: 0.95 on the corpora the reader was developed or
fixed on, 0.85 on `replies_styles_g`, `replies_styles_h` and `replies_styles_i` (the bar
issues 41 and 58 set for a set written before the change); a corpus added later is held to
0.95.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers import reply_corpus
from medhalbench.dahl import parse_truth_verdict
from medhalbench.medhal import parse_factual_verdict
from medhalbench.medhallu import parse_detection_verdict

DATA = Path(__file__).parent / "data"
CORPORA = sorted(DATA.glob("replies_*.jsonl"))
NO_CLASS = (None, "unknown")
"""Readings that put a reply in no class: not read (None), or DAHL's unknown."""
BAR = 0.95
"""The agreement every corpus must reach, unless `BARS` names its own (never lower)."""
BARS = {"replies_styles_g": 0.85, "replies_styles_h": 0.85, "replies_styles_i": 0.85}
"""Corpora held to a bar of their own: the held-out sets of issues 41 and 58 and after."""


def reading(case: dict[str, Any]) -> str | None:
    """The reader's reading of a corpus case, in the corpus's words."""
    parser = case["parser"]
    if parser.startswith("detection"):
        verdict = parse_detection_verdict(
            case["reply"], allow_not_sure=parser == "detection_not_sure"
        )
        return None if verdict.label is None else str(int(verdict.label))
    if parser == "factual":
        factual = parse_factual_verdict(case["reply"]).factual
        return None if factual is None else ("yes" if factual else "no")
    assert parser == "truth", parser
    return parse_truth_verdict(case["reply"])


def test_there_are_at_least_three_corpora_of_120_replies() -> None:
    sizes = {path.name: len(reply_corpus(path)) for path in CORPORA}
    assert sum(size >= 120 for size in sizes.values()) >= 3, sizes
    families = {c["family"] for path in CORPORA for c in reply_corpus(path)}
    assert len(families) >= 30, families


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: p.stem)
def test_the_readers_agree_with_a_careful_reader_and_never_read_the_wrong_class(
    path: Path,
) -> None:
    cases = reply_corpus(path)
    missed, wrong_class = [], []
    for case in cases:
        read = reading(case)
        if read == case["expected"]:
            continue
        entry = (case["parser"], case["kind"], case["reply"], case["expected"], read)
        (missed if read in NO_CLASS else wrong_class).append(entry)
    agreement = 1 - (len(missed) + len(wrong_class)) / len(cases)
    kinds = Counter(c["parser"] for c in cases)
    print(
        f"\n{path.name}: agreement {agreement:.3f} on {len(cases)} replies, "
        f"{len(wrong_class)} read as the wrong class, {len(missed)} not read {dict(kinds)}"
    )
    for entry in missed:
        print("  not read:", entry)
    for entry in wrong_class:
        print("  wrong class:", entry)
    assert not wrong_class, "\n".join(map(repr, wrong_class))
    assert agreement >= BARS.get(path.stem, BAR), "\n".join(map(repr, missed))
