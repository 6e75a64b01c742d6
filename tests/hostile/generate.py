"""Generate a corpus of hostile PDFs: python -m tests.hostile.generate OUT_DIR [--light].

Every file stands for something a 100,000-PDF corpus will contain: truncated and bit-flipped
files, broken xrefs, encryption with and without a known password, zero pages, a 5,000-page
file, decompression bombs, giant images, JavaScript and embedded files (which must never run or
be written out), and non-PDF bytes named .pdf. Each case says what rowkeeper must make of it:
`ok`, `failed` (with a reason matching `reason`) or `any` (either, so long as it ends cleanly).
`heavy` cases (the 5,000-page file, GiB-scale bombs) are left out of the default test run.
"""

from __future__ import annotations

import functools
import hashlib
import io
import random
import re
import sys
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from samples import pdfgen
from samples.make_samples import sample_specs
from tests.hostile import rawpdf

PASSWORD = "rk-hostile-pw"
"""The password the hostile run's config knows; `encrypted_unknown` files use others."""
TRAVERSAL_NAMES = ("../../../../tmp/rk-pwned.txt", "/etc/rk-pwned", "..\\..\\rk-pwned.exe")


@dataclass(frozen=True)
class Case:
    """One hostile file and what rowkeeper must make of it."""

    name: str
    category: str
    expect: str = "any"
    reason: str = ""
    heavy: bool = False


Maker = Callable[[], bytes]


@functools.cache
def _base(name: str) -> bytes:
    return pdfgen.build_pdf(sample_specs()[name])


BASES = ("ruled", "borderless", "two_page")


def _rng(name: str) -> random.Random:
    return random.Random(zlib.crc32(name.encode()))


