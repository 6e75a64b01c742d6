"""report.html in a real headless browser (Debian's chromium): loads, shows the figures, no
console errors, nothing fetched from outside the file."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rowkeeper.config import load_config
from rowkeeper.flows.ingest import ingest_plain

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def report_dir(pdf_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("html_in")
    for name in ("ruled.pdf", "two_page.pdf", "ruled_encrypted.pdf"):
        shutil.copy(pdf_dir / name, d / name)
    out = tmp_path_factory.mktemp("html_out")
    ingest_plain([str(d)], load_config().with_out(str(out)))
    return out


def test_report_is_self_contained_with_failures_first(report_dir: Path) -> None:
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    srcs = re.findall(r'(?:src|href)="([^"#][^"]*)"', page)
    assert srcs and all(s.startswith("data:") for s in srcs)  # thumbnails embedded, nothing fetched
    assert page.count('src="data:image/png;base64,') == 3  # ruled: 1 page, two_page: pages 1 and 2
    assert page.index("ruled_encrypted.pdf") < page.index("two_page.pdf")  # failures first
    assert "merged from 2 pieces" in page and 'href="#t-' in page
    assert "encrypted PDF" in page


@pytest.mark.browser
def test_report_loads_in_chromium_without_console_errors(report_dir: Path, tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("chromium not installed (scripts/install.sh test installs it)")
    url = (report_dir / "report.html").resolve().as_uri()
    shot = tmp_path / "report.png"
    args = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
            "--v=0", "--window-size=1280,1600"]
    dom = subprocess.run([*args, "--dump-dom", url], capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0
    assert re.search(r"<b>3</b><span>documents</span>", dom.stdout)
    assert re.search(r"<b>1</b><span>failed</span>", dom.stdout)
    assert "Summary" in dom.stdout and "物件名" in dom.stdout
    console = [ln for ln in dom.stderr.splitlines() if ":CONSOLE" in ln]
    assert console == []
    subprocess.run([*args, f"--screenshot={shot}", url], capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
