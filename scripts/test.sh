#!/usr/bin/env bash
# Lint, type-check and run the whole test suite (real models included).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
# In random order (pytest-randomly) on one worker per core, the long tests (marked slow)
# first, the tests that share a build (an xdist_group: a README's commands, the planted-key
# session) on one worker (loadgroup); the order's seed is printed first and
# MEDHALBENCH_TEST_SEED=N repeats it; the 15 slowest tests are listed, so that a slow one is
# seen when it lands, and pytest's last line gives the total.
# Each worker collects every test module, rewriting its asserts, and the tests start many
# processes: compiled once into __pycache__ (ignored by git), not on every start, even where
# the environment asks Python to write no bytecode.
unset PYTHONDONTWRITEBYTECODE
seed="${MEDHALBENCH_TEST_SEED:-$RANDOM}"
echo "test order: MEDHALBENCH_TEST_SEED=$seed ./scripts/test.sh repeats it"
.venv/bin/python -m pytest -q -n "${MEDHALBENCH_TEST_WORKERS:-auto}" --dist loadgroup \
    --randomly-seed="$seed" --durations=15 "$@"
