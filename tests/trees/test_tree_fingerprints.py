"""Every tree the builder grows stays the same, node for node, across changes of its code.

Each case grows trees on a mirror data set with one rule or forest the papers use (every
criterion, the midpoint rules, BRF, Biau12, the empirical-error rule, C4.5's gain ratio, RCRF's
label views, the credal forest; ``max_features`` draws, bootstrap on and off, several seeds,
stopping rules, non-integer sample weights) and hashes all of their node arrays (children,
features, thresholds, class counts, sample counts, weights, depths) into one sha256.  The
committed ``fingerprints.json`` holds the hashes of the code that made the committed run
records; a change of the builder that changes any tree (one threshold's last bit) fails here.

The file is made by ``generate`` and is regenerated only on purpose, for a change of the trees
that is meant (and then the run records it reaches are stale)::

    PYTHONPATH=src python tests/trees/test_tree_fingerprints.py
"""

import hashlib
import json
from dataclasses import fields
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from tree_data import load_pmlb

from forestrepro.ensembles.biau import Biau12ForestClassifier
from forestrepro.ensembles.brf import BanzhafForestClassifier, GainRatioForestClassifier
from forestrepro.ensembles.credal import BreimanForestClassifier, CredalForestClassifier
from forestrepro.ensembles.empirical_error_rf import EmpiricalErrorForestClassifier
from forestrepro.ensembles.forest import PluggableForestClassifier
from forestrepro.ensembles.rcrf import RCRFClassifier
from forestrepro.trees import PluggableTreeClassifier
from forestrepro.trees.rules import EmpiricalError, Midpoint
from forestrepro.trees.tree import Tree

FINGERPRINTS = Path(__file__).with_name("fingerprints.json")

DATA = {
    "iris": None,
    "ecoli": None,
    "balance_scale": None,
    "vowel": None,
    "satimage": 1500,
    "letter": 3000,
}
"""Data sets and how many of their rows (drawn once, in their order) are used (None: all)."""

TREE_RULES = ("gini", "entropy", "gain_ratio", "iig")
N_TREES = 3


def _tree_cases():
    """Single trees: every criterion on every data set, and stopping rules, weights, draws."""
    cases = {}
    for data in DATA:
        for rule in TREE_RULES:
            cases[f"tree/{rule}/{data}"] = (data, lambda rule=rule: PluggableTreeClassifier(rule), "ones")
        cases[f"tree/gini/{data}/weights"] = (data, lambda: PluggableTreeClassifier("gini"), "uniform")
        cases[f"tree/entropy/{data}/weights"] = (data, lambda: PluggableTreeClassifier("entropy"), "uniform")
        cases[f"tree/gini/{data}/bootstrap_weights"] = (data, lambda: PluggableTreeClassifier(), "bootstrap")
        cases[f"tree/gini/{data}/stopping"] = (
            data,
            lambda: PluggableTreeClassifier(max_depth=6, min_samples_split=5, max_error_fraction=0.05),
            "ones",
        )
        cases[f"tree/gain_ratio/{data}/leaves"] = (
            data,
            lambda: PluggableTreeClassifier("gain_ratio", max_leaf_nodes=17),
            "ones",
        )
        for seed in (0, 1):
            cases[f"tree/gini/{data}/sqrt/{seed}"] = (
                data,
                lambda seed=seed: PluggableTreeClassifier(max_features="sqrt", random_state=seed),
                "ones",
            )
            cases[f"tree/gini/{data}/priority/{seed}"] = (
                data,
                lambda seed=seed: PluggableTreeClassifier(
                    priority_class=1, max_features=0.5, random_state=seed
                ),
                "ones",
            )
    return cases


def _forest(cls, **params):
    return lambda seed: cls(N_TREES, random_state=seed, **params)


