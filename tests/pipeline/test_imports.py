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


C2RF_JOB = """
import sys
import numpy as np
from forestrepro.c2rf import run_instance
from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.methods import build_method
build_method({{"name": "a", "estimator": "c2rf_approach", "params": {params}, "grid": {{}}}})
rng = np.random.default_rng(0)
X = rng.normal(size=(400, 3))
y = (X[:, 0] + 0.3 * rng.normal(size=400) > 0).astype(int)
run_instance(X, y, sampling="srs", seed=1, approaches={{"a": {kwargs}}}, time_limit=5)
print("forestrepro.c2rf.exact" in sys.modules)
"""


def test_a_c2rf_job_imports_the_exact_chain_only_for_its_approach():
    # a job's record depends on the files it imported: the MILP approaches must not depend on
    # the exact chain (c2rf/exact.py, bounds.py, committees.py), or a change to it reruns them
    for params, kwargs, expected in (
        ('{"solver": "milp"}', 'dict(APPROACHES["p-C2RF+"])', "False"),
        ('{"vote": True}', "None", "False"),
        ('{"solver": "exact"}', '{"solver": "exact"}', "True"),
    ):
        script = C2RF_JOB.format(params=params, kwargs=kwargs)
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected, (params, out.stderr[-2000:])