def _flip_bits(data: bytes, n: int, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(n):
        i = rng.randrange(len(buf))
        buf[i] ^= 1 << rng.randrange(8)
    return bytes(buf)


def _garbage_span(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    start = rng.randrange(len(buf) - 1024)
    buf[start:start + 1024] = rng.randbytes(1024)
    return bytes(buf)


def _corrupt_cases() -> Iterator[tuple[Case, Maker]]:
    for b in BASES:
        for frac in (0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.98):
            yield Case(f"truncated_{b}_{int(frac * 100):02d}.pdf", "truncated"), \
                functools.partial(lambda b, f: _base(b)[: int(len(_base(b)) * f)], b, frac)
        for seed in range(20):
            n = (1, 8, 64, 512)[seed % 4]
            name = f"bitflip_{b}_{seed:02d}_{n}.pdf"
            yield Case(name, "bitflip"), functools.partial(
                lambda b, n, name: _flip_bits(_base(b), n, _rng(name)), b, n, name)
        for seed in range(5):
            name = f"garbage_{b}_{seed}.pdf"
            yield Case(name, "garbage_span"), functools.partial(
                lambda b, name: _garbage_span(_base(b), _rng(name)), b, name)


def _xref_variants(data: bytes) -> dict[str, bytes]:
    start = data.rindex(b"startxref")
    xref = data.rindex(b"xref", 0, start)
    return {
        "offsets_garbage": data[:xref] + re.sub(rb"\d{10} (\d{5}) n", rb"9999999999 \1 n",
                                                data[xref:start]) + data[start:],
        "startxref_past_eof": data[:start] + b"startxref\n99999999\n%%EOF\n",
        "startxref_text": data[:start] + b"startxref\nnot-a-number\n%%EOF\n",
        "no_xref": data[:xref],
        "no_root": data.replace(b"/Root", b"/Rxxx"),
        "wrong_size": data[:xref] + data[xref:].replace(b"/Size", b"/Size 1 /Xsize"),
    }


def _xref_cases() -> Iterator[tuple[Case, Maker]]:
    for b in ("ruled", "borderless"):
        for variant in _xref_variants(_base(b)):
            yield Case(f"xref_{b}_{variant}.pdf", "xref"), functools.partial(
                lambda b, v: _xref_variants(_base(b))[v], b, variant)


_METHODS = {"aes256": pymupdf.PDF_ENCRYPT_AES_256, "aes128": pymupdf.PDF_ENCRYPT_AES_128,
            "rc4": pymupdf.PDF_ENCRYPT_RC4_128}


def _encrypt(data: bytes, method: str, user_pw: str, owner_pw: str) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    out = doc.tobytes(encryption=_METHODS[method], user_pw=user_pw, owner_pw=owner_pw)
    doc.close()
    return out


def _encrypted_cases() -> Iterator[tuple[Case, Maker]]:
    for b in BASES:
        for m in _METHODS:
            yield Case(f"encrypted_known_{b}_{m}.pdf", "encrypted_known", "ok"), functools.partial(
                _encrypt, _base(b), m, PASSWORD, PASSWORD + "-owner")
        yield Case(f"encrypted_owner_only_{b}.pdf", "encrypted_owner_only", "ok"), functools.partial(
            _encrypt, _base(b), "aes256", "", "owner-only-pw")
        for m in ("aes256", "rc4"):
            pw = f"unknown-{b}-{m}"
            yield Case(f"encrypted_unknown_{b}_{m}.pdf", "encrypted_unknown", "failed",
                       r"(?i)password|encrypt"), functools.partial(_encrypt, _base(b), m, pw, pw + "!")


def _zero_page_cases() -> Iterator[tuple[Case, Maker]]:
    cat = b"<< /Type /Catalog /Pages 2 0 R >>"
    shapes = {
        "count0": [cat, b"<< /Type /Pages /Kids [] /Count 0 >>"],
        "count3_no_kids": [cat, b"<< /Type /Pages /Kids [] /Count 3 >>"],
        "no_pages": [b"<< /Type /Catalog >>"],
        "kids_cycle": [cat, b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"],
        "kids_missing": [cat, b"<< /Type /Pages /Kids [9 0 R] /Count 1 >>"],
        "catalog_not_dict": [b"[1 2 3]"],
    }
    for name, objects in shapes.items():
        yield Case(f"zero_pages_{name}.pdf", "zero_pages"), functools.partial(rawpdf.raw_pdf, objects)


def _long_pdf(n: int) -> bytes:
    return rawpdf.pages_pdf([rawpdf.text_content(f"Long handbook, page {i + 1} of {n}")
                             for i in range(n)])


def _bomb_content(n_mib: int) -> bytes:
    return rawpdf.pages_pdf([b""]).replace(
        rawpdf.stream(b""), rawpdf.stream(rawpdf.zeros_deflate(n_mib, b" "), b"/Filter /FlateDecode "))


def _bomb_image(side: int, n_mib: int, filters: int = 1) -> bytes:
    data = rawpdf.zeros_deflate(n_mib)
    for _ in range(filters - 1):
        data = zlib.compress(data, 9)
    flt = b"[" + b" /FlateDecode" * filters + b" ]"
    image = rawpdf.stream(data, b"/Type /XObject /Subtype /Image /Width %d /Height %d "
                          b"/ColorSpace /DeviceGray /BitsPerComponent 8 /Filter %s " % (side, side, flt))
    content = rawpdf.stream(b"q 595 0 0 842 0 0 cm /Im1 Do Q")
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject "
            b"<< /Im1 5 0 R >> >> /Contents 4 0 R >>")
    return rawpdf.raw_pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                           b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, content, image])


