"""Run records: the committed evidence behind every report (rows, provenance, currency).

Exports are lazy (``_lazy.py``): a training job imports the writing half (``store``,
``provenance``) and not the currency check the workflow runs at planning time.
"""

from .._lazy import lazy_exports

__all__ = [
    "Equivalences",
    "FileHashes",
    "RecordStatus",
    "code_digest",
    "environment",
    "git_state",
    "imported_code",
    "provenance_path",
    "read_provenance",
    "read_rows",
    "record_status",
    "spec_digest",
    "utc_now",
    "write_record",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Equivalences": "equivalence",
        "FileHashes": "currency",
        "RecordStatus": "currency",
        "record_status": "currency",
        "code_digest": "provenance",
        "environment": "provenance",
        "git_state": "provenance",
        "imported_code": "provenance",
        "utc_now": "provenance",
        "provenance_path": "store",
        "read_provenance": "store",
        "read_rows": "store",
        "spec_digest": "store",
        "write_record": "store",
    },
)
