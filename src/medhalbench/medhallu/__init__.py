"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions."""

from medhalbench.medhallu._dataset import detection_samples
from medhalbench.medhallu._metrics import (
    DetectionOutcome,
    classification_scores,
    detection_metrics,
    detection_scores,
)
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.medhallu._task import medhallu

__all__ = [
    "DetectionOutcome",
    "classification_scores",
    "detection_metrics",
    "detection_samples",
    "detection_scores",
    "detection_verdict",
    "medhallu",
]
