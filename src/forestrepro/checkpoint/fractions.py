"""A lossless, compact encoding of arrays of vote fractions.

A scan's features are class vectors of forests of fully grown trees (WDF Sec. 1, Fig. 1): a
pure leaf gives its tree's whole vote to one class, so nearly every entry is ``k / n`` for a
forest of ``n`` trees (``k / (n * f)`` for a test row's share of ``f`` fold forests). Such an
array is stored as the integer counts ``k = rint(x * denominator)`` (``uint16`` up to 65,535)
and decoded as ``float32(k / denominator)``. Every entry that this does not give back bit for
bit (an impure leaf's fraction, or a sum whose last bit differs) is kept as it was, by flat
index, so ``decode_fractions(encode_fractions(x, d))`` equals ``x`` byte for byte whatever
``x`` holds; where more than a tenth of the entries would be such exceptions the array is kept
as it was. ``numpy.savez_compressed`` then deflates the counts, which are mostly 0 and small.
"""

from __future__ import annotations

import numpy as np

_RAW, _COUNTS = "raw", "counts"
_MAX_EXCEPTIONS = 0.1


def _decoded(counts: np.ndarray, denominator: int) -> np.ndarray:
    return (counts.astype(np.float64) / denominator).astype(np.float32)


def encode_fractions(name: str, x: np.ndarray, denominator: int) -> dict[str, np.ndarray]:
    """The arrays that store the float32 array ``x`` under ``name`` (see the module's text)."""
    x = np.ascontiguousarray(x, dtype=np.float32)
    if not 1 <= denominator <= np.iinfo(np.uint16).max or not np.all(np.isfinite(x)):
        return {f"{name}.{_RAW}": x}
    scaled = np.rint(x.astype(np.float64) * denominator)
    counts = np.clip(scaled, 0, denominator).astype(np.uint16)
    wrong = np.flatnonzero(_decoded(counts, denominator).view(np.uint32) != x.view(np.uint32))
    if wrong.size > _MAX_EXCEPTIONS * x.size:
        return {f"{name}.{_RAW}": x}
    encoded = {
        f"{name}.{_COUNTS}": counts,
        f"{name}.denominator": np.int64(denominator),
        f"{name}.exception_at": wrong.astype(np.int64),
        f"{name}.exception_value": x.ravel()[wrong],
    }
    if decode_fractions(name, encoded).view(np.uint32).tobytes() != x.view(np.uint32).tobytes():
        return {f"{name}.{_RAW}": x}  # never reached while decoding is right; lossless regardless
    return encoded


def decode_fractions(name: str, stored: dict[str, np.ndarray]) -> np.ndarray:
    """The float32 array that ``encode_fractions(name, ...)`` stored in ``stored``."""
    if f"{name}.{_RAW}" in stored:
        return np.asarray(stored[f"{name}.{_RAW}"], dtype=np.float32)
    out = _decoded(stored[f"{name}.{_COUNTS}"], int(stored[f"{name}.denominator"]))
    out.ravel()[stored[f"{name}.exception_at"]] = stored[f"{name}.exception_value"]
    return out


def stored_names(stored: dict[str, np.ndarray]) -> set[str]:
    """The names of the arrays encoded in ``stored``."""
    return {key.rsplit(".", 1)[0] for key in stored if key.endswith((f".{_RAW}", f".{_COUNTS}"))}
