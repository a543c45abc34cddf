"""MedHallu: detection of subtle hallucinated answers to PubMedQA questions."""

from typing import TYPE_CHECKING

from medhalbench import _lazy
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
    from medhalbench.medhallu._dataset import (
        DIFFICULTIES,
        MEDHALLU_REVISION,
        MedHalluRecord,
        detection_samples,
        load_medhallu,
    )
    from medhalbench.medhallu._implementation import medhallu_implementation
    from medhalbench.medhallu._metrics import (
        DetectionOutcome,
        detection_metrics,
        detection_scores,
    )
    from medhalbench.medhallu._scorer import detection_verdict
    from medhalbench.medhallu._task import medhallu
    from medhalbench.medhallu._verdicts import (
        DetectionLabel,
        paper_detection_reading,
        parse_detection_verdict,
    )
    from medhalbench.medhallu.builder._build import (
        build_medhallu,
        build_question,
        merge_shards,
        select_shard,
    )
    from medhalbench.medhallu.builder._steps import (
        Attempt,
        BuildPrompts,
        BuildRoles,
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

__getattr__, __all__ = _lazy.exports(__name__, __file__)
