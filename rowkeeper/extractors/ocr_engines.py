"""OCR engines behind one small interface: RapidOCR (default, models inside its wheel) and Tesseract.

Neither downloads anything: RapidOCR is pointed at the ONNX files shipped in its package and
Tesseract uses the Debian language packs. Engines are cached per process (loading ONNX sessions
costs more than reading a page) and hold no per-document state.
"""

from __future__ import annotations

import functools
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from rowkeeper.errors import LayerUnavailable
from rowkeeper.extractors.ocr_language import han_allowed
from rowkeeper.extractors.ocr_text import drop_speck_tokens, is_speck, repair_line, word_spans

REC_BATCH = 4
"""Text runs per recognition batch. A batch pads every run to its widest, and on CPU the
padding costs more than the batching saves: batches of 4 read a page in ~3/4 of the CPU time
of batches of 16. One at a time was cheaper still but reads some words worse (no padding
at all is not what the model was trained on: "Bookshelf" came out "Booksheif")."""

Enough = Callable[[list[str], float], bool]
"""Told the texts recognised so far and the share of the page's text (by line width) they
are, True stops recognition: the lines not yet read are left out of the reading."""


@dataclass(frozen=True)
class OcrBox:
    """A run of text the engine read, with its box in image pixels."""

    text: str
    box: tuple[float, float, float, float]
    score: float
    words: tuple[tuple[str, float, float], ...] = ()
    """The run's words with the x extent of each one's ink (word, x0, x1); () when the engine
    did not place them (the run is then one word). `box` stays the detector's (padded by a
    fraction of the font size, so that neighbouring columns' boxes may touch); column
    footprints are read from these."""

    @property
    def height(self) -> float:
        """Box height in pixels."""
        return self.box[3] - self.box[1]

    def with_text(self, text: str) -> OcrBox:
        """The run read as `text`, which differs from its own text letter by letter (marks put
        or taken, as `ocr_extractor.with_marks` does): each word keeps its ink and takes the
        letters at its place; where the letters or spaces do not line up, () words."""
        words: list[tuple[str, float, float]] = []
        if [c == " " for c in text] == [c == " " for c in self.text]:
            at = 0
            for w, x0, x1 in self.words:
                i = self.text.find(w, at)
                if i < 0:
                    words = []
                    break
                words.append((text[i:i + len(w)], x0, x1))
                at = i + len(w)
        return OcrBox(text, self.box, self.score, tuple(words))

    def word_boxes(self) -> list[OcrBox]:
        """The run's words as boxes of their own ink across (the run's top and bottom)."""
        if not self.words:
            return [self]
        return [OcrBox(t, (x0, self.box[1], x1, self.box[3]), self.score, ((t, x0, x1),)) for t, x0, x1 in self.words]


class OcrEngine(Protocol):
    """What the OCR layer needs from an engine."""

    name: str
    version: str
    box_to_font: float
    """Box height / font size for this engine's boxes (to estimate font sizes)."""

    def read(self, img: np.ndarray, enough: Enough | None = None) -> list[OcrBox]:
        """Text runs (words or phrases, never across wide gaps) of a grayscale image; `enough`
        may stop an engine that reads line by line early (see `Enough`)."""
        ...

    def read_line(self, crops: list[np.ndarray]) -> list[tuple[str, float]]:
        """Text and confidence of each single-line grayscale crop."""
        ...