FORESTS = {
    "gini": _forest(PluggableForestClassifier),
    "gini/no_bootstrap": _forest(PluggableForestClassifier, bootstrap=False),
    "gini/one_feature": _forest(PluggableForestClassifier, max_features=1),
    "gini/half_samples": _forest(PluggableForestClassifier, max_samples=0.5, max_depth=8),
    "entropy/log2": _forest(PluggableForestClassifier, split_rule="entropy", max_features="log2"),
    "gain_ratio/subspace": _forest(PluggableForestClassifier, split_rule="gain_ratio", subspace_size=0.5),
    "iig": _forest(PluggableForestClassifier, split_rule="iig"),
    "midpoint/gini": _forest(PluggableForestClassifier, split_rule=Midpoint("gini")),
    "midpoint/entropy/data": _forest(PluggableForestClassifier, split_rule=Midpoint("entropy", of="data")),
    "midpoint/random": _forest(PluggableForestClassifier, split_rule=Midpoint("random")),
    "empirical_error": _forest(PluggableForestClassifier, split_rule=EmpiricalError()),
    "brf": _forest(BanzhafForestClassifier, max_leaf_nodes=32),
    "pbrf": _forest(BanzhafForestClassifier, variant="pbrf", max_leaf_nodes=32),
    "brf/gain_ratio_nodes": _forest(BanzhafForestClassifier, node_criterion="gain_ratio", max_leaf_nodes=32),
    "rf_gr": _forest(GainRatioForestClassifier),
    "rf_gr/c45": _forest(GainRatioForestClassifier, gain_ratio="c45"),
    "biau12": _forest(Biau12ForestClassifier, max_leaf_nodes=32),
    "biau12/banzhaf": _forest(Biau12ForestClassifier, importance="banzhaf", max_leaf_nodes=32),
    "ee_rf": _forest(EmpiricalErrorForestClassifier),
    "rcrf": _forest(RCRFClassifier),
    "rcrf/binary": _forest(RCRFClassifier, absent_class_labels="binary", priority_draw="present"),
    "crf": _forest(CredalForestClassifier),
    "crf/pure": _forest(CredalForestClassifier, stop="pure"),
    "breiman_rf": _forest(BreimanForestClassifier),
}
"""Forests (``N_TREES`` trees each) by their name in the cases, made from a seed."""

FOREST_DATA = ("iris", "ecoli", "vowel", "satimage")


def _forest_cases():
    return {
        f"forest/{name}/{data}/{seed}": (data, lambda make=make, seed=seed: make(seed), "forest")
        for name, make in FORESTS.items()
        for data in FOREST_DATA
        for seed in (0, 1)
    }


def cases():
    """Every case: its name and ``(data set, estimator factory, weights)``."""
    return {**_tree_cases(), **_forest_cases()}


@cache
def _load(data):
    X, y = load_pmlb(data)
    rows = DATA[data]
    if rows is None:
        return X, y
    chosen = np.sort(np.random.default_rng(0).permutation(X.shape[0])[:rows])
    return X[chosen], y[chosen]


def _weights(kind, n):
    """Sample weights of a case: None (a forest's own), ones, uniform in (0.5, 2), or bootstrap."""
    if kind == "forest":
        return None
    generator = np.random.default_rng(7)
    if kind == "uniform":
        return generator.uniform(0.5, 2.0, n)
    if kind == "bootstrap":
        return np.bincount(generator.integers(0, n, n), minlength=n).astype(np.float64)
    return np.ones(n)


def _trees(estimator):
    """The grown ``Tree`` objects of a fitted tree or forest."""
    members = getattr(estimator, "estimators_", [estimator])
    return [member.tree_ for member in members if isinstance(member.tree_, Tree)]


def fingerprint(data, make, weights):
    """The sha256 of the node arrays of every tree of the case."""
    X, y = _load(data)
    estimator = make()
    sample_weight = _weights(weights, X.shape[0])
    if sample_weight is None:
        estimator.fit(X, y)
    else:
        estimator.fit(X, y, sample_weight=sample_weight)
    digest = hashlib.sha256()
    for tree in _trees(estimator):
        for field in fields(tree):
            array = np.ascontiguousarray(getattr(tree, field.name))
            digest.update(field.name.encode())
            digest.update(str(array.dtype).encode())
            digest.update(array.tobytes())
    return digest.hexdigest()


def generate():
    """Write ``fingerprints.json`` from the present code (only for a meant change of trees)."""
    table = {name: fingerprint(*case) for name, case in cases().items()}
    FINGERPRINTS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")


CASES = cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_trees_are_unchanged(name):
    expected = json.loads(FINGERPRINTS.read_text())
    assert fingerprint(*CASES[name]) == expected[name]


def test_every_case_has_a_fingerprint():
    assert sorted(json.loads(FINGERPRINTS.read_text())) == sorted(CASES)


if __name__ == "__main__":
    generate()
