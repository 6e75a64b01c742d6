"""The exporter benchmark: HTML tables printed to tagged PDFs by real exporters (bench/exporters.py)."""
