"""LangChain loader and LlamaIndex reader, against the real packages (extras `langchain`,
`llamaindex`): rowkeeper's chunks with their provenance as metadata."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rowkeeper.config import load_config

# llama-index-core's own models trip a pydantic warning on import; not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore:The 'validate_default' attribute")
RULED_ROW = "Code: 01-001 | Item: Desk lamp | Unit price: 1,250.00 | Stock: 42"


@pytest.fixture(scope="module")
def run_dir(pdf_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run folder of ruled.pdf and two_page.pdf (the plain run: no Prefect server needed)."""
    from rowkeeper.flows.ingest import ingest_plain

    out = tmp_path_factory.mktemp("run")
    ingest_plain([str(pdf_dir / "ruled.pdf"), str(pdf_dir / "two_page.pdf")],
                 load_config().with_out(str(out)))
    return out


def _ruled_rows(docs: list, content: str) -> list:
    return [d for d in docs if d.metadata["kind"] == "row" and d.metadata["source"].endswith("ruled.pdf")
            and RULED_ROW in getattr(d, content)]


def test_langchain_loader_yields_chunks_with_provenance(pdf_dir: Path) -> None:
    pytest.importorskip("langchain_core", reason="extra 'langchain' (langchain-core) not installed")
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document

    from rowkeeper.integrations.langchain import RowkeeperLoader

    loader = RowkeeperLoader(pdf_dir / "ruled.pdf")
    assert isinstance(loader, BaseLoader)
    docs = loader.load()
    assert all(isinstance(d, Document) for d in docs)
    (row,) = _ruled_rows(docs, "page_content")
    meta = row.metadata
    assert meta["columns"] == ["Code", "Item", "Unit price", "Stock"]
    assert meta["caption"] == "Table 1 Equipment prices"
    assert meta["section_path"] == ["Equipment price list 2026", "1. Office equipment"]
    assert meta["pages"] == [1] and meta["table_id"].endswith(":t1") and row.id == meta["chunk_id"]
    x0, top, x1, bottom = meta["bbox"]
    assert 0 <= x0 < x1 and 0 <= top < bottom  # top-left origin, PDF points
    assert meta["regions"][0]["page"] == 1
    assert {d.metadata["kind"] for d in docs} == {"table", "row_group", "row", "text"}


def test_langchain_loader_reads_a_run_folder_filtered_by_kind(run_dir: Path) -> None:
    pytest.importorskip("langchain_core", reason="extra 'langchain' (langchain-core) not installed")
    from rowkeeper.integrations.langchain import RowkeeperLoader

    docs = list(RowkeeperLoader(run_dir=run_dir, kinds=["row"], flat_metadata=True).lazy_load())
    lines = (run_dir / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(docs) == sum(json.loads(x)["kind"] == "row" for x in lines)
    (row,) = _ruled_rows(docs, "page_content")
    assert row.metadata["columns"] == '["Code", "Item", "Unit price", "Stock"]'
    assert all(not isinstance(v, list | dict) for v in row.metadata.values())
    two_page = [d for d in docs if d.metadata["source"].endswith("two_page.pdf")]
    assert {p for d in two_page for p in json.loads(d.metadata["pages"])} == {1, 2}


def test_llamaindex_reader_yields_chunks_with_provenance(pdf_dir: Path, run_dir: Path) -> None:
    pytest.importorskip("llama_index.core", reason="extra 'llamaindex' (llama-index-core) not installed")
    from llama_index.core.readers.base import BaseReader
    from llama_index.core.schema import Document, MetadataMode

    from rowkeeper.integrations.llamaindex import RowkeeperReader

    reader = RowkeeperReader(kinds=["row", "table"])
    assert isinstance(reader, BaseReader)
    docs = reader.load_data(pdf_dir / "ruled.pdf")
    assert all(isinstance(d, Document) for d in docs)
    assert {d.metadata["kind"] for d in docs} == {"row", "table"}
    (row,) = _ruled_rows(docs, "text")
    assert row.id_ == row.metadata["chunk_id"]
    assert row.metadata["columns"] == ["Code", "Item", "Unit price", "Stock"]
    assert row.metadata["caption"] == "Table 1 Equipment prices"
    # the text already names section, caption and columns: no metadata is embedded twice
    assert row.get_content(metadata_mode=MetadataMode.EMBED) == row.text
    assert "source: " in row.get_content(metadata_mode=MetadataMode.LLM)
    from_run = reader.load_data(run_dir=run_dir)
    assert RULED_ROW in "\n".join(d.text for d in from_run)


def test_llamaindex_reader_plugs_into_simple_directory_reader(pdf_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("llama_index.core", reason="extra 'llamaindex' (llama-index-core) not installed")
    from llama_index.core import SimpleDirectoryReader

    from rowkeeper.integrations.llamaindex import RowkeeperReader

    (tmp_path / "ruled.pdf").write_bytes((pdf_dir / "ruled.pdf").read_bytes())
    docs = SimpleDirectoryReader(str(tmp_path), file_extractor={
        ".pdf": RowkeeperReader(kinds=["table"])}).load_data()
    (table,) = docs
    assert table.metadata["file_name"] == "ruled.pdf" and table.metadata["kind"] == "table"
    assert "| 01-003 | Standing desk | 38,500.00 | 3 |" in table.text


def test_a_loader_without_its_extra_says_which_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from rowkeeper.errors import MissingExtra

    for name in ("langchain_core", "langchain_core.document_loaders", "langchain_core.documents"):
        monkeypatch.setitem(sys.modules, name, None)  # as if langchain-core were not installed
    monkeypatch.delitem(sys.modules, "rowkeeper.integrations.langchain", raising=False)
    with pytest.raises(MissingExtra, match=r"pip install 'rowkeeper\[langchain\]'"):
        import rowkeeper.integrations.langchain  # noqa: F401


def test_loaders_refuse_both_or_neither_source(tmp_path: Path) -> None:
    from rowkeeper.integrations.chunks import iter_chunks

    with pytest.raises(ValueError, match="not both or neither"):
        list(iter_chunks(None, None, None, None))
    with pytest.raises(ValueError, match="unknown chunk kinds"):
        list(iter_chunks(None, tmp_path, None, ["rows"]))
