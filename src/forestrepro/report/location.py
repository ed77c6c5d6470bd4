"""Where a run's report goes, so that no run writes into the committed reports by accident.

The committed reports live under ``results/report/paper/`` (one folder per report and their
index, ``index.md``/``index.html``), rebuilt only by ``make report``
(``forestrepro reports``, ``report/committed.py``) from committed records. A run's own report goes to
``results/report/<tag>/``; the tag ``paper`` (``--config profile=paper``) would land on the
committed index itself, so its report goes to ``results/report/paper-run/`` instead. A
``report_dir=`` inside the committed folder is refused unless the run rebuilds a committed
report from records alone (``records_only=true``, as ``make report`` does), and the committed
folder itself, which holds the index, is refused always.
"""

from __future__ import annotations

import os

COMMITTED_REPORTS = os.path.join("results", "report", "paper")
RUN_SUFFIX = "-run"


class ReportDirError(ValueError):
    """A report folder that would write into the committed reports."""


def is_committed(report_dir: str) -> bool:
    """Whether ``report_dir`` is one of the committed reports' folders (a subfolder of
    ``results/report/paper/``)."""
    return os.path.normpath(report_dir).startswith(COMMITTED_REPORTS + os.sep)


def report_dir(tag: str, given: str | None = None, records_only: bool = False) -> str:
    """The folder of the report of ``tag``: ``given`` (``--config report_dir=``) where that is
    allowed, else ``results/report/<tag>`` (``results/report/paper-run`` for the tag ``paper``)."""
    if given:
        folder = os.path.normpath(str(given))
        if folder == COMMITTED_REPORTS:
            raise ReportDirError(
                f"report_dir={given} is the folder of the committed reports and their index "
                f"({COMMITTED_REPORTS}/index.md), which only `make report` writes; give a folder of its own"
            )
        if is_committed(folder) and not records_only:
            raise ReportDirError(
                f"report_dir={given} is a committed report ({COMMITTED_REPORTS}/), which only `make report` "
                "rebuilds, from committed records alone (records_only=true); leave report_dir= out to get "
                "this run's report in results/report/<tag>/"
            )
        return folder
    folder = os.path.normpath(os.path.join("results", "report", tag))
    if folder == COMMITTED_REPORTS or is_committed(folder):
        folder += RUN_SUFFIX
    return folder
