"""Where the library finds the checkout's configuration when a test does not pass it: the
Hydra configuration (``conf/``) and the data set registry (``conf/dataset``). The library
itself assumes no checkout (``forestrepro.resources``, ``config.compose.default_conf_dir``).

The stores outside the work tree (``checkpoint.location``: the scan store) go to a temporary
directory of each test, never to the user's cache, so no test reads a scan another run left."""

import os
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("FORESTREPRO_CONF", str(ROOT / "conf"))
os.environ["FORESTREPRO_CACHE"] = tempfile.mkdtemp(prefix="forestrepro-test-cache-")  # session fixtures


@pytest.fixture(autouse=True)
def _user_cache_in_tmp(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("FORESTREPRO_CACHE", str(tmp_path_factory.mktemp("user_cache")))
