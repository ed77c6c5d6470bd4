"""The library installs from a wheel and runs without the checkout (issue 25).

The wheel is built from a copy of the package's sources (``pip wheel --no-deps``; its build
backend comes from pip's configured index), installed without dependencies into a fresh
virtualenv, and the virtualenv borrows this interpreter's installed packages (numpy,
scikit-learn, numba, ...) through a ``.pth`` line naming their directory: a ``.pth`` line adds
a directory to ``sys.path`` but runs none of the ``.pth`` files in it, so this interpreter's
editable ``forestrepro`` stays out of sight and only the wheel's copy is importable. From a
directory outside the checkout, with no PYTHONPATH and no FORESTREPRO_* variables, a script
fits BRF, RCRF, the credal forest and the weighted deep forest through the top-level names
and reads the packaged data set registry and schemas. About 30-60 s (numba compiles the
trees in the fresh install).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path

    import numpy as np
    from sklearn.datasets import load_wine

    import forestrepro
    from forestrepro import (BanzhafForestClassifier, CascadeForestClassifier,
                             CredalForestClassifier, RCRFClassifier)
    from forestrepro.data import list_datasets, load_spec

    assert Path(forestrepro.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), forestrepro.__file__
    assert "wine" in list_datasets() and load_spec("wine")["name"] == "wine"
    X, y = load_wine(return_X_y=True)
    forests = {
        "brf": BanzhafForestClassifier(10, random_state=0),
        "rcrf": RCRFClassifier(10, random_state=0),
        "crf": CredalForestClassifier(10, random_state=0),
        "wdf": CascadeForestClassifier(n_rf=1, n_crf=1, n_trees=10, max_levels=2,
                                       weighting="accuracy", random_state=0),
    }
    for name, forest in forests.items():
        accuracy = float(np.mean(forest.fit(X, y).predict(X) == y))
        assert accuracy > 0.8, (name, accuracy)
        print(name, round(accuracy, 3))
""")


@pytest.mark.install
def test_wheel_installs_and_fits_outside_the_checkout(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    # the package, with its packaged registry (a link to conf/dataset in the checkout) resolved
    shutil.copytree(
        ROOT / "src",
        source / "src",
        symlinks=False,
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("FORESTREPRO_")}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(source)],
        check=True,
        env=env,
        cwd=tmp_path,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("forestrepro-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
        check=True,
        env=env,
        capture_output=True,
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    (site / "borrowed_packages.pth").write_text(sysconfig.get_path("purelib") + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run(
        [str(python), "-c", SCRIPT], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert [line.split()[0] for line in proc.stdout.splitlines()] == ["brf", "rcrf", "crf", "wdf"]