class RapidOcrEngine:
    """PP-OCR (detection + recognition ONNX) through RapidOCR, with the models in its wheel."""

    name = "rapidocr"
    box_to_font = 1.55  # DB detection boxes are unclipped ~1.5x the font size

    def __init__(self, det_side: int, threads: int, languages: tuple[str, ...] = (), inked_only: bool = False,
                 rec_width: float = 1.0) -> None:
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
        self._ocr = _paged(RapidOCR)(params={
            "Global.log_level": "error", "Global.use_cls": False,
            "Det.model_path": str(det), "Rec.model_path": str(rec),
            "Det.limit_side_len": det_side, "Det.limit_type": "max",
            # PaddleOCR pads every crop to >= 320 px wide; table cells are short ("1,250"): the
            # minimum width is the model's height, and batches are small (see REC_BATCH)
            "Rec.rec_img_shape": [3, 48, 48], "Rec.rec_batch_num": REC_BATCH,
            "EngineConfig.onnxruntime.intra_op_num_threads": threads,
            "EngineConfig.onnxruntime.inter_op_num_threads": 1,
        })
        self._ocr.inked_only = inked_only
        self._ocr.rec_width = rec_width
        _restrict_charset(self._ocr, languages)

    def read(self, img: np.ndarray, enough: Enough | None = None) -> list[OcrBox]:
        """Detection + recognition on the whole image, word spaces restored from the image;
        with `enough`, lines are recognised widest first and `enough` may stop it early."""
        gray = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        with self._lock:
            self._ocr.enough = enough
            try:
                res = self._ocr(_bgr(img), return_word_box=True, return_single_char_box=True)
            finally:
                self._ocr.enough = None
        if res.boxes is None or res.txts is None:
            return []
        words = res.word_results if res.word_results and len(res.word_results) == len(res.txts) else None
        out = []
        for k, (quad, text, score) in enumerate(zip(res.boxes, res.txts, res.scores, strict=False)):
            q = np.asarray(quad, dtype=float)
            box = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
            centers = list(words[k].xs) if words else []
            text = repair_line(text.strip(), centers, gray, box)
            if not text or is_speck(text):
                continue
            out.append(OcrBox(text, box, float(score), word_spans(text, centers, gray, box)))
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


@dataclass(frozen=True)
class LineCenters:
    """x centres (page pixels) of a recognised line's characters, spaces left out."""

    xs: tuple[float, ...]


@functools.cache
def _paged(rapid: type) -> type:
    """RapidOCR that detects text on the inked part of the image only, and gives the centres of
    the characters it read (`char_centers`) in place of per-character boxes: same readings."""
    from rapidocr.main import RapidOCRError, apply_vertical_padding

    class PagedRapidOCR(rapid):  # type: ignore[misc, valid-type]
        def detect_and_crop(self, img: np.ndarray, op_record: dict) -> tuple[list[np.ndarray], object]:
            """RapidOCR's step; with `inked_only`, the detector run by `detect_in_content`."""
            det = self._load_det_model()
            if self.cfg.Global.use_vertical_padding:
                img, op_record = apply_vertical_padding(img, op_record, self.width_height_ratio, self.min_height)
            else:
                op_record["padding_1"] = {"top": 0, "left": 0}
            res = detect_in_content(det, img) if getattr(self, "inked_only", False) else det(img)
            if res.boxes is None:
                raise RapidOCRError("The text detection result is empty")
            return self.crop_text_regions(img, res.boxes), res

        def recognize_txt(self, img: list[np.ndarray]) -> object:
            """RapidOCR's step on the lines narrowed to `rec_width` (`narrowed`); with `enough`
            set, batch by batch, widest first (`widest_first`)."""
            img = narrowed(img, getattr(self, "rec_width", 1.0))
            enough = getattr(self, "enough", None)
            if enough is None:
                return super().recognize_txt(img)
            return widest_first(super().recognize_txt, img, self._load_rec_model().rec_batch_num, enough)

        def calc_word_boxes(self, img: list[np.ndarray], dt_boxes: np.ndarray, rec_res: object) -> tuple:
            out = []
            for crop, quad, text, info in zip(img, dt_boxes, rec_res.txts, rec_res.word_results, strict=False):  # type: ignore[attr-defined]
                xs = char_centers(text, info, crop.shape[:2], np.asarray(quad, dtype=np.float32))
                if xs is None:  # a vertical line: RapidOCR's own rotation handles it
                    one = type(rec_res)(txts=(text,), word_results=(info,))
                    got = self.cal_rec_boxes([crop], quad[None], one, True).word_results
                    xs = [float(np.asarray(b, dtype=float)[:, 0].mean()) for _, _, b in got[0]] if got else []
                out.append(LineCenters(tuple(xs)))
            return tuple(out)

    return PagedRapidOCR


def narrowed(crops: list[np.ndarray], scale: float) -> list[np.ndarray]:
    """Line images squeezed to `scale` of their width, height kept (1: as they are).

    Recognition costs in proportion to a line's width once scaled to the model's 48-px height,
    and this recogniser reads a glyph from more frames than it needs: at 0.8 the hard scans'
    dev split read every cell and column name as at full width for ~0.8 of the CPU. Where
    the characters are found (`char_centers`) is unchanged: frame positions are shares of
    the line."""
    if scale == 1.0:
        return crops
    return [cv2.resize(c, (max(1, round(c.shape[1] * scale)), c.shape[0]), interpolation=cv2.INTER_AREA)
            for c in crops]


