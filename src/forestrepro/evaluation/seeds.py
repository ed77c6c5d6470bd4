"""Seeds derived from names, so that results do not depend on job order or ``--cores``.

Every random draw of a job is seeded by ``derive_seed(root_seed, *keys)``, a hash of the root
seed and the job's coordinates (paper, method, data set, repeat, fold). The split of a data set
into folds leaves the method out of its keys, so every method of a paper sees the same folds
and the comparison is paired, as the Friedman test assumes.
"""

from __future__ import annotations

import hashlib


def derive_seed(root_seed: int, *keys: object) -> int:
    """A 32-bit seed from ``root_seed`` and ``keys`` (SHA-256 of their joined text)."""
    text = "\x1f".join([str(int(root_seed)), *(str(k) for k in keys)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


def split_seed(root_seed: int, paper: str, dataset: str, repeat: int) -> int:
    """Seed of the outer fold assignment: shared by all methods of a paper on a data set."""
    return derive_seed(root_seed, paper, dataset, "split", repeat)


def model_seed(root_seed: int, paper: str, method: str, dataset: str, repeat: int, fold: int) -> int:
    """Seed of everything a method draws in one outer fold (inner folds, bootstrap, features)."""
    return derive_seed(root_seed, paper, method, dataset, "model", repeat, fold)
