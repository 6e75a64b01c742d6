"""Destinations, one module per sink; each replaces a document's records atomically on write."""
