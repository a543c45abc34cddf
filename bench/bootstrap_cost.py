"""What the 95% intervals cost: MedHallu on 2,000 samples (1,000 synthetic rows), a cached
rerun against the stub server with and without the bootstrap, and the figures alone.

The first run fills inspect's cache; the two reruns make no model call, so they measure
inspect's own work plus ours. The bootstrap (1,000 resamples over rows, every figure with
its interval) must cost under 10% of a cached rerun.

    .venv/bin/python bench/bootstrap_cost.py [--samples 2000] [--resamples 1000]
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from inspect_ai import eval
from inspect_ai.log import read_eval_log
from inspect_ai.scorer import SampleScore

from helpers_port import measured, options, stub_at
from medhalbench.medhallu import medhallu
from medhalbench.medhallu._metrics import detection_scores, outcome_from_score
from workloads import eval_kwargs, write_workloads


def main() -> None:
    args = options(__doc__, samples=2000, resamples=1000)
    with stub_at(0.0) as base_url, tempfile.TemporaryDirectory() as tmp:
        os.environ["INSPECT_CACHE_DIR"] = str(Path(tmp) / "cache")
        files = write_workloads(Path(tmp), args.samples)
        times = {}
        logs = {}
        for name, resamples in (
            ("first run", args.resamples),
            ("rerun, no bootstrap", 0),
            ("rerun, bootstrap", args.resamples),
        ):
            task = medhallu(dataset=str(files["medhallu"]), bootstrap=resamples)
            with measured() as measure:
                [log] = eval(task, log_dir=tmp, cache=True, **eval_kwargs("medhallu", base_url, 50))
            times[name] = measure.seconds
            assert log.status == "success", log.error
            logs[name] = log
        full = read_eval_log(logs["rerun, bootstrap"].location)
        scores = [
            SampleScore(
                score=s.scores["detection_verdict"], sample_id=s.id, sample_metadata=s.metadata
            )
            for s in full.samples or []
        ]
        outcomes = [outcome_from_score(s) for s in scores]
        with measured() as alone:
            detection_scores(outcomes, resamples=0)
        with measured() as with_bootstrap:
            figures = detection_scores(outcomes, resamples=args.resamples)
    figures_only, with_intervals = alone.seconds, with_bootstrap.seconds
    bootstrap = with_intervals - figures_only
    intervals = sum(k.endswith("_ci_low") for k in figures)
    print(
        f"samples={len(outcomes)} rows={len(outcomes) // 2} resamples={args.resamples} cores={os.cpu_count()}"
    )
    for name, seconds in times.items():
        print(f"{name:22s} {seconds:7.2f} s")
    print(f"figures alone          {figures_only:7.3f} s")
    print(f"figures + {intervals} intervals {with_intervals:7.3f} s")
    print(
        f"bootstrap / cached rerun: {bootstrap / times['rerun, no bootstrap']:.3f}  (goal < 0.10)"
    )
    print(
        "rerun with bootstrap / rerun without: "
        f"{times['rerun, bootstrap'] / times['rerun, no bootstrap']:.3f}"
    )


if __name__ == "__main__":
    main()
