"""Hand-written PDF bytes: for shapes no PDF library will produce (lies, cycles, bombs).

`raw_pdf` numbers the objects it is given 1..n and writes a correct xref table, so each
hostile file is broken only where it means to be.
"""

from __future__ import annotations

import zlib

_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def raw_pdf(objects: list[bytes], root: int = 1, trailer_extra: bytes = b"") -> bytes:
    """A PDF whose object i+1 is objects[i], with a correct xref table and trailer."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root %d 0 R %s>>\n" % (len(objects) + 1, root, trailer_extra)
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)


def stream(data: bytes, extra: bytes = b"", length: int | None = None) -> bytes:
    """A stream object body; `length` may lie about the data's size."""
    n = len(data) if length is None else length
    return b"<< /Length %d %s>>\nstream\n" % (n, extra) + data + b"\nendstream"


def text_content(text: str, y: int = 720) -> bytes:
    """A content stream drawing one line of Helvetica text."""
    safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")
    return b"BT /F1 11 Tf 72 %d Td (%s) Tj ET" % (y, safe)


def pages_pdf(contents: list[bytes], media_box: bytes = b"[0 0 595 842]",
              page_extra: bytes = b"", catalog_extra: bytes = b"") -> bytes:
    """A PDF with one page per content stream (objects: catalog, pages, font, then page pairs)."""
    n = len(contents)
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(n))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R %s>>" % catalog_extra,
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
        _FONT,
    ]
    for i, content in enumerate(contents):
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources << /Font << /F1 3 0 R >> >> "
                       b"/Contents %d 0 R %s>>" % (media_box, 5 + 2 * i, page_extra))
        objects.append(stream(content))
    return raw_pdf(objects)


def zeros_deflate(n_mib: int, byte: bytes = b"\0") -> bytes:
    """A zlib stream inflating to `n_mib` MiB of `byte`, built without holding them in memory.

    One MiB is compressed once with a full flush (byte-aligned, no back-references across it),
    then repeated: a valid deflate stream in milliseconds instead of seconds per GiB.
    """
    block = byte * (1 << 20)
    comp = zlib.compressobj(9)
    head = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    header, body = head[:2], head[2:]
    adler = 1
    for _ in range(n_mib):
        adler = zlib.adler32(block, adler)
    final = b"\x03\x00"  # an empty final fixed-Huffman block
    return header + body * n_mib + final + adler.to_bytes(4, "big")
