"""rowkeeper's own table finder: strategies over one page's words, each a small pure module.

A strategy takes PyMuPDF-style words `(x0, y0, x1, y1, text, ...)` (top-left PDF points) and
returns geometry (column separators, table boxes); the PyMuPDF layer turns it into grids.
"""
