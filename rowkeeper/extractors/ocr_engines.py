"""OCR engines behind one small interface: RapidOCR (default, models inside its wheel) and Tesseract.

Neither downloads anything: RapidOCR is pointed at the ONNX files shipped in its package and
Tesseract uses the Debian language packs. Engines are cached per process (loading ONNX sessions
costs more than reading a page) and hold no per-document state.
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from rowkeeper.errors import BadInput, LayerUnavailable
from rowkeeper.extractors.ocr_text import (
    drop_speck_tokens,
    han_allowed,
    is_speck,
    join_text,
    repair_line,
)

REC_BATCH = 4
"""Text runs per recognition batch. A batch pads every run to its widest, and on CPU the
padding costs more than the batching saves: batches of 4 read a page in ~3/4 of the CPU time
of batches of 16. One at a time was cheaper still but reads some words worse (no padding
at all is not what the model was trained on: "Bookshelf" came out "Booksheif")."""

# ISO 639-1 -> Tesseract traineddata names (the packs scripts/install.sh installs)
TESSERACT_LANGS = {"en": "eng", "ja": "jpn", "vi": "vie", "hu": "hun", "de": "deu",
                   "fr": "fra", "zh": "chi_sim", "ko": "kor"}


@dataclass(frozen=True)
class OcrBox:
    """A run of text the engine read, with its box in image pixels."""

    text: str
    box: tuple[float, float, float, float]
    score: float

    @property
    def height(self) -> float:
        """Box height in pixels."""
        return self.box[3] - self.box[1]


class OcrEngine(Protocol):
    """What the OCR layer needs from an engine."""

    name: str
    version: str
    box_to_font: float
    """Box height / font size for this engine's boxes (to estimate font sizes)."""

    def read(self, img: np.ndarray) -> list[OcrBox]:
        """Text runs (words or phrases, never across wide gaps) of a grayscale image."""
        ...

    def read_line(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """Text and confidence of each single-line grayscale crop."""
        ...


class RapidOcrEngine:
    """PP-OCR (detection + recognition ONNX) through RapidOCR, with the models in its wheel."""

    name = "rapidocr"
    box_to_font = 1.55  # DB detection boxes are unclipped ~1.5x the font size

    def __init__(self, det_side: int, threads: int, languages: tuple[str, ...] = ()) -> None:
        try:
            import rapidocr
            from rapidocr import RapidOCR
        except ImportError as e:
            raise LayerUnavailable("ocr: rapidocr is not installed (pip install 'rowkeeper[ocr]')") from e
        self.version = f"rapidocr-{getattr(rapidocr, '__version__', '3')}"
        models = Path(rapidocr.__file__).parent / "models"
        det, rec = _wheel_model(models, "det"), _wheel_model(models, "rec")
        # RapidOCR's __call__ sets per-call flags on the instance: one call at a time per process
        self._lock = threading.Lock()
        # Explicit model paths: RapidOCR then never consults its download table.
        self._ocr = RapidOCR(params={
            "Global.log_level": "error", "Global.use_cls": False,
            "Det.model_path": str(det), "Rec.model_path": str(rec),
            "Det.limit_side_len": det_side, "Det.limit_type": "max",
            # PaddleOCR pads every crop to >= 320 px wide; table cells are short ("1,250"): the
            # minimum width is the model's height, and batches are small (see REC_BATCH)
            "Rec.rec_img_shape": [3, 48, 48], "Rec.rec_batch_num": REC_BATCH,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        })
        _restrict_charset(self._ocr, languages)

    def read(self, img: np.ndarray) -> list[OcrBox]:
        """Detection + recognition on the whole image, word spaces restored from the image."""
        gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        with self._lock:
            res = self._ocr(_bgr(img), return_word_box=True, return_single_char_box=True)
        if res.boxes is None or res.txts is None:
            return []
        words = res.word_results if res.word_results and len(res.word_results) == len(res.txts) else None
        out = []
        for k, (quad, text, score) in enumerate(zip(res.boxes, res.txts, res.scores, strict=False)):
            q = np.asarray(quad, dtype=float)
            box = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
            centers = _char_centers(words[k]) if words else []
            text = repair_line(text.strip(), centers, gray, box)
            if text and not is_speck(text):
                out.append(OcrBox(text, box, float(score)))
        return out

    def read_line(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """Recognition only, batched: for cells the detector missed."""
        if not crops:
            return []
        with self._lock:
            res = self._ocr.recognize_txt([_bgr(c) for c in crops])
        return [(drop_speck_tokens(t.strip()), float(s)) for t, s in zip(res.txts, res.scores, strict=False)]


class _CharsetDecode:
    """RapidOCR's CTC decoder, blind to the characters none of the configured languages writes.

    The recogniser's second choice for a glyph is then read (単 rather than the simplified 单
    on a Japanese page): the model's own evidence, not a substitution table."""

    def __init__(self, decode: object, keep: np.ndarray) -> None:
        self.decode, self.keep = decode, keep
        self.character = getattr(decode, "character", None)

    def __call__(self, preds: np.ndarray, *args: object, **kwargs: object) -> object:
        if preds.ndim == 3 and preds.shape[2] == self.keep.size:
            won = preds.argmax(axis=2)
            b, t = np.nonzero(~self.keep[won])
            if b.size:  # only the frames a masked character won are touched (one argmax pass)
                w = won[b, t]
                sub = preds[b, t] * self.keep
                sub[:, 0] = 0.0  # a glyph is there: the blank must not win instead
                # the allowed runner-up takes the glyph's confidence (RapidOCR drops low-scoring lines)
                preds[b, t, sub.argmax(axis=1)] = preds[b, t, w]
                preds[b, t, w] = 0.0
        return self.decode(preds, *args, **kwargs)  # type: ignore[operator]


def _restrict_charset(ocr: object, languages: tuple[str, ...]) -> None:
    """Mask the recogniser's dictionary to `languages` (nothing to mask: left as it is)."""
    rec = ocr._load_rec_model() if hasattr(ocr, "_load_rec_model") else None  # noqa: SLF001
    decode = getattr(rec, "postprocess_op", None)
    chars = getattr(decode, "character", None)
    if rec is None or not chars:
        return
    keep = np.array([len(c) != 1 or han_allowed(c, languages) for c in chars], dtype=bool)
    if not keep.all():
        rec.postprocess_op = _CharsetDecode(decode, keep)


def _char_centers(word: object) -> list[float]:
    """x centers of the recognised characters (RapidOCR's CTC-aligned single-char boxes)."""
    try:
        return [float(np.asarray(b, dtype=float)[:, 0].mean()) for _, _, b in word]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return []


def _wheel_model(models: Path, kind: str) -> Path:
    """The det/rec ONNX file shipped inside the rapidocr wheel (never a downloaded one)."""
    found = sorted(models.glob(f"*_{kind}_*.onnx"))
    if not found:
        raise LayerUnavailable(
            f"ocr: no {kind} model in {models}; reinstall rapidocr==3.10.0, whose wheel ships them"
        )
    return found[-1]


def _bgr(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR) if img.ndim == 2 else img


class TesseractEngine:
    """Tesseract 5 through its CLI (TSV output), languages from the Debian packs."""

    name = "tesseract"
    box_to_font = 1.05  # word boxes hug the glyphs: about the font size

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

    def read(self, img: np.ndarray) -> list[OcrBox]:
        """Words grouped into phrases (side by side on one line, gap under ~0.9 x height)."""
        words = [_word(r) for r in self._run(img, 6) if r.get("level") == "5"]
        return _phrases([w for w in words if w is not None and not _noise(w)])

    def read_line(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """One Tesseract call per crop in single-line mode (only used for missed cells)."""
        out = []
        for c in crops:
            words = [w for w in (_word(r) for r in self._run(c, 7) if r.get("level") == "5") if w]
            text = join_text([w.text for w in words])
            out.append((text, min((w.score for w in words), default=0.0)))
        return out


def _noise(w: OcrBox) -> bool:
    """A speck, or a lone low-confidence mark ("-", "|") Tesseract reads from scanner dirt."""
    return is_speck(w.text) or (len(w.text) == 1 and not w.text.isalnum() and w.score < 0.6)


def _word(row: dict[str, str]) -> OcrBox | None:
    text = (row.get("text") or "").strip()
    conf = float(row.get("conf") or -1)
    if not text or conf < 0:
        return None
    x, y, w, h = (float(row[k]) for k in ("left", "top", "width", "height"))
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
        out[i] = OcrBox(join_text([p.text, w.text]), box, min(p.score, w.score))
    return sorted(out, key=lambda b: ((b.box[1] + b.box[3]) / 2, b.box[0]))


def _same_phrase(a: OcrBox, b: OcrBox) -> bool:
    # word boxes hug glyphs ("are" is x-height tall): measure gaps against the taller word
    overlap = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return overlap > 0.5 * max(min(a.height, b.height), 1.0) and 0 <= b.box[0] - a.box[2] < 0.9 * max(a.height, b.height)


@functools.lru_cache(maxsize=4)
def get_engine(kind: str, languages: tuple[str, ...], det_side: int, threads: int) -> OcrEngine:
    """The process-wide engine for these settings (ONNX sessions are loaded once per process)."""
    if kind == "tesseract":
        return TesseractEngine(languages)
    return RapidOcrEngine(det_side, threads, languages)
