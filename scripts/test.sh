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
if [ $# -eq 0 ]; then set -- -m "not slow"; fi
python3 -m pytest "$@"
