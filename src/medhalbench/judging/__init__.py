"""Parsing model verdicts strictly: what cannot be read is counted, never guessed."""

from medhalbench.judging._choice import parse_choice, parse_yes_no
from medhalbench.judging._detection import (
    DetectionLabel,
    DetectionVerdict,
    parse_detection_verdict,
)
from medhalbench.judging._factual import FactualVerdict, parse_factual_verdict
from medhalbench.judging._truth import TruthVerdict, parse_truth_verdict, parse_truth_verdicts

__all__ = [
    "DetectionLabel",
    "DetectionVerdict",
    "FactualVerdict",
    "TruthVerdict",
    "parse_choice",
    "parse_detection_verdict",
    "parse_factual_verdict",
    "parse_truth_verdict",
    "parse_truth_verdicts",
    "parse_yes_no",
]
