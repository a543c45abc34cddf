"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions."""

from medhalbench.medhallu._benchmark import medhallu_benchmark
from medhalbench.medhallu._build import (
    MedHalluBuildSummary,
    build_medhallu,
    build_question,
    merge_shards,
    select_shard,
)
from medhalbench.medhallu._choice import parse_choice
from medhalbench.medhallu._data import (
    MEDHALLU_CONFIGS,
    MEDHALLU_HUB,
    MEDHALLU_REVISION,
    load_medhallu,
)
from medhalbench.medhallu._dataset import detection_samples
from medhalbench.medhallu._metrics import (
    DetectionOutcome,
    classification_scores,
    detection_metrics,
    detection_scores,
)
from medhalbench.medhallu._records import DIFFICULTIES, Difficulty, MedHalluRecord
from medhalbench.medhallu._scorer import detection_verdict
from medhalbench.medhallu._steps import (
    Attempt,
    AttemptStatus,
    BuildPrompts,
    BuildRoles,
    BuildSettings,
    Vote,
    difficulty_from_votes,
    equivalence_step,
    fallback_step,
    generate_step,
    length_step,
    parse_generated,
    refine_step,
    vote_step,
)
from medhalbench.medhallu._task import medhallu
from medhalbench.medhallu._verdicts import (
    DetectionLabel,
    DetectionVerdict,
    paper_detection_reading,
    parse_detection_verdict,
)

__all__ = [
    "MedHalluBuildSummary",
    "build_medhallu",
    "build_question",
    "merge_shards",
    "select_shard",
    "Attempt",
    "AttemptStatus",
    "BuildPrompts",
    "BuildRoles",
    "BuildSettings",
    "Vote",
    "difficulty_from_votes",
    "equivalence_step",
    "fallback_step",
    "generate_step",
    "length_step",
    "parse_generated",
    "refine_step",
    "vote_step",
    "medhallu_benchmark",
    "DIFFICULTIES",
    "MEDHALLU_CONFIGS",
    "MEDHALLU_HUB",
    "MEDHALLU_REVISION",
    "DetectionLabel",
    "DetectionOutcome",
    "DetectionVerdict",
    "Difficulty",
    "MedHalluRecord",
    "classification_scores",
    "detection_metrics",
    "detection_samples",
    "detection_scores",
    "detection_verdict",
    "load_medhallu",
    "medhallu",
    "paper_detection_reading",
    "parse_choice",
    "parse_detection_verdict",
]
