"""A stop that does not wind down (a task that never finishes cancelling) still ends the
process, with one line and the stop's exit code."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

HANGS_AFTER_THE_INTERRUPT = textwrap.dedent(
    """
    import time
    from medhalbench.commands import _errors
    _errors.STOP_GRACE_S = 1.0
    try:
        with _errors.interruptible("stopped by the user; run it again"):
            print("ready", flush=True)
            time.sleep(60)
    except KeyboardInterrupt:
        time.sleep(60)  # stands for a cancellation that never completes
    """
)


def test_a_stop_that_hangs_is_ended_after_the_grace_period() -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", HANGS_AFTER_THE_INTERRUPT],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    # Ended by the grace period's watchdog, not after the cancellation's 60 s hang (a bound
    # of the scenario's own, whatever the machine's load).
    assert process.returncode == 143 and time.monotonic() - started < 60
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: stopped by the user; run it again")
    assert "did not wind down within 1 s" in lines[0]


NEW_MODULES_IN_A_SAMPLE = textwrap.dedent(
    """
    import sys
    from inspect_ai.model._assistant_internal import init_sample_assistant_internal
    from medhalbench.commands import _errors
    with _errors.interruptible():
        before = set(sys.modules)
        init_sample_assistant_internal(None)  # what inspect runs as each sample starts
        print(sorted(set(sys.modules) - before))
    """
)


def test_no_import_is_left_for_a_stop_to_land_in_once_samples_run() -> None:
    # A stop inside an import undoes it, and each sample wound down imports it again
    # (seconds each): a stop then outlasts its grace period on a busy machine.
    done = subprocess.run(
        [sys.executable, "-c", NEW_MODULES_IN_A_SAMPLE],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout.strip() == "[]", done.stdout
