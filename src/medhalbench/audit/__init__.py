"""Auditing a judge: people check the judge's verdicts on a seeded, stratified draw of its
items, and the agreement (accuracy, Cohen's kappa, the figure recomputed) is reported."""

from medhalbench.audit._answers import (
    AUDIT_SUFFIX,
    Answer,
    AuditAnswer,
    answers_path,
    read_answers,
    save_answer,
)
from medhalbench.audit._items import AuditedLog, audited_logs, draw
from medhalbench.audit._server import AuditSession, audit_server
from medhalbench.audit._summary import audit_tables, audited

__all__ = [
    "AUDIT_SUFFIX",
    "Answer",
    "AuditAnswer",
    "AuditSession",
    "AuditedLog",
    "answers_path",
    "audit_server",
    "audit_tables",
    "audited",
    "audited_logs",
    "draw",
    "read_answers",
    "save_answer",
]
