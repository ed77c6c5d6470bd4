"""The plain baselines of the out-of-sample ranking (conf/method/default_{rf,et,hgb}.yaml):
scikit-learn's classifiers named by import path, with no wrapper and no parameter set, so a job
builds each at the pinned library's own defaults (only random_state from the job's seeds)."""

from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.base import clone
from sklearn.ensemble import ExtraTreesClassifier, HistGradientBoostingClassifier, RandomForestClassifier

from forestrepro.methods.registry import build_method

CONF = Path(__file__).resolve().parents[2] / "conf" / "method"
BASELINES = {
    "default_rf": RandomForestClassifier,
    "default_et": ExtraTreesClassifier,
    "default_hgb": HistGradientBoostingClassifier,
}


@pytest.mark.parametrize("name", sorted(BASELINES))
def test_a_default_baseline_is_the_library_class_at_its_defaults(name):
    config = yaml.safe_load((CONF / f"{name}.yaml").read_text())
    assert config["name"] == name and config["params"] == {} and config["grid"] == {}
    method = build_method(config)
    estimator = method.estimator(random_state=7)
    assert type(estimator) is BASELINES[name]  # no wrapper: nothing for check_estimator to test
    assert estimator.get_params() == BASELINES[name](random_state=7).get_params()
    assert method.param_grid(n_features=4) == {}
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = (X[:, 0] > 0).astype(int)
    first = clone(estimator).fit(X, y).predict(X)
    np.testing.assert_array_equal(first, clone(estimator).fit(X, y).predict(X))  # seeded
