"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions.

The settings models and the declaration load lightly (the command line reads them for
`--help`); the rest is imported on first use."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exports
from medhalbench.medhallu._benchmark import medhallu_benchmark
from medhalbench.medhallu._settings import (
    MEDHALLU_HUB,
    BuildSettings,
    ClusterRequest,
    Difficulty,
    MedHalluBuild,
    MedHalluConfig,
    MedHalluSettings,
    Merge,
    Pairing,
    parse_shard,
)

if TYPE_CHECKING:
    from medhalbench.medhallu._clusters import analyze_clusters
    from medhalbench.medhallu._dataset import (
        DIFFICULTIES,
        MEDHALLU_CONFIGS,
        MEDHALLU_REVISION,
        MedHalluRecord,
        detection_samples,
        load_medhallu,
    )
    from medhalbench.medhallu._implementation import medhallu_implementation
    from medhalbench.medhallu._metrics import (
        DetectionOutcome,
        classification_scores,
        detection_metrics,
        detection_scores,
    )
    from medhalbench.medhallu._scorer import detection_verdict
    from medhalbench.medhallu._task import medhallu
    from medhalbench.medhallu._verdicts import (
        DetectionLabel,
        DetectionVerdict,
        paper_detection_reading,
        parse_detection_verdict,
    )
    from medhalbench.medhallu.builder._build import (
        MedHalluBuildRow,
        MedHalluBuildSummary,
        build_medhallu,
        build_question,
        merge_shards,
        select_shard,
    )
    from medhalbench.medhallu.builder._steps import (
        Attempt,
        AttemptStatus,
        BuildPrompts,
        BuildRoles,
        Vote,
        VoteDifficulty,
        difficulty_from_votes,
        equivalence_step,
        fallback_step,
        generate_step,
        length_step,
        parse_choice,
        parse_generated,
        refine_step,
        vote_step,
    )

__getattr__ = exports(
    __name__,
    {
        "analyze_clusters": "._clusters",
        "DIFFICULTIES": "._dataset",
        "MEDHALLU_CONFIGS": "._dataset",
        "MEDHALLU_REVISION": "._dataset",
        "MedHalluRecord": "._dataset",
        "detection_samples": "._dataset",
        "load_medhallu": "._dataset",
        "medhallu_implementation": "._implementation",
        "DetectionOutcome": "._metrics",
        "classification_scores": "._metrics",
        "detection_metrics": "._metrics",
        "detection_scores": "._metrics",
        "detection_verdict": "._scorer",
        "medhallu": "._task",
        "DetectionLabel": "._verdicts",
        "DetectionVerdict": "._verdicts",
        "paper_detection_reading": "._verdicts",
        "parse_detection_verdict": "._verdicts",
        "MedHalluBuildRow": ".builder._build",
        "MedHalluBuildSummary": ".builder._build",
        "build_medhallu": ".builder._build",
        "build_question": ".builder._build",
        "merge_shards": ".builder._build",
        "select_shard": ".builder._build",
        "Attempt": ".builder._steps",
        "AttemptStatus": ".builder._steps",
        "BuildPrompts": ".builder._steps",
        "BuildRoles": ".builder._steps",
        "Vote": ".builder._steps",
        "VoteDifficulty": ".builder._steps",
        "difficulty_from_votes": ".builder._steps",
        "equivalence_step": ".builder._steps",
        "fallback_step": ".builder._steps",
        "generate_step": ".builder._steps",
        "length_step": ".builder._steps",
        "parse_choice": ".builder._steps",
        "parse_generated": ".builder._steps",
        "refine_step": ".builder._steps",
        "vote_step": ".builder._steps",
    },
)

__all__ = [
    "DIFFICULTIES",
    "MEDHALLU_CONFIGS",
    "MEDHALLU_HUB",
    "MEDHALLU_REVISION",
    "Attempt",
    "AttemptStatus",
    "BuildPrompts",
    "BuildRoles",
    "BuildSettings",
    "ClusterRequest",
    "DetectionLabel",
    "DetectionOutcome",
    "DetectionVerdict",
    "Difficulty",
    "MedHalluBuild",
    "MedHalluBuildRow",
    "MedHalluBuildSummary",
    "MedHalluConfig",
    "MedHalluRecord",
    "MedHalluSettings",
    "Merge",
    "Pairing",
    "Vote",
    "VoteDifficulty",
    "analyze_clusters",
    "build_medhallu",
    "build_question",
    "classification_scores",
    "detection_metrics",
    "detection_samples",
    "detection_scores",
    "detection_verdict",
    "difficulty_from_votes",
    "equivalence_step",
    "fallback_step",
    "generate_step",
    "length_step",
    "load_medhallu",
    "medhallu",
    "medhallu_benchmark",
    "medhallu_implementation",
    "merge_shards",
    "paper_detection_reading",
    "parse_choice",
    "parse_detection_verdict",
    "parse_generated",
    "parse_shard",
    "refine_step",
    "select_shard",
    "vote_step",
]
