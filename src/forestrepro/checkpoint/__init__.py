"""Content-keyed checkpoints: the finished pieces of long work, kept on disk so a stopped job resumes.

One engine for every store that outlives a stopped job:

- :mod:`.keys`: ``digest`` (SHA-256 of a JSON identity and of arrays) and ``content_key`` (of an
  estimator's parameters, without ``n_jobs``, and its arrays): a changed setting, split or
  spec names another directory, so a stale piece is never read;
- :mod:`.store`: ``PieceStore``, a directory of named pieces (``.npz`` arrays or JSON rows)
  written atomically; an unreadable piece is recomputed;
- :mod:`.parts`: ``KeptParts``, the pieces of one fit with the wall seconds each took.

Its users: the fold store of nested cross-validation (``evaluation/fold_store.py``), the scan
store and the cascade's kept forests (``cascade/scan_cache.py``, ``cascade/cache.py``).
"""

from .keys import content_key, digest
from .parts import KeptParts
from .store import PieceStore, read_npz, write_npz

__all__ = ["KeptParts", "PieceStore", "content_key", "digest", "read_npz", "write_npz"]
