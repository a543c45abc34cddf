"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions."""

from medhalbench.medhallu._benchmark import medhallu_benchmark
from medhalbench.medhallu._build import (
    MedHalluBuild,
    MedHalluBuildRow,
    MedHalluBuildSummary,
    Merge,
    build_medhallu,
    build_question,
    merge_shards,
    parse_shard,
    select_shard,
)
from medhalbench.medhallu._choice import parse_choice
from medhalbench.medhallu._clusters import ClusterRequest, analyze_clusters
from medhalbench.medhallu._data import (
    MEDHALLU_CONFIGS,
    MEDHALLU_HUB,
    MEDHALLU_REVISION,
    MedHalluConfig,
    load_medhallu,
)
from medhalbench.medhallu._dataset import Pairing, detection_samples
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
    VoteDifficulty,
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
    "ClusterRequest",
    "MedHalluBuild",
    "MedHalluBuildRow",
    "MedHalluConfig",
    "Merge",
    "Pairing",
    "VoteDifficulty",
    "analyze_clusters",
    "parse_shard",
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
