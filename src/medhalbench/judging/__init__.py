"""Parsing model verdicts strictly: what cannot be read is counted, never guessed."""

from medhalbench.judging._detection import (
    DetectionLabel,
    DetectionVerdict,
    parse_detection_verdict,
)

__all__ = ["DetectionLabel", "DetectionVerdict", "parse_detection_verdict"]
