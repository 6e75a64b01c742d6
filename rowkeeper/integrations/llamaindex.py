"""LlamaIndex reader (extra `llamaindex`): rowkeeper's chunks as `Document`s.

    from rowkeeper.integrations.llamaindex import RowkeeperReader
    docs = RowkeeperReader().load_data("samples/pdfs")          # extract in this process
    docs = RowkeeperReader().load_data(run_dir="out")           # or read a run's chunks.jsonl
    SimpleDirectoryReader("pdfs", file_extractor={".pdf": RowkeeperReader()}).load_data()
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from rowkeeper.api import ConfigLike
from rowkeeper.errors import MissingExtra
from rowkeeper.integrations.chunks import chunk_metadata, iter_chunks

try:
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document
except ImportError as e:  # the reader is an optional extra
    raise MissingExtra("rowkeeper.integrations.llamaindex", "llamaindex", str(e)) from e

# Shown to the LLM beside the text (for citing); the text already repeats section, caption and
# columns, so nothing else is added to what is embedded or prompted.
LLM_METADATA = ("source", "pages")


class RowkeeperReader(BaseReader):
    """Reads rowkeeper chunks: one Document per chunk, `id_` = chunk id, metadata with pages,
    regions, bbox, table id, columns, kind, caption and section path."""

    def __init__(self, config: ConfigLike = None, kinds: Iterable[str] | None = None,
                 flat_metadata: bool = False) -> None:
        self.config = config
        self.kinds = kinds
        self.flat_metadata = flat_metadata

    def lazy_load_data(self, file: Any = None, extra_info: dict[str, Any] | None = None, *,
                       run_dir: Any = None, **_: Any) -> Iterator[Document]:
        """Chunks of `file` (PDF paths or folders) or of `run_dir`'s chunks.jsonl; `extra_info`
        (SimpleDirectoryReader's file metadata) is added to each Document's metadata."""
        for chunk in iter_chunks(file, run_dir, self.config, self.kinds):
            meta = {**(extra_info or {}), **chunk_metadata(chunk, self.flat_metadata)}
            yield Document(text=chunk.text, id_=chunk.chunk_id, metadata=meta,
                           excluded_embed_metadata_keys=list(meta),
                           excluded_llm_metadata_keys=[k for k in meta if k not in LLM_METADATA])

    def load_data(self, file: Any = None, extra_info: dict[str, Any] | None = None, *,
                  run_dir: Any = None, **kwargs: Any) -> list[Document]:
        """`lazy_load_data` as a list."""
        return list(self.lazy_load_data(file, extra_info, run_dir=run_dir, **kwargs))
