"""rowkeeper: business PDFs to tables and self-contained retrieval chunks."""

__version__ = "0.2.0"
