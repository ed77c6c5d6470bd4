"""Content keys: what names a checkpoint's directory."""

from __future__ import annotations

import hashlib
import json

import numpy as np


def digest(identity, *arrays) -> str:
    """SHA-256 (hex) of ``identity`` as JSON (sorted keys, other objects as text) and of ``arrays``.

    An object array (string labels, as SEMG's and MNIST's) is hashed by its values as text:
    its own bytes are pointers, which differ from one process to the next."""
    hasher = hashlib.sha256(json.dumps(identity, sort_keys=True, default=str).encode())
    for array in arrays:
        array = np.ascontiguousarray(array)
        if array.dtype == object:
            array = array.astype(str)
        hasher.update(f"{array.dtype.str}{array.shape}".encode())
        hasher.update(array.tobytes())
    return hasher.hexdigest()


def content_key(estimator, *arrays) -> str:
    """``digest`` of ``estimator``'s parameters (without ``n_jobs``, which changes no number)
    and of ``arrays``."""
    params = {k: v for k, v in estimator.get_params(deep=False).items() if k != "n_jobs"}
    return digest(params, *arrays)
