"""The documentation: every example in docs/examples/ runs and prints what its page says,
and the site (docs/mkdocs.yml) builds in strict mode, every warning an error."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
# A cold numba cache makes the first forest fit compile the tree builder's kernels (about a
# minute of CPU); warm, each example takes a few seconds.
TIMEOUT = 600

ACCURACY = r"test accuracy (?P<accuracy>[01]\.\d{3})"
SCORES = r"eta +\d+  accuracy (?P<accuracy>[01]\.\d{3})  mcc -?[01]\.\d{3}"
EXPECTED = {
    "forests.py": [
        rf"^(?P<name>RandomForestClassifier) +{ACCURACY}$",
        rf"^(?P<name>BanzhafForestClassifier) +{ACCURACY}$",
        rf"^(?P<name>BanzhafForestClassifier\(pbrf\)) +{ACCURACY}$",
        rf"^(?P<name>RCRFClassifier) +{ACCURACY}$",
        rf"^(?P<name>CredalForestClassifier) +{ACCURACY}$",
    ],
    "cascade.py": [
        rf"^(?P<name>{name}) +{ACCURACY}, levels grown [123], best level [123]$"
        for name in (r"DF", r"WDF", r"WDF \+ scanning")
    ],
    "c2rf.py": [
        r"^instance: 20 trees, \d+ unlabeled points, lambda = \d+$",
        rf"^(?P<name>RF \(majority vote\)) +{SCORES}$",
        *(
            rf"^(?P<name>{re.escape(name)}) +{SCORES}  status \w+, \d+\.\d\d s, solved by \w+$"
            for name in ("C2RF", "only PP", "p-C2RF+")
        ),
    ],
}


def run_example(script: str) -> str:
    """Run one example with this checkout's library first on the path; its stdout."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")])),
    }
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{proc.stderr[-3000:]}"
    return proc.stdout


def test_every_example_is_checked():
    assert sorted(p.name for p in EXAMPLES.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_example_runs_and_prints_its_results(script):
    lines = run_example(script).splitlines()
    patterns = EXPECTED[script]
    assert len(lines) == len(patterns), lines
    for line, pattern in zip(lines, patterns):
        match = re.match(pattern, line)
        assert match, f"{script}: {line!r} does not match {pattern!r}"
        # every classifier beats chance by far on these easy data sets
        if "accuracy" in match.groupdict():
            assert float(match["accuracy"]) >= 0.8, line


def _docs_tools_missing() -> str | None:
    for module in ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module.split(".")[0]) is None or (
            "." in module and importlib.util.find_spec(module) is None
        ):
            return module
    return None


@pytest.mark.skipif(
    _docs_tools_missing() is not None,
    reason="the docs extra is not installed (pip install -c constraints.txt -e '.[docs]')",
)
def test_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(ROOT / "docs" / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]
    pages = {
        "api/forests/index.html": [
            "BanzhafForestClassifier",
            "RCRFClassifier",
            "CredalForestClassifier",
            "predict_proba",
        ],
        "api/cascade/index.html": ["CascadeForestClassifier", "DeepForestClassifier", "fit_predict_proba"],
        "api/c2rf/index.html": ["forestrepro.c2rf.solver", "build_instance", "majority_vote"],
        "examples/index.html": ["load_wine", "load_digits", "load_breast_cancer"],
    }
    for page, names in pages.items():
        text = (site / page).read_text()
        for name in names:
            assert name in text, f"{name} missing from {page}"
