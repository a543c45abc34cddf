"""Typed records and loaders for the published datasets."""

from medhalbench.data._io import read_rows
from medhalbench.data._medhallu import MEDHALLU_HUB, load_medhallu
from medhalbench.data._pubmedqa import PUBMEDQA_HUB, load_pubmedqa
from medhalbench.data._records import (
    DIFFICULTIES,
    Difficulty,
    MedHalluRecord,
    PubMedQARecord,
)

__all__ = [
    "DIFFICULTIES",
    "MEDHALLU_HUB",
    "PUBMEDQA_HUB",
    "Difficulty",
    "MedHalluRecord",
    "PubMedQARecord",
    "load_medhallu",
    "load_pubmedqa",
    "read_rows",
]
