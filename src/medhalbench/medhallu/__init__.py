"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions."""

from typing import TYPE_CHECKING

from medhalbench._lazy import exported, exports
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

_HEAVY = {
    "._clusters": "analyze_clusters",
    "._dataset": (
        "DIFFICULTIES MEDHALLU_CONFIGS MEDHALLU_REVISION MedHalluRecord detection_samples "
        "load_medhallu"
    ),
    "._implementation": "medhallu_implementation",
    "._metrics": "DetectionOutcome classification_scores detection_metrics detection_scores",
    "._scorer": "detection_verdict",
    "._task": "medhallu",
    "._verdicts": "DetectionLabel DetectionVerdict paper_detection_reading parse_detection_verdict",
    ".builder._build": (
        "MedHalluBuildRow MedHalluBuildSummary build_medhallu build_question merge_shards "
        "select_shard"
    ),
    ".builder._steps": (
        "Attempt AttemptStatus BuildPrompts BuildRoles Vote VoteDifficulty "
        "difficulty_from_votes equivalence_step fallback_step generate_step length_step "
        "parse_choice parse_generated refine_step vote_step"
    ),
}
"""What is imported on first use: each module's names."""
__getattr__ = exports(__name__, _HEAVY)

__all__ = [
    "medhallu_benchmark",
    "MEDHALLU_HUB",
    "BuildSettings",
    "ClusterRequest",
    "Difficulty",
    "MedHalluBuild",
    "MedHalluConfig",
    "MedHalluSettings",
    "Merge",
    "Pairing",
    "parse_shard",
    *exported(_HEAVY),
]
