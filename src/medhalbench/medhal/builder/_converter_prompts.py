"""What the converter is sent: our prompts, or under `--protocol paper` the shape of the
authors' (a system prompt and a one-shot chat for QA; the source text beside the sentence to
rewrite), in our own words (`prompts/`)."""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
)

from medhalbench._errors import DataError
from medhalbench._prompts import read_prompt
from medhalbench.medhal.builder import PROMPTS
from medhalbench.settings import BuildProtocol

PAPER_QA_CHAT = "paper_qa_chat.yaml"
"""The QA converter's system prompt and one-shot chat per source, under `paper`."""


@dataclass(frozen=True)
class QAChat:
    """The authors' QA converter chat for one source (medqa.py, medmcqa.py): a system prompt,
    one worked question and its statement, then the question as "Question: ...\\nAnswer: ..."."""

    system: str
    example_user: str
    example_assistant: str

    def messages(self, question: str, answer: str) -> list[ChatMessage]:
        """The chat for one question and answer."""
        return [
            ChatMessageSystem(content=self.system),
            ChatMessageUser(content=self.example_user),
            ChatMessageAssistant(content=self.example_assistant),
            ChatMessageUser(content=f"Question: {question}\nAnswer: {answer}"),
        ]


def _paper_chats() -> dict[str, QAChat]:
    loaded = yaml.safe_load(read_prompt(PROMPTS, PAPER_QA_CHAT))
    try:
        return {source: QAChat(**chat) for source, chat in loaded.items()}
    except (AttributeError, TypeError) as error:
        raise DataError(
            f"{PAPER_QA_CHAT}: each source needs system, example_user and example_assistant ({error})"
        ) from error


@dataclass(frozen=True)
class ConverterPrompts:
    """The converter's inputs under one protocol."""

    protocol: BuildProtocol
    qa: str
    kv: str
    contradict: str
    paper_contradict: str
    paper_qa: dict[str, QAChat]

    @classmethod
    def load(cls, protocol: BuildProtocol) -> ConverterPrompts:
        """The packaged prompts for `protocol`."""
        return cls(
            protocol,
            qa=read_prompt(PROMPTS, "qa_statement.txt"),
            kv=read_prompt(PROMPTS, "kv_statement.txt"),
            contradict=read_prompt(PROMPTS, "contradict_sentence.txt"),
            paper_contradict=read_prompt(PROMPTS, "paper_contradict_sentence.txt"),
            paper_qa=_paper_chats() if protocol == "paper" else {},
        )

    def qa_input(self, source: str, question: str, option: str) -> str | list[ChatMessage]:
        """A question and one option -> a statement: ours, one prompt; theirs, the source's
        chat."""
        if self.protocol == "paper":
            return self.paper_qa[source].messages(question, option)
        return self.qa.format(question=question, option=option)

    def kv_input(self, key: str, value: str) -> str:
        """A clinical note's key-value -> a sentence."""
        return self.kv.format(key=key, value=value)

    def rewrite_input(self, document: str, sentence: str) -> str:
        """A summary sentence -> one that contradicts it: theirs shows the document too."""
        if self.protocol == "paper":
            return self.paper_contradict.format(text=document, sentence=sentence)
        return self.contradict.format(sentence=sentence)
