#!/usr/bin/env bash
# Lint, type-check and run the whole test suite (real models included).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
# The 15 slowest tests, so that a slow one is seen when it lands.
.venv/bin/python -m pytest -q --durations=15 "$@"
