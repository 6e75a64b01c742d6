"""One zoo document being written: the flow, the language, and the ground truth it accrues.

Every table goes through `Builder.table`, which draws its caption (above or below), draws the
grid and records the truth exactly as drawn: folded column names, body rows, caption, the
section path in force, types and pages.
"""

from __future__ import annotations

import io
import random
from dataclasses import asdict, dataclass, field

from reportlab.pdfgen.canvas import Canvas

from bench.zoo import content
from bench.zoo.fonts import Face, join_lines, wrap
from bench.zoo.layout import Flow, PageSetup, cell_truth
from bench.zoo.table import TableSpec, draw_table


@dataclass
class TruthTable:
    """The exact expected reading of one table."""

    table: str
    caption: str
    section_path: list[str]
    columns: list[str]
    rows: list[list[str]]
    column_types: list[str]
    pages: list[int]
    regions: list[dict]
    header_rows: int


@dataclass
class TruthDoc:
    """A generated document and its tables."""

    doc: str
    family: str
    lang: str
    split: str
    seed: int
    pages: int = 0
    tables: list[TruthTable] = field(default_factory=list)

    def to_json(self) -> dict:
        """Plain JSON types."""
        return asdict(self)


def folded_columns(t: TableSpec) -> list[str]:
    """One name per column: the header rows' labels above it, top-down, joined by a space."""
    names: list[list[str]] = [[] for _ in range(t.n_cols)]
    for hrow in t.header:
        c = 0
        for cell in hrow:
            text = cell_truth(cell.text)
            for j in range(c, c + cell.span):
                if text:
                    names[j].append(text)
            c += cell.span
    return [" ".join(n) for n in names]


