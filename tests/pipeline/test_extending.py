"""The extension recipe of docs/pages/extending.md, followed to the letter on a copy of the
checkout: a new method is one class and one YAML, a new data set one YAML and a mirror file,
and both appear in a paper's table beside the published columns."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from forestrepro.methods import build_method
from forestrepro.methods.base import MethodConfigError

REPO = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))

TOY_CLASS = '''"""A toy forest: scikit-learn's random forest with few trees (the recipe's example)."""

from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.ensemble import RandomForestClassifier


class ToyForestClassifier(ClassifierMixin, BaseEstimator):
    def __init__(self, n_estimators=5, max_depth=None, random_state=None):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.random_state = random_state

    def fit(self, X, y):
        self.forest_ = RandomForestClassifier(
            n_estimators=self.n_estimators, max_depth=self.max_depth, random_state=self.random_state
        ).fit(X, y)
        self.classes_ = self.forest_.classes_
        return self

    def predict(self, X):
        return self.forest_.predict(X)
'''

TOY_METHOD = """name: toy_forest
estimator: "forestrepro.extensions.toy_forest:ToyForestClassifier"
params: {n_estimators: 5}
grid:
  max_depth: [2, 4]
"""

TOY_DATASET = """name: toy
description: Two Gaussian classes in 4 dimensions, made by the recipe's test (not real data).
papers: [brf]
variant_of: null
stand_in: null
openml: {{id: null, version: null, target: null, drop_columns: []}}
mirror:
  format: csv
  files:
  - path: toy/toy.csv
    sha256: {sha256}
  separator: ","
  header: true
  target_column: target
target_transform: null
paper_targets: {{}}
drop_incomplete_rows: false
expected: {{rows: 60, features: 4, classes: 2}}
published:
  brf: {{name: toy, rows: null, features: null, classes: null}}
notes: null
"""


def test_a_method_is_named_by_its_import_path():
    method = build_method(
        {
            "name": "lr",
            "estimator": "sklearn.linear_model:LogisticRegression",
            "params": {"C": 0.5},
            "grid": {"max_iter": [50, 100]},
        }
    )
    model = method.estimator(random_state=3)
    assert (model.C, model.random_state) == (0.5, 3) and method.param_grid(4) == {"max_iter": [50, 100]}
    with pytest.raises(MethodConfigError, match="cannot import Nope from sklearn.linear_model"):
        build_method({"name": "x", "estimator": "sklearn.linear_model:Nope", "params": {}, "grid": {}})
    with pytest.raises(MethodConfigError, match="is not a scikit-learn classifier"):
        build_method(
            {"name": "x", "estimator": "sklearn.linear_model:LinearRegression", "params": {}, "grid": {}}
        )
    with pytest.raises(MethodConfigError, match="unknown grid entries"):
        build_method(
            {
                "name": "x",
                "estimator": "sklearn.linear_model:LogisticRegression",
                "params": {},
                "grid": {"depth": [1]},
            }
        )


def test_the_recipe_puts_a_new_method_and_data_set_in_a_papers_table(tmp_path):
    repo = tmp_path / "repo"
    for part in ("src", "conf", "workflow"):  # keep src/forestrepro/datasets -> conf/dataset a link
        shutil.copytree(
            REPO / part,
            repo / part,
            symlinks=True,
            ignore=shutil.ignore_patterns("*.pyc", "*.egg-info"),  # numba's cache kept: no recompiling
        )
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(REPO / name, repo / name)
    # the method: one class, one YAML
    (repo / "src/forestrepro/extensions/toy_forest.py").write_text(TOY_CLASS)
    (repo / "conf/method/toy_forest.yaml").write_text(TOY_METHOD)
    # the data set: one YAML and its file in the mirror
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0, 1, (30, 4)), rng.normal(1.5, 1, (30, 4))])
    rows = ["a,b,c,d,target"] + [
        ",".join(f"{v:.4f}" for v in x) + f",{int(i >= 30)}" for i, x in enumerate(X)
    ]
    mirror = tmp_path / "mirror"
    (mirror / "toy").mkdir(parents=True)
    (mirror / "toy/toy.csv").write_text("\n".join(rows) + "\n")
    sha = hashlib.sha256((mirror / "toy/toy.csv").read_bytes()).hexdigest()
    (repo / "conf/dataset/toy.yaml").write_text(TOY_DATASET.format(sha256=sha))
    # the table: Table 2 of the BRF paper, on the new data set, with the new method beside KNN
    overrides = [
        "papers=[brf]",
        "paper.brf.experiments.main.datasets=[toy]",
        "paper.brf.experiments.main.methods=[svm,knn,rf,rf_gr,biau12,brf,pbrf,biau12v,toy_forest]",
        "+paper.brf.tables.table2.methods.toy_forest=null",
        "+paper.brf.tables.table2.datasets.toy=toy",
    ]
    table = "results/tables/ext/brf_table2.md"
    env = {**os.environ, "FORESTREPRO_MIRROR": str(mirror), "PYTHONPATH": str(repo / "src")}
    # Table 2's experiment only (the records target), then the report on the finished runs
    # (partial: the paper's other experiments, whose data this mirror lacks, are left out)
    for target, extra in (("records", "only=brf/main/*"), (table, "partial=true")):
        cmd = [
            SNAKEMAKE,
            "--snakefile",
            str(repo / "Snakefile"),
            "--directory",
            str(tmp_path / "run"),
            "--cores",
            "2",
            target,
            "--config",
            "tag=ext",
            extra,
            "overrides=[" + ",".join(f'"{o}"' for o in overrides) + "]",
        ]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    text = (tmp_path / "run" / table).read_text()
    header = next(line for line in text.splitlines() if line.startswith("| data set") or "toy_forest" in line)
    assert "toy_forest (ours)" in header and "KNNs (paper)" in header, text
    assert any(line.startswith("| toy ") for line in text.splitlines()), text
