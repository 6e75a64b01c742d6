"""The layout zoo: generated documents of many table layouts with exact ground truth (see bench/zoo.py)."""
