"""Outputs are written atomically, with the mode the umask gives a new file (not mkstemp's 0600),
so that collaborators sharing a results directory can read them."""

import os
import stat

import pytest

from forestrepro.io import atomic_path, write_text_atomic


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
def test_outputs_get_the_mode_the_umask_gives(tmp_path, mask):
    before = os.umask(mask)
    try:
        write_text_atomic(tmp_path / "table.md", "| a |\n")
        with atomic_path(tmp_path / "runs" / "job.csv") as tmp:
            tmp.write_bytes(b"a\n1\n")
        assert os.umask(mask) == mask  # the umask is left as it was
    finally:
        os.umask(before)
    for path in (tmp_path / "table.md", tmp_path / "runs" / "job.csv"):
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path


def test_a_failed_write_leaves_nothing(tmp_path):
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "out.txt") as tmp:
        tmp.write_text("half")
        raise RuntimeError("stopped")
    assert list(tmp_path.iterdir()) == []
