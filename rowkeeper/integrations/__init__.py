"""Loaders for RAG frameworks (optional extras): `langchain` (RowkeeperLoader) and `llamaindex`
(RowkeeperReader). Each yields rowkeeper's own chunks with their provenance as metadata."""
