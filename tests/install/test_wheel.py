"""The library installs from a wheel and runs without the checkout (issue 25).

The wheel is built from a copy of the package's sources (``pip wheel --no-deps``; its build
backend comes from pip's configured index) and installed without dependencies into a fresh
virtualenv. The virtualenv then gets exactly what the wheel declares, offline: the wheel's
``Requires-Dist`` and their requirements in turn, closed over this interpreter's installed
distributions, are linked (each distribution's top-level files, from its ``RECORD``) into one
directory that a ``.pth`` line puts on ``sys.path``. A package the library imports but does not
declare is therefore missing there, and the fit fails (``test_the_declared_closure_...`` shows
the closure leaves out what is not declared). A ``.pth`` line adds a directory to ``sys.path``
but runs none of the ``.pth`` files in it, and this interpreter's editable ``forestrepro`` is
not linked, so only the wheel's copy is importable. From a
directory outside the checkout, with no PYTHONPATH and no FORESTREPRO_* variables, a script
fits BRF, RCRF, the credal forest and the weighted deep forest through the top-level names
and reads the packaged data set registry and schemas. About 30-60 s (numba compiles the
trees in the fresh install).
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

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


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_closure(requirements: list[str]) -> dict[str, importlib.metadata.Distribution]:
    """The installed distributions that ``requirements`` (``Requires-Dist`` lines) name, and
    theirs in turn, without extras; a requirement not installed here raises."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = list(requirements)
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = _canonical(requirement.name)
        if key not in found:
            found[key] = importlib.metadata.distribution(requirement.name)
            todo.extend(found[key].requires or [])
    return found


def link_distributions(distributions, target: Path) -> None:
    """Link each distribution's top-level files and directories (its packages, modules and
    metadata) into ``target``; scripts outside site-packages are left out."""
    target.mkdir()
    for dist in distributions:
        for top in {Path(str(f)).parts[0] for f in dist.files or ()} - {".."}:
            source = Path(dist.locate_file(top))
            if source.exists() and not (target / top).exists():
                (target / top).symlink_to(source)


def test_the_declared_closure_leaves_out_what_is_not_declared():
    closure = declared_closure(["scikit-learn"])
    assert {"scikit-learn", "numpy", "scipy", "joblib", "threadpoolctl"} <= set(closure)
    assert "pandas" not in closure and "pytest" not in closure
    # extras are not followed: pandas' test extra names pytest
    assert "pytest" not in declared_closure(["pandas"])


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
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = (n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        declared = [
            line.split(":", 1)[1].strip()
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    closure = declared_closure(declared)
    assert "forestrepro" not in closure and {"numpy", "scikit-learn"} <= set(closure)
    link_distributions(closure.values(), tmp_path / "declared")
    (site / "declared_packages.pth").write_text(str(tmp_path / "declared") + "\n")

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run(
        [str(python), "-c", SCRIPT], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert [line.split()[0] for line in proc.stdout.splitlines()] == ["brf", "rcrf", "crf", "wdf"]
