"""Auditing judges: people answer, blind, the questions each judge answered on a seeded
draw of its items, stratified by role and verdict (the reader of verdicts, the extractor,
DAHL's splitter and checker, the detector), and the agreement of each role with them
(accuracy, Cohen's kappa, wrong-class readings, the figure recomputed) is reported."""

from medhalbench.audit._answers import (
    AUDIT_SUFFIX,
    AuditAnswer,
    LegacyAnswer,
    answers_path,
    read_answers,
    save_answer,
)
from medhalbench.audit._items import AuditedLog, audited_logs, draw
from medhalbench.audit._server import audit_server
from medhalbench.audit._session import AnswerNotSaved, AuditSession, Drawn
from medhalbench.audit._summary import Audited, Pair, audit_tables, audited, kappa_undefined, pairs

__all__ = [
    "AUDIT_SUFFIX",
    "AnswerNotSaved",
    "AuditAnswer",
    "AuditSession",
    "Audited",
    "AuditedLog",
    "Drawn",
    "LegacyAnswer",
    "Pair",
    "answers_path",
    "audit_server",
    "audit_tables",
    "audited",
    "audited_logs",
    "draw",
    "kappa_undefined",
    "pairs",
    "read_answers",
    "save_answer",
]