class Builder:
    """Writes a document with a flow and records its truth."""

    def __init__(self, truth: TruthDoc, rng: random.Random, setup: PageSetup, face: Face):
        self.truth, self.rng, self.face = truth, rng, face
        self.lang = content.LANGUAGES[truth.lang]
        self.buffer = io.BytesIO()
        # invariant=1: no creation date or random id in the file, so a seed gives the same bytes
        canvas = Canvas(self.buffer, pagesize=(setup.width, setup.height), pageCompression=1,
                        invariant=1)
        canvas.setTitle(truth.doc)
        self.flow = Flow(canvas, setup, face)
        self.n_tables = 0
        self.n_sections = 0
        self.numbered = rng.random() < 0.6
        self.caption_sep = rng.choice((": ", ". ", " – ", " "))
        self.caption_above = rng.random() < 0.65
        # captions that run over two or three lines, drawn from a stream of their own so that
        # every other draw (and so every document without one) stays as it was
        self.vary = random.Random(truth.seed ^ 0x5CA1AB1E)
        self.long_captions = self.vary.random() < 0.4
        # generator v8's variations (bench/zoo/variants.py) draw from a third stream, so that
        # adding one leaves the draws of the layouts above as they were
        self.v8 = random.Random(truth.seed ^ 0x0008_5EED)

    # -- text -------------------------------------------------------------------------------
    def title(self, text: str) -> None:
        """The document title (the root of every section path)."""
        self.flow.heading(text, 0)

    def section(self, level: int = 1) -> str:
        """A heading (numbered "2." / "2.1" or not) from the language's section names."""
        name = self.rng.choice(self.lang.sections)
        if level == 1:
            self.n_sections += 1
            self.n_sub = 0
            label = f"{self.n_sections}. {name}" if self.numbered else name
        else:
            self.n_sub = getattr(self, "n_sub", 0) + 1
            label = f"{self.n_sections}.{self.n_sub} {name}" if self.numbered else name
        self.flow.heading(label, level)
        return label

    def prose(self, sentences: int | None = None) -> None:
        """A paragraph of the language's prose."""
        self.flow.paragraph(content.paragraph(self.lang, self.rng, sentences or self.rng.randint(1, 4)))

    def caption_text(self, title: str | None = None) -> str:
        """The next caption: "Table 3: ...", "2. táblázat ...", "表3 ..."."""
        self.n_tables += 1
        label = self.lang.table_label.format(n=self.n_tables)
        sep = "" if (self.lang.code == "ja" and self.caption_sep == " ") else self.caption_sep
        if self.lang.code == "ja" and sep in (": ", ". ", " – "):
            sep = "："
        title = title or self.rng.choice(self.lang.captions)
        if self.long_captions and self.vary.random() < 0.7:
            more = self.vary.choice([c for c in self.lang.captions if c != title])
            title += ("、" if self.lang.code == "ja" else ", ") + more
        return f"{label}{sep}{title}"

    def caption_lines(self, caption: str) -> list[str]:
        """The lines a caption is set in: one, or wrapped at a width drawn for the document
        (the column's, or less: a caption as wide as its table)."""
        x0, x1 = self.flow.span()
        if not self.long_captions:  # wrapped only where it would run into the next column
            return wrap(caption, self.face.bold, self.face.size, x1 - x0)
        share = self.vary.choice((1.0, 0.75, 0.6))
        return wrap(caption, self.face.bold, self.face.size, (x1 - x0) * share)

    # -- tables -----------------------------------------------------------------------------
    def table(self, spec: TableSpec, types: list[str], caption: str | None = "auto",
              above: bool | None = None, notes: str = "", keep_caption: bool = True) -> TruthTable:
        """Draw a table with its caption and record its truth; caption None for none. `notes`
        is set in small type under the table (not part of it); without `keep_caption` a caption
        above may stay at the foot of a column while its table starts the next one."""
        if caption == "auto":
            caption = self.caption_text()
        above = self.caption_above if above is None else above
        cap_size = self.face.size
        lines = self.caption_lines(caption) if caption else []
        caption = join_lines(lines)
        if caption and above:
            rows = len(spec.body) + len(spec.header) if spec.keep_together else 6
            rows *= keep_caption
            self.flow.ensure(cap_size * 1.5 * len(lines) + rows * (spec.size * spec.leading + 2 * spec.pad_y))
            # the column the table goes to, after the break `ensure` may make
            x0 = spec.x0 if spec.x0 is not None else self.flow.span()[0]
            self.flow.top = self.flow.caption_block(lines, x0, self.flow.top, cap_size) + 2
        path = list(self.flow.headings)
        regions = draw_table(self.flow, spec)
        x0 = spec.x0 if spec.x0 is not None else self.flow.span()[0]  # the column the table ended in
        if notes:
            size = max(spec.size - 1.0, 6.0)
            _, x1 = self.flow.span()
            top = self.flow.top - spec.size * 0.5
            for line in wrap(notes, self.face.regular, size, x1 - x0):
                self.flow.text(x0, top, line, self.face.regular, size)
                top += size * 1.3
            self.flow.top = top + spec.size * 0.5
        if caption and not above:
            self.flow.top = self.flow.caption_block(lines, x0, self.flow.top - spec.size * 0.4,
                                                    cap_size) + cap_size * 0.6
        self.flow.top += self.face.size * 0.6
        return self.record(spec, types, caption or "", path, regions)

    def record(self, spec: TableSpec, types: list[str], caption: str, path: list[str],
               regions) -> TruthTable:
        """The truth of a drawn table."""
        rows = [[("" if c in spec.pictures or c in spec.checks else cell_truth(x))
                 for c, x in enumerate(r)] for r in spec.body]
        for (r, c), mark in spec.left_marks.items():  # "$" set apart at the cell's left edge
            rows[r][c] = f"{mark} {rows[r][c]}"
        pages = sorted({p for p, _ in regions})
        t = TruthTable(
            table=f"{self.truth.doc}:t{len(self.truth.tables) + 1}", caption=caption,
            section_path=path, columns=folded_columns(spec), rows=rows, column_types=types,
            pages=pages, regions=[{"page": p, "bbox": [round(v, 1) for v in b]} for p, b in regions],
            header_rows=len(spec.header),
        )
        self.truth.tables.append(t)
        return t

    def spec(self, header, body, aligns, **kw) -> TableSpec:
        """A TableSpec in the document's face (size drawn near the body size)."""
        kw.setdefault("size", max(self.face.size + self.rng.choice((-1.5, -1, -0.5, 0, 0)), 6.5))
        kw.setdefault("pad_y", self.rng.choice((1.5, 2.5, 3.5, 5.0)))
        kw.setdefault("pad_x", self.rng.choice((3.0, 4.0, 6.0)))
        kw.setdefault("full_width", self.rng.random() < 0.5)
        if self.lang.code == "ja" and self.rng.random() < 0.3:
            kw.setdefault("header_char_space", kw["size"] * 0.5)
        return TableSpec(header=header, body=body, aligns=aligns, font=self.face.regular,
                         bold=self.face.bold, **kw)

    def finish(self) -> bytes:
        """The PDF bytes; the truth gets the page count."""
        self.flow.canvas.showPage()
        self.flow.canvas.save()
        self.truth.pages = self.flow.page
        return self.buffer.getvalue()