def _giant_image(side: int) -> bytes:
    import numpy as np

    # A real image of side x side pixels (white, one black bar): compresses to little, decodes
    # to side**2 bytes. Built with numpy: PyMuPDF's set_rect loops in Python.
    arr = np.full((side, side), 255, dtype=np.uint8)
    arr[side // 10: side // 5, side // 10: side // 2] = 0
    pix = pymupdf.Pixmap(pymupdf.csGRAY, side, side, arr.tobytes(), False)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_image(page.rect, pixmap=pix)
    out = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return out


def _size_cases() -> Iterator[tuple[Case, Maker]]:
    yield Case("long_5000_pages.pdf", "long", "ok", heavy=True), functools.partial(_long_pdf, 5000)
    yield Case("long_300_pages.pdf", "long", "ok"), functools.partial(_long_pdf, 300)
    yield Case("bomb_content_1gib.pdf", "bomb", heavy=True), functools.partial(_bomb_content, 1024)
    yield Case("bomb_content_64mib.pdf", "bomb"), functools.partial(_bomb_content, 64)
    yield Case("bomb_image_40k.pdf", "bomb", heavy=True), functools.partial(_bomb_image, 40000, 1526)
    yield Case("bomb_image_8k.pdf", "bomb"), functools.partial(_bomb_image, 8192, 64)
    yield Case("bomb_image_nested_4gib.pdf", "bomb", heavy=True), \
        functools.partial(_bomb_image, 65536, 4096, 2)
    yield Case("giant_image_6000.pdf", "giant_image"), functools.partial(_giant_image, 6000)
    yield Case("giant_image_12000.pdf", "giant_image", heavy=True), functools.partial(_giant_image, 12000)
    yield Case("giant_image_declared_100k.pdf", "giant_image"), functools.partial(_bomb_image, 100000, 1)
    yield Case("giant_mediabox.pdf", "giant_image"), functools.partial(
        lambda: _bomb_image(2000, 4).replace(b"[0 0 595 842]", b"[0 0 14400 14400]"))


def _edit(data: bytes, fn: Callable[[pymupdf.Document], None]) -> bytes:
    doc = pymupdf.open(stream=data, filetype="pdf")
    fn(doc)
    out = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return out


def _catalog_key(key: str, value: str) -> Callable[[pymupdf.Document], None]:
    return lambda doc: doc.xref_set_key(doc.pdf_catalog(), key, value)


_JS = "(app.alert\\('pwned'\\); this.exportDataObject\\({cName: 'x', nLaunch: 2}\\))"
_ACTIONS = {
    "openaction_js": _catalog_key("OpenAction", f"<< /S /JavaScript /JS {_JS} >>"),
    "names_js": _catalog_key("Names", f"<< /JavaScript << /Names [(a) << /S /JavaScript /JS {_JS} >>] >> >>"),
    "launch": _catalog_key("OpenAction", "<< /S /Launch /F (/bin/sh) /Win << /F (cmd.exe) /P (/c calc) >> >>"),
    "uri": _catalog_key("OpenAction", "<< /S /URI /URI (http://127.0.0.1:9/rowkeeper-leak) >>"),
    "gotor": _catalog_key("OpenAction", "<< /S /GoToR /F (//evil/share/x.pdf) /D [0 /Fit] >>"),
    "page_aa": lambda doc: doc.xref_set_key(doc[0].xref, "AA", f"<< /O << /S /JavaScript /JS {_JS} >> >>"),
    "link_uri": lambda doc: doc[0].insert_link(
        {"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(50, 50, 200, 70), "uri": "http://127.0.0.1:9/x"}),
}


def _embed(name: str, data: bytes) -> Callable[[pymupdf.Document], None]:
    return lambda doc: doc.embfile_add("payload", data, filename=name, ufilename=name)


_EMBEDS = {
    **{f"traversal_{i}": _embed(n, b"#!/bin/sh\necho pwned\n") for i, n in enumerate(TRAVERSAL_NAMES)},
    "attachment_annot": lambda doc: doc[0].add_file_annot(
        pymupdf.Point(60, 60), b"#!/bin/sh\necho pwned\n", filename="../../rk-annot.sh"),
    "big_4mib": _embed("big.bin", random.Random(4).randbytes(4 << 20)),
    "title_traversal": lambda doc: doc.set_metadata(
        {"title": "../../../../tmp/rk-pwned", "author": "$(touch /tmp/rk-pwned)"}),
}


def _active_cases() -> Iterator[tuple[Case, Maker]]:
    for name, fn in _ACTIONS.items():
        yield Case(f"javascript_{name}.pdf", "javascript", "ok"), functools.partial(_edit, _base("ruled"), fn)
    for name, fn in _EMBEDS.items():
        yield Case(f"embedded_{name}.pdf", "embedded", "ok"), functools.partial(_edit, _base("ruled"), fn)


def _png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pix.set_rect(pix.irect, (10, 120, 200))
    return pix.tobytes("png")


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("inner.pdf", _base("ruled"))
    return buf.getvalue()


def _not_pdf_makers() -> dict[str, Maker]:
    import gzip

    rnd = {f"random_{i}": functools.partial(lambda i: random.Random(i).randbytes(4096), i) for i in range(5)}
    fake = {f"header_then_random_{i}": functools.partial(
        lambda i: b"%PDF-1.7\n" + random.Random(100 + i).randbytes(8192), i) for i in range(3)}
    return {
        "empty": lambda: b"", "one_byte": lambda: b"%", "png": _png, "zip": _zip,
        "gzip_pdf": lambda: gzip.compress(_base("ruled"), mtime=0),
        "html": lambda: b"<!doctype html><html><body><table><tr><td>1</td></tr></table></body></html>",
        "text": lambda: b"Invoice 2026-001\nTotal: 1,250.00 EUR\n" * 50,
        "json": lambda: b'{"not": "a pdf", "rows": [[1, 2], [3, 4]]}',
        "utf16": lambda: "Bảng giá thiết bị 2026".encode("utf-16"),
        "postscript": lambda: b"%!PS-Adobe-3.0\n/Helvetica findfont 12 scalefont setfont\nshowpage\n",
        "elf": lambda: b"\x7fELF\x02\x01\x01" + bytes(9) + random.Random(7).randbytes(2048),
        "header_only": lambda: b"%PDF-1.7\n",
        **rnd, **fake,
    }


def _not_pdf_cases() -> Iterator[tuple[Case, Maker]]:
    for name, fn in _not_pdf_makers().items():
        # MuPDF sniffs content and would open PNG, gzip or HTML as documents of their own kind;
        # the %PDF- header check refuses them. A ZIP holding a stored PDF carries %PDF- within
        # its first KiB, so MuPDF may still read it: either outcome is acceptable there.
        expect = "any" if name.startswith("header") or name == "zip" else "failed"
        yield Case(f"not_pdf_{name}.pdf", "not_pdf", expect), fn
    yield Case("junk_prefix_pdf.pdf", "not_pdf"), lambda: random.Random(9).randbytes(2048) + _base("ruled")


def _structure_variants() -> dict[str, Maker]:
    text = rawpdf.text_content("Structure test page")
    page = rawpdf.pages_pdf([text])
    nest = b"[" * 100000 + b"]" * 100000
    return {
        "deep_nesting": lambda: rawpdf.pages_pdf([text], page_extra=b"/Junk " + nest + b" "),
        "self_reference": lambda: page.replace(b"/Contents 5 0 R", b"/Contents 6 0 R") + b"\n6 0 obj\n6 0 R\nendobj\n",
        "contents_is_catalog": lambda: page.replace(b"/Contents 5 0 R", b"/Contents 1 0 R"),
        "mediabox_huge": lambda: rawpdf.pages_pdf([text], media_box=b"[0 0 1e9 1e9]"),
        "mediabox_zero": lambda: rawpdf.pages_pdf([text], media_box=b"[0 0 0 0]"),
        "mediabox_negative": lambda: rawpdf.pages_pdf([text], media_box=b"[0 0 -595 -842]"),
        "rotate_45": lambda: rawpdf.pages_pdf([text], page_extra=b"/Rotate 45 "),
        "many_operators": lambda: rawpdf.pages_pdf([b"BT /F1 1 Tf 1 1 Td (x) Tj ET\n" * 200000]),
        "length_huge": lambda: page.replace(b"/Length %d" % len(text), b"/Length 999999999"),
        "length_small": lambda: page.replace(b"/Length %d" % len(text), b"/Length 5"),
        "count_million": lambda: page.replace(b"/Count 1", b"/Count 1000000"),
        "font_broken": lambda: page.replace(b"/Type1 /BaseFont /Helvetica",
                                            b"/TrueType /BaseFont /Broken /FontDescriptor 1 0 R"),
        "resources_cycle": lambda: page.replace(b"/Resources <<", b"/Resources << /Self 4 0 R"),
        "huge_size": lambda: page.replace(b"/Size 6", b"/Size 2147483647"),
        "inline_image_bad": lambda: rawpdf.pages_pdf([text + b"\nq BI /W 100000 /H 100000 /CS /G /BPC 8 ID xx EI Q"]),
        "bad_utf16_title": lambda: page.replace(b"/Root 1 0 R", b"/Root 1 0 R /Info << /Title <FEFFD800D800> >>"),
        # MuPDF gives up on these two ("cycle in resources", "Invalid number of pages"); pdfium
        # reads their text: the second opinion's cases
        "pages_parent_loop": lambda: page.replace(b"/Type /Pages", b"/Type /Pages /Parent 2 0 R"),
        "count_negative": lambda: page.replace(b"/Count 1", b"/Count -1"),
    }


def _structure_cases() -> Iterator[tuple[Case, Maker]]:
    for name, fn in _structure_variants().items():
        yield Case(f"structure_{name}.pdf", "structure"), fn


def _name_cases() -> Iterator[tuple[Case, Maker]]:
    names = ("ünïcødé 表.pdf", "with space.pdf", "UPPER_CASE.PDF", "semi;colon$(whoami).pdf", "-dash.pdf")
    for i, name in enumerate(names):
        yield Case(name, "names", "ok"), functools.partial(
            lambda i: _base(BASES[i % 3]) + b"%% %d\n" % i, i)


def cases() -> Iterator[tuple[Case, Maker]]:
    """Every hostile case with the function that makes its bytes (deterministic)."""
    for group in (_corrupt_cases, _xref_cases, _encrypted_cases, _zero_page_cases, _size_cases,
                  _active_cases, _not_pdf_cases, _structure_cases, _name_cases):
        yield from group()


def sample(all_cases: list[Case], per_category: int = 1) -> list[Case]:
    """A light, fixed subset for the default test run: the first non-heavy cases of each category."""
    taken: dict[str, int] = {}
    out = []
    for c in all_cases:
        if not c.heavy and taken.get(c.category, 0) < per_category:
            taken[c.category] = taken.get(c.category, 0) + 1
            out.append(c)
    return out


def generate(out: Path, heavy: bool = True, only: set[str] | None = None) -> list[Case]:
    """Write the hostile files into `out` (each with distinct bytes) and return their cases."""
    out.mkdir(parents=True, exist_ok=True)
    written, seen = [], set()
    for case, make in cases():
        if (case.heavy and not heavy) or (only is not None and case.name not in only):
            continue
        data = make()
        while hashlib.sha256(data).digest() in seen:  # two corruptions may coincide: keep ids unique
            data += b"\n%% " + case.name.encode() + b"\n"
        seen.add(hashlib.sha256(data).digest())
        (out / case.name).write_bytes(data)
        written.append(case)
    return written


def main(argv: list[str] | None = None) -> int:
    """Write the corpus into the folder given; --light leaves out the heavy cases."""
    args = sys.argv[1:] if argv is None else argv
    cs = generate(Path(args[0]), heavy="--light" not in args)
    print(f"wrote {len(cs)} hostile PDFs to {args[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
