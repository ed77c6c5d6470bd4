"""A long job says how far it has come: kept and read pieces, cascade levels, and a wait on
another job's scan, in the job's log (logger ``forestrepro``, printed by the command line)."""

import fcntl
import logging
import threading

import numpy as np
from sklearn.datasets import make_classification

from forestrepro import cli
from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.cascade.scan_cache import _wait_for
from forestrepro.checkpoint.parts import KeptParts


def test_kept_and_read_pieces_are_logged(tmp_path, caplog):
    parts = KeptParts(tmp_path / "key.parts")
    with caplog.at_level(logging.INFO, logger="forestrepro"):
        assert parts.get("window7_forest0_fold1") is None
        parts.put("window7_forest0_fold1", train=np.zeros(3))
        parts.get("window7_forest0_fold1")
    assert [record.getMessage().split(" (")[0].split(" from ")[0] for record in caplog.records] == [
        "kept window7_forest0_fold1",
        "read kept window7_forest0_fold1",
    ]


def test_each_cascade_level_logs_its_k_fold_accuracy(caplog):
    X, y = make_classification(n_samples=90, n_features=6, n_informative=4, n_classes=3, random_state=0)
    cascade = CascadeForestClassifier(
        n_rf=1, n_crf=1, n_trees=4, n_folds=2, early_stopping_rounds=1, max_levels=3, random_state=0
    )
    with caplog.at_level(logging.INFO, logger="forestrepro"):
        cascade.fit(X, y)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == cascade.n_levels_
    for level, (line, accuracy) in enumerate(zip(lines, cascade.level_accuracies_), start=1):
        assert line.startswith(f"level {level}: k-fold accuracy {accuracy:.4f}")


def test_a_job_waiting_for_another_jobs_scan_says_so(tmp_path, caplog):
    path = tmp_path / "key.lock"
    with open(path, "w") as held, open(path, "w") as waiting:
        fcntl.flock(held, fcntl.LOCK_EX)  # the other job, scanning
        with caplog.at_level(logging.INFO, logger="forestrepro"):
            waiter = threading.Thread(target=_wait_for, args=(waiting,))
            waiter.start()
            waiter.join(timeout=0.5)
            assert waiter.is_alive()  # still waiting
            fcntl.flock(held, fcntl.LOCK_UN)  # the scan is stored
            waiter.join(timeout=5)
        assert not waiter.is_alive()
    assert "another job is scanning this split" in caplog.text


def test_the_command_line_prints_progress_lines_to_stderr_once(capsys):
    cli._log_to_stderr()
    cli._log_to_stderr()  # a second command in one process
    logging.getLogger("forestrepro.checkpoint.parts").info("kept level1_forest0 (3 s)")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("[forestrepro ")
    assert err[0].endswith("] kept level1_forest0 (3 s)")
