"""A training job imports no Hydra (issue 25): the command line, the runner, the error list and
what a job builds load neither hydra nor omegaconf; `import forestrepro` loads neither numba nor
HiGHS."""

import subprocess
import sys

JOB = """
import sys
from forestrepro import cli, runner
cli.known_errors()
from forestrepro.config import ConfigError
from forestrepro.evaluation.registry import protocol_runner
from forestrepro.methods import build_method
protocol_runner("nested_cv")
build_method({"name": "rcrf", "estimator": "rcrf", "params": {"n_estimators": 2}, "grid": {}})
print(sorted(m for m in ("hydra", "omegaconf") if m in sys.modules))
"""


def test_a_training_job_imports_no_hydra():
    out = subprocess.run([sys.executable, "-c", JOB], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_import_forestrepro_loads_no_numba_or_highs():
    script = "import sys, forestrepro; print(sorted(m for m in ('numba', 'highspy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
