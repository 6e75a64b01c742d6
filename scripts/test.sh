#!/usr/bin/env bash
# Install everything the tests need, check the import layers and lint, run the default test suite.
# Extra arguments go to pytest (e.g. scripts/test.sh -m slow).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh test
export ORT_DISABLE_TELEMETRY=1 PREFECT_SERVER_ANALYTICS_ENABLED=false OMP_THREAD_LIMIT=1
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS=${PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS:-120}
lint-imports
ruff check rowkeeper tests bench samples
if [ $# -eq 0 ]; then
  # --durations: the slowest tests, to keep the default run under ~10 minutes on 2 cores.
  python3 -m pytest -m "not slow" --durations=15
  # Slow tests CI runs too: the served deployment (a Prefect server, `rowkeeper serve`, a flow
  # run: scheduled runs that fail every document must never pass unnoticed again), the wheel
  # installed in a fresh venv running `rowkeeper run` from outside the repo, and the shared
  # Prefect server's reuse, idle stop and replacement of a stale or hung one (~40 s each: real
  # runs through Prefect, most of it waiting, which the default suite no longer does).
  exec python3 -m pytest -m slow tests/flows/test_serve.py tests/rowkeeper/test_wheel.py \
    tests/flows/test_shared_server.py
fi
python3 -m pytest "$@"
