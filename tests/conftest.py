"""Where the library finds the checkout's configuration when a test does not pass it: the
Hydra configuration (``conf/``) and the data set registry (``conf/dataset``). The library
itself assumes no checkout (``forestrepro.resources``, ``config.compose.default_conf_dir``)."""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("FORESTREPRO_CONF", str(ROOT / "conf"))
