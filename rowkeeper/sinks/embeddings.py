"""Chunk embeddings that need no download at run time: a static model shipped inside its wheel,
or a feature-hashing vectorizer (no model at all). Vectors are float32 and L2-normalised."""

from __future__ import annotations

import unicodedata
import zlib
from collections.abc import Sequence
from typing import Literal, Protocol

import numpy as np

from rowkeeper.errors import ConfigError, MissingExtra

EmbeddingName = Literal["auto", "static", "hashing", "off"]


class Embedder(Protocol):
    """Texts to vectors; `name` and `dim` are stored beside the vectors."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """An (n, dim) float32 array of unit vectors."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


class StaticModelEmbedder:
    """The Model2Vec-style static model of `tokenlearn-static-model` (64 dims, multilingual
    tokenizer), whose weights ship in the wheel: no network, ~0.1 ms per chunk on one core."""

    name = "tokenlearn-static-model-10k-64d"
    dim = 64

    def __init__(self) -> None:
        try:
            from static_model import get_embeddings
        except ImportError as e:
            raise MissingExtra("the 'static' embedding", "lancedb", str(e)) from e
        self._embed = get_embeddings

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors from the bundled static model."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(np.asarray(self._embed(list(texts)), dtype=np.float32))


class HashingEmbedder:
    """Feature hashing of words and character trigrams (signed): no model, any language.
    Matches shared words and spellings, not meanings; the honest fallback."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-char3-word-{dim}d"

    def _features(self, text: str) -> list[str]:
        text = unicodedata.normalize("NFKC", text).lower()
        words = text.split()
        grams = [text[i : i + 3] for i in range(max(len(text) - 2, 0))]
        return words + grams

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors of hashed word and trigram counts."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat in self._features(text):
                h = zlib.crc32(feat.encode("utf-8"))
                out[row, h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        return _normalise(out)


def make_embedder(name: EmbeddingName, hashing_dim: int = 256) -> Embedder | None:
    """The configured embedder; "auto" is the static model when installed, else hashing."""
    if name == "off":
        return None
    if name == "hashing":
        return HashingEmbedder(hashing_dim)
    if name == "static":
        return StaticModelEmbedder()
    if name == "auto":
        try:
            return StaticModelEmbedder()
        except MissingExtra:
            return HashingEmbedder(hashing_dim)
    raise ConfigError(f"unknown embedding {name!r}: auto, static, hashing or off")