def widest_first(recognize: Callable[[list[np.ndarray]], object], crops: list[np.ndarray], batch: int,
                 enough: Enough) -> object:
    """RapidOCR's recognition of `crops` (`recognize`: its step) in its own batches of `batch`,
    the widest batch first, stopping once `enough` says so (the unread lines get no text).

    The batches are the ones RapidOCR makes (its sort by width / height, cut from the narrowest),
    each recognised alone, so every line read gets the padding, and the reading, it always had:
    a page read to its end reads as before. The widest lines (captions, sentences) hold the most
    letters, so a page's script is told after a few of them."""
    from rapidocr.ch_ppocr_rec.typings import TextRecOutput

    ratios = np.array([c.shape[1] / float(c.shape[0]) for c in crops])
    order = np.argsort(ratios)  # RapidOCR's own call, so ties fall into the same batches
    got: dict[int, tuple[str, float, object]] = {}
    done, total = 0.0, float(ratios.sum()) or 1.0
    for start in reversed(range(0, len(order), batch)):
        part = [int(i) for i in order[start:start + batch]]
        res = recognize([crops[i] for i in part])
        for i, t, sc, w in zip(part, res.txts, res.scores, res.word_results, strict=True):  # type: ignore[attr-defined]
            got[i] = (t, sc, w)
        done += float(ratios[part].sum())
        if start and enough([got[i][0] for i in sorted(got)], done / total):
            break
    blank = ("", 0.0, ("", 0.0, None))  # lines left unread: RapidOCR drops text-less lines
    rows = [got.get(i, blank) for i in range(len(crops))]
    # tuples per line, as RapidOCR's own recogniser returns them (its annotations say otherwise)
    return TextRecOutput(imgs=crops, txts=tuple(r[0] for r in rows),  # type: ignore[arg-type]
                         scores=tuple(r[1] for r in rows),  # type: ignore[arg-type]
                         word_results=tuple(r[2] for r in rows))  # type: ignore[arg-type]


