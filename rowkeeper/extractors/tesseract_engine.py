"""Tesseract 5 as an OCR engine (`ocr_engines.get_engine("tesseract", ...)`): its CLI's TSV
words, read from a page's inked part and joined into phrases the way RapidOCR reports them."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess

import cv2
import numpy as np

from rowkeeper.errors import BadInput, LayerUnavailable
from rowkeeper.extractors.figure_ink import figures_marked
from rowkeeper.extractors.ocr_engines import Enough, OcrBox, content_box
from rowkeeper.extractors.ocr_signs import signed_words
from rowkeeper.extractors.ocr_text import fix_dash_words, is_speck, join_text

# ISO 639-1 -> Tesseract traineddata names (the packs scripts/install.sh installs)
TESSERACT_LANGS = {"en": "eng", "ja": "jpn", "vi": "vie", "hu": "hun", "de": "deu",
                   "fr": "fra", "zh": "chi_sim", "ko": "kor"}


class TesseractEngine:
    """Tesseract 5 through its CLI (TSV output), languages from the Debian packs."""

    name = "tesseract"
    box_to_font = 1.55  # phrases padded to a detector box's height (`_padded`)

    def __init__(self, languages: tuple[str, ...]) -> None:
        exe = shutil.which("tesseract")
        if exe is None:
            raise LayerUnavailable("ocr: tesseract not found (apt-get install tesseract-ocr tesseract-ocr-jpn ...)")
        self.exe = exe
        self.langs = "+".join(TESSERACT_LANGS.get(lang, lang) for lang in languages) or "eng"
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=False)
        first = (out.stdout or out.stderr).splitlines()
        self.version = first[0].replace(" ", "-") if first else "tesseract"

    def _run(self, img: np.ndarray, psm: int) -> list[dict[str, str]]:
        ok, png = cv2.imencode(".png", img)
        if not ok:
            raise BadInput("ocr: could not encode page image")
        env = {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}
        proc = subprocess.run(
            [self.exe, "stdin", "stdout", "-l", self.langs, "--psm", str(psm), "tsv"],
            input=png.tobytes(), capture_output=True, env=env, check=False, timeout=300)
        if proc.returncode != 0:
            raise LayerUnavailable(f"ocr: tesseract failed: {proc.stderr.decode(errors='replace')[:300]}")
        text = proc.stdout.decode("utf-8", errors="replace")
        return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))

    def read(self, img: np.ndarray, enough: Enough | None = None) -> list[OcrBox]:
        """Words grouped into phrases (side by side on one line, gap under ~0.9 x height), read
        from the image's inked part (in one call: `enough` is not asked)."""
        gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        x0, y0, x1, y1 = content_box(gray)
        words = [_word(r, (x0, y0)) for r in self._run(img[y0:y1, x0:x1], 6) if r.get("level") == "5"]
        kept = [w for w in words if w is not None and not _noise(w)]
        words = figures_marked(signed_words(_without_marks_read_as_words(kept), gray), gray)
        return [_padded(p) for p in _phrases(_dashes_read(words, gray))]

    def read_line(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """One Tesseract call per crop in single-line mode (only used for missed cells)."""
        out = []
        for c in crops:
            words = [w for w in (_word(r) for r in self._run(c, 7) if r.get("level") == "5") if w]
            text = join_text([w.text for w in words])
            out.append((text, min((w.score for w in words), default=0.0)))
        return out


GLYPH_BOX = 1.05
"""A Tesseract word box's height over the font size: the box hugs the glyphs."""


def _padded(run: OcrBox) -> OcrBox:
    """`run` with its box padded above and below to the height RapidOCR's detector gives a run
    of the same print (`RapidOcrEngine.box_to_font` font sizes): the OCR layer measures column
    gaps, row gaps and alignment in run heights, and read Tesseract's glyph-tight boxes as a
    smaller print (a word space on a Vietnamese page was as wide as a column gap). Word extents
    across stay the glyphs'."""
    x0, y0, x1, y1 = run.box
    pad = (y1 - y0) * (TesseractEngine.box_to_font / GLYPH_BOX - 1.0) / 2
    words = run.words or ((run.text, x0, x1),)
    return OcrBox(run.text, (x0, y0 - pad, x1, y1 + pad), run.score, words)


def _dashes_read(words: list[OcrBox], gray: np.ndarray) -> list[OcrBox]:
    """Words with each lone dash between two words of its phrase read by its ink's length
    (`ocr_text.fix_dash_words`: Tesseract reads an en dash as "-")."""
    out = list(words)
    for k, w in enumerate(words):
        if w.text != "-":
            continue
        left = [v for v in words if _same_phrase(v, w)]
        right = [v for v in words if _same_phrase(w, v)]
        if left and right:
            a = max(left, key=lambda v: v.box[2])
            b = min(right, key=lambda v: v.box[0])
            text = fix_dash_words([(a.text, a.box), (w.text, w.box), (b.text, b.box)], gray)[1]
            out[k] = OcrBox(text, w.box, w.score)
    return out


def _without_marks_read_as_words(words: list[OcrBox]) -> list[OcrBox]:
    """`words` less the ones Tesseract made of another word's marks: on a word at least
    twice as tall, in its upper half (a large bold Vietnamese title's tone marks come out
    as a line of their own above it, "L) “+ FAŠ `" over "Chi phí vận hành", and joined the
    title). A word of print on its own line or beside another is never over it."""
    return [w for w in words if not any(_marks_of(w, v) for v in words if v is not w)]


def _marks_of(mark: OcrBox, word: OcrBox) -> bool:
    """Whether `mark` is small ink on `word`'s letters: under 0.55 of its height, overlapping it
    across, and ending in its upper half or touching its top (a tenth of its height; a word of
    the line above ends a leading away)."""
    across = min(mark.box[2], word.box[2]) - max(mark.box[0], word.box[0])
    touch = max(2.0, 0.1 * word.height)
    return (mark.height < 0.55 * word.height and across > 0
            and word.box[1] - touch <= mark.box[3] < word.box[1] + 0.5 * word.height)


def _noise(w: OcrBox) -> bool:
    """A speck, or a lone low-confidence mark ("-", "|") Tesseract reads from scanner dirt."""
    return is_speck(w.text) or (len(w.text) == 1 and not w.text.isalnum() and w.score < 0.6)


def _word(row: dict[str, str], origin: tuple[int, int] = (0, 0)) -> OcrBox | None:
    text = (row.get("text") or "").strip()
    conf = float(row.get("conf") or -1)
    if not text or conf < 0:
        return None
    x, y, w, h = (float(row[k]) for k in ("left", "top", "width", "height"))
    x, y = x + origin[0], y + origin[1]
    return OcrBox(text, (x, y, x + w, y + h), conf / 100.0)


def _phrases(words: list[OcrBox]) -> list[OcrBox]:
    """Neighbouring words on one line joined into phrases; wide gaps stay column breaks.

    Words are taken left to right and each joins the phrase it continues (the one ending just
    before it that it overlaps most in height), not the previously read one: tone marks and
    descenders move a box's centre by more than the next row's, and any order by centre
    interleaves rows ("Ngăn kéo bàn" came out as three phrases in two columns)."""
    out: list[OcrBox] = []
    for w in sorted(words, key=lambda w: w.box[0]):
        ends = [i for i, p in enumerate(out) if _same_phrase(p, w)]
        if not ends:
            out.append(w)
            continue
        i = max(ends, key=lambda i: min(out[i].box[3], w.box[3]) - max(out[i].box[1], w.box[1]))
        p = out[i]
        box = (p.box[0], min(p.box[1], w.box[1]), w.box[2], max(p.box[3], w.box[3]))
        words = (p.words or ((p.text, p.box[0], p.box[2]),)) + ((w.text, w.box[0], w.box[2]),)
        out[i] = OcrBox(join_text([p.text, w.text]), box, min(p.score, w.score), words)
    return sorted(out, key=lambda b: ((b.box[1] + b.box[3]) / 2, b.box[0]))


def _same_phrase(a: OcrBox, b: OcrBox) -> bool:
    # word boxes hug glyphs ("are" is x-height tall): measure gaps against the taller word
    overlap = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return overlap > 0.5 * max(min(a.height, b.height), 1.0) and 0 <= b.box[0] - a.box[2] < 0.9 * max(a.height, b.height)
