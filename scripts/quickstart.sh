#!/usr/bin/env bash
# Install, generate the bundled sample PDFs and run rowkeeper on them into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh base
export ORT_DISABLE_TELEMETRY=1 PREFECT_SERVER_ANALYTICS_ENABLED=false OMP_THREAD_LIMIT=1
python3 -m samples.make_samples samples/pdfs
rowkeeper run samples/pdfs --out out
echo "done: see out/tables.jsonl, out/chunks.jsonl and out/report.html"
