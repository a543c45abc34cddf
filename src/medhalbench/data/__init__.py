"""Typed records and loaders for the published datasets."""

from medhalbench.data._dahl import (
    DAHL_CATEGORIES,
    DAHL_QUESTIONS_URL,
    load_dahl_questions,
    stratified_sample,
)
from medhalbench.data._io import read_rows
from medhalbench.data._medhal import load_medhal
from medhalbench.data._medhallu import MEDHALLU_HUB, load_medhallu
from medhalbench.data._pubmedqa import PUBMEDQA_HUB, load_pubmedqa
from medhalbench.data._records import (
    DIFFICULTIES,
    DahlQuestion,
    DahlResponse,
    Difficulty,
    MedHalluRecord,
    MedHalRecord,
    PubMedQARecord,
)
from medhalbench.data._resumable import ResumableJsonl

__all__ = [
    "DAHL_CATEGORIES",
    "DAHL_QUESTIONS_URL",
    "DahlQuestion",
    "DahlResponse",
    "load_dahl_questions",
    "load_medhal",
    "stratified_sample",
    "DIFFICULTIES",
    "MEDHALLU_HUB",
    "PUBMEDQA_HUB",
    "Difficulty",
    "MedHalRecord",
    "MedHalluRecord",
    "PubMedQARecord",
    "ResumableJsonl",
    "load_medhallu",
    "load_pubmedqa",
    "read_rows",
]
