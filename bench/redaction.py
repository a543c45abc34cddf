"""What the one redactor costs: throughput over a large log's text (with and without colour
codes, with and without a key in it) and per small terminal write.

    python bench/redaction.py [--mb 16]
"""

from __future__ import annotations

import argparse
import os
import random
import time

KEY = "sk-proj-BENCHq8Zx41vN0cKe3xWm7TbR4u-7741"
WORDS = [
    "Metformin", "lowers", "hepatic", "glucose", "output", "in", "patients", "with", "type-2",
    "diabetes.", "2026-11-25T10:00:00", "sample_id=123", "abcdef0123456789abcdef0123456789",
]  # fmt: skip
COLOURED = "\\u001b[1;36m42\\u001b[0m"  # as a log's traceback_ansi holds colour codes


def text_of(megabytes: float, coloured: bool) -> str:
    rng = random.Random(0)
    words = [*WORDS, COLOURED] if coloured else WORDS
    parts: list[str] = []
    size = 0
    while size < megabytes * 1e6:
        word = rng.choice(words)
        parts.append(word)
        size += len(word) + 1
    return " ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=16.0)
    args = parser.parse_args()
    os.environ["BENCH_API_KEY"] = KEY
    from medhalbench._secrets import redact

    for coloured in (False, True):
        text = text_of(args.mb, coloured)
        for with_key in (False, True):
            sample = text[: len(text) // 2] + KEY + text[len(text) // 2 :] if with_key else text
            started = time.perf_counter()
            out = redact(sample)
            took = time.perf_counter() - started
            assert (KEY not in out) and (with_key or out == sample)
            print(
                f"{len(sample) / 1e6:5.1f} MB, colour codes {'yes' if coloured else 'no '}, "
                f"key {'yes' if with_key else 'no '}: {took:5.2f} s ({len(sample) / 1e6 / took:5.1f} MB/s)"
            )
    write = "progress 12/40 retries 3 (last: 429; next in 12 s) " * 2
    started = time.perf_counter()
    for _ in range(10_000):
        redact(write)
    print(
        f"a terminal write of {len(write)} characters: {(time.perf_counter() - started) * 100:.0f} µs"
    )


if __name__ == "__main__":
    main()