def detect_in_content(det: object, img: np.ndarray) -> object:
    """RapidOCR's text detection (`det`: its TextDetector) run over the inked part of `img` only.

    A page's blank margins cost the detector as much as its text (on a page with one table,
    two thirds of the image). The image is resized for the detector as RapidOCR does, the
    part around the ink (`content_box`, cut at the network's 32-pixel steps) goes through the
    network, and its probability map is set back into a blank map of the whole image, so the
    boxes come out of RapidOCR's own post-processing at the scale and place they always had."""
    from rapidocr.ch_ppocr_det.utils import TextDetOutput

    pre = det.get_preprocess()  # type: ignore[attr-defined]
    small = pre.resize(img)
    if small is None:
        return TextDetOutput()
    big, tall = small.shape[:2], img.shape[:2]
    x0, y0, x1, y1 = content_box(img[:, :, 0] if img.ndim == 3 else img)
    sy, sx = big[0] / tall[0], big[1] / tall[1]
    top, left = int(y0 * sy) // 32 * 32, int(x0 * sx) // 32 * 32
    bottom, right = min(-(-int(y1 * sy + 1) // 32) * 32, big[0]), min(-(-int(x1 * sx + 1) // 32) * 32, big[1])
    part = small[top:bottom, left:right]
    pred = np.zeros((1, 1, *big), dtype=np.float32)
    pred[:, :, top:bottom, left:right] = det.session(  # type: ignore[attr-defined]
        np.expand_dims(pre.permute(pre.normalize(part)), 0).astype(np.float32))
    boxes, scores = det.postprocess_op(pred, tall)  # type: ignore[attr-defined]
    if len(boxes) < 1:
        return TextDetOutput()
    return TextDetOutput(img, det.sorted_boxes(boxes), scores)  # type: ignore[attr-defined]


def char_centers(text: str, info: object, crop: tuple[int, int], quad: np.ndarray) -> list[float] | None:
    """x centres of a line's characters from the recogniser's CTC frame positions (`info`: its
    WordInfo; `crop`: the line image's height and width; `quad`: its box on the page), in page
    pixels; None for a vertical line.

    The figures RapidOCR's per-character boxes (`return_single_char_box`) give, computed with
    arrays: its boxes cost ~2 ms a line in Python (deep copies, a perspective transform and a
    point sort per character) and only their centres are used (`ocr_text.repair_line`)."""
    groups = [list(c) for c in getattr(info, "word_cols", ())]
    size = float(getattr(info, "line_txt_len", 0.0))
    cols = np.array([c for g in groups for c in g], dtype=float)
    if not text or not cols.size or size == 0:
        return []
    edges = [math.hypot(*(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    if round(max(edges[1], edges[3]) / max(edges[0], edges[2], 1e-6), 2) >= 1.5:
        return None
    height, width = crop
    pitch = width / size
    spans = [(g[-1] - g[0]) * pitch / (len(g) - 1) for g in groups if len(g) > 1]
    char_w = sum(spans) / len(spans) if spans else width / len(text)
    mid = (cols + 0.5) * pitch
    x0 = np.maximum(np.trunc(mid - char_w / 2), 0.0)
    x1 = np.minimum(np.trunc(mid + char_w / 2), float(width))
    # neighbours that overlap meet halfway (RapidOCR's adjust_box_overlap)
    cut = np.maximum(x1[:-1] - x0[1:], 0.0) / 2
    x1[:-1] -= cut
    x0[1:] += cut
    # crop pixels back to the page through the crop's perspective transform, truncated as RapidOCR does
    left, top = int(quad[:, 0].min()), int(quad[:, 1].min())
    q = quad - np.array([left, top], dtype=np.float32)
    w, h = int(math.hypot(*(q[0] - q[1]))), int(math.hypot(*(q[0] - q[3])))
    inv = cv2.invert(cv2.getPerspectiveTransform(q, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)))[1]
    pts = np.stack([np.stack([x0, x1, x1, x0], 1).ravel(), np.tile([0.0, 0.0, height, height], len(x0)),
                    np.ones(4 * len(x0))], 1) @ inv.T
    xs = np.trunc(pts[:, 0] / pts[:, 2] + left).reshape(-1, 4)
    return [float(v) for v in xs.mean(axis=1)]


def content_box(gray: np.ndarray, pad: float = 0.05, contrast: int = 25) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) around the image's ink, padded by `pad` of its longest side; the whole
    image when it holds no ink.

    Read on a 4x smaller copy (area averaging: sensor noise averages out, a glyph's strokes do
    not), where ink is `contrast` darker than the paper (the median) and a blob of one or two
    cells is a speck. Faint marks only widen the box: it errs towards the whole image. The
    margin is wide because the detector pools over its whole input: with less blank paper
    around the text its boxes move by a pixel more often than with the whole page."""
    h, w = gray.shape[:2]
    k = 4
    if h < 8 * k or w < 8 * k:
        return 0, 0, w, h
    small = cv2.resize(gray, (w // k, h // k), interpolation=cv2.INTER_AREA)
    ink = (small < int(np.median(small)) - contrast).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    blobs = stats[1:n][stats[1:n, cv2.CC_STAT_AREA] >= 3]
    if not len(blobs):
        return 0, 0, w, h
    m = max(16, round(pad * max(h, w)))
    sx, sy = w / (w // k), h / (h // k)
    return (max(int(blobs[:, 0].min() * sx) - m, 0), max(int(blobs[:, 1].min() * sy) - m, 0),
            min(int(np.ceil((blobs[:, 0] + blobs[:, 2]).max() * sx)) + m, w),
            min(int(np.ceil((blobs[:, 1] + blobs[:, 3]).max() * sy)) + m, h))


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


@functools.lru_cache(maxsize=4)
def get_engine(kind: str, languages: tuple[str, ...], det_side: int, threads: int,
               inked_only: bool = False, rec_width: float = 1.0) -> OcrEngine:
    """The process-wide engine for these settings (ONNX sessions are loaded once per process);
    `inked_only`: RapidOCR's detector sees only the inked part of a page (`detect_in_content`);
    `rec_width`: its recogniser reads lines narrowed to that share of their width (`narrowed`)."""
    if kind == "tesseract":
        from rowkeeper.extractors.tesseract_engine import TesseractEngine

        return TesseractEngine(languages)
    return RapidOcrEngine(det_side, threads, languages, inked_only, rec_width)
