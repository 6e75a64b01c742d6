"""LangChain document loader (extra `langchain`): rowkeeper's chunks as `Document`s.

    from rowkeeper.integrations.langchain import RowkeeperLoader
    docs = RowkeeperLoader("samples/pdfs").load()              # extract in this process
    docs = RowkeeperLoader(run_dir="out", kinds=["row"]).load()  # or read a run's chunks.jsonl
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rowkeeper.api import ConfigLike, PathLike
from rowkeeper.errors import MissingExtra
from rowkeeper.integrations.chunks import chunk_metadata, iter_chunks

try:
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document
except ImportError as e:  # the loader is an optional extra
    raise MissingExtra("rowkeeper.integrations.langchain", "langchain", str(e)) from e


class RowkeeperLoader(BaseLoader):
    """Loads rowkeeper chunks: each `page_content` is self-contained (section path, caption and
    column names repeated) and `metadata` holds pages, regions, bbox, table id, columns, kind,
    caption and section path, for citations back to the page and rectangle."""

    def __init__(self, file_path: PathLike | Iterable[PathLike] | None = None, *,
                 run_dir: PathLike | None = None, config: ConfigLike = None,
                 kinds: Iterable[str] | None = None, flat_metadata: bool = False) -> None:
        self.file_path = file_path
        self.run_dir = run_dir
        self.config = config
        self.kinds = kinds
        self.flat_metadata = flat_metadata

    def lazy_load(self) -> Iterator[Document]:
        """One Document per chunk, PDF by PDF (or in chunks.jsonl order)."""
        for chunk in iter_chunks(self.file_path, self.run_dir, self.config, self.kinds):
            yield Document(page_content=chunk.text, id=chunk.chunk_id,
                           metadata=chunk_metadata(chunk, self.flat_metadata))
