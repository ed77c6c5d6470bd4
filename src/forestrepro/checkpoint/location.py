"""Where stores that outlive a work tree live: the user's cache directory.

A scan's output is too large for git (MNIST's training rows, 8,000 x 22,180 float32, 710 MB),
so it is kept outside the work tree, where a later session on the same machine, or another
clone, finds it, the way pooch and joblib keep theirs: ``$FORESTREPRO_CACHE`` if set, else
``$XDG_CACHE_HOME/forestrepro``, else ``~/.cache/forestrepro``. Its entries are keyed by
content, so a store shared by several clones never hands one the other's data.
"""

from __future__ import annotations

import os
from pathlib import Path

ENVIRONMENT_VARIABLE = "FORESTREPRO_CACHE"


def user_cache_dir() -> Path:
    """The root of forestrepro's stores outside the work tree (see the module's text)."""
    if os.environ.get(ENVIRONMENT_VARIABLE):
        return Path(os.environ[ENVIRONMENT_VARIABLE]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "forestrepro"


def scan_store_dir() -> Path:
    """The scan store: ``<user_cache_dir()>/scans``, one directory per scan's content key."""
    return user_cache_dir() / "scans"
