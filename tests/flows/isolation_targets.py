"""Misbehaving stand-ins for the pipeline, run inside isolation workers by the tests.

`behave` picks its misbehaviour from the document's file name, so one worker can be fed a
batch in which only some documents hang, crash or blow up, like a real corpus.
"""

from __future__ import annotations

import ctypes
import os
import time
from pathlib import Path

from rowkeeper.config import Config
from rowkeeper.errors import TransientError
from rowkeeper.models import DocumentInput, DocumentRecord, DocumentResult


def _ok(doc: DocumentInput) -> DocumentResult:
    record = DocumentRecord(doc_id=doc.doc_id, source=doc.source, status="ok", kind="text",
                            n_tables=os.getpid())
    return DocumentResult(document=record)


def behave(doc: DocumentInput, config: Config) -> DocumentResult:
    """Do what the file's stem says: ok, hang, segfault, allocate, noisy, transient, leak, exit."""
    stem = Path(doc.source).stem.split("_")[0]
    if stem == "hang":
        time.sleep(3600)
    elif stem == "segfault":
        ctypes.string_at(0)
    elif stem == "allocate":
        # 64 GB of address space, far past any cap. bytes(n) is calloc'd fresh pages, never
        # touched: RLIMIT_AS refuses the mapping at the cap at once, where zero-filling each
        # page (bytearray) took longer than the test's 3 s document timeout on a loaded machine.
        hog = [bytes(64 * 2**20) for _ in range(1000)]
        return DocumentResult(document=DocumentRecord(doc_id=str(len(hog)), source="", status="ok"))
    elif stem == "callocate":
        ctypes.CDLL(None).memset(ctypes.CDLL(None).malloc(1 << 40), 1, 1 << 40)
    elif stem == "noisy":
        print("a library printing to stdout", flush=True)
        os.write(1, b"\x00\x00\x00\x00\x00\x00\x00\x05junk")
    elif stem == "transient":
        raise TransientError("HTTP 503 from the layout service")
    elif stem == "leak":
        raise ValueError(f"wrong password {doc.password!r} for {doc.source}")
    elif stem == "exit":
        os._exit(3)
    return _ok(doc)
