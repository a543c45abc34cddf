"""Peak memory (max RSS) of each task over 1,000 samples, each in a fresh process, against
the stub server on 127.0.0.1 with no delay. Also the baseline of a process that only imports
medhalbench and inspect, so the task's own share can be read off.

    .venv/bin/python bench/memory.py [--samples 1000]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from helpers_port import options, stub_at

CHILD = """
import sys, resource
sys.path.insert(0, {bench!r})
from pathlib import Path
from inspect_ai import eval
from workloads import eval_kwargs, task_for, write_workloads
system = {system!r}
if system != "baseline":
    files = write_workloads(Path({folder!r}), {samples})
    [log] = eval(task_for(system, files), log_dir={folder!r}, cache=False, **eval_kwargs(system, {base_url!r}, 50))
    assert log.status == "success", log.error
    assert len(log.samples) == {samples}
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main() -> None:
    args = options(__doc__, samples=1000)
    bench = str(Path(__file__).resolve().parent)
    print(f"samples={args.samples} cores={os.cpu_count()}")
    with stub_at(0.0) as base_url, tempfile.TemporaryDirectory() as tmp:
        for system in ("baseline", "medhallu", "dahl", "medhal"):
            code = CHILD.format(
                bench=bench,
                system=system,
                folder=tmp,
                samples=args.samples,
                base_url=base_url,
            )
            result = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            peak_mb = int(result.stdout.strip().splitlines()[-1]) / 1024
            print(f"{system:9} peak RSS {peak_mb:7.1f} MB")


if __name__ == "__main__":
    main()
