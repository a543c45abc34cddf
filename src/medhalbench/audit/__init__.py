"""Auditing judges: people answer, blind, the questions each judge answered on a seeded
draw of its items, stratified by role and verdict (the reader of verdicts, the extractor,
DAHL's splitter and checker, the detector), and the agreement of each role with them
(accuracy, Cohen's kappa, wrong-class readings, the figure recomputed) is reported."""

from medhalbench import _lazy
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

__getattr__, __all__ = _lazy.exports(__name__, __file__)
