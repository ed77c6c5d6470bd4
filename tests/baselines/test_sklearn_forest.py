"""SklearnRandomForest (src/forestrepro/extensions/sklearn_forest.py): scikit-learn's forest,
whose only addition, tree_predictions, gives each tree's own prediction as a class index."""

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.utils.estimator_checks import check_estimator

from forestrepro.extensions.sklearn_forest import SklearnRandomForest


def test_tree_predictions_are_each_trees_class_and_nothing_else_changes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 4))
    y = np.array(["b", "c", "a"])[rng.integers(0, 3, 120)]
    ours = SklearnRandomForest(n_estimators=9, random_state=1).fit(X, y)
    plain = RandomForestClassifier(n_estimators=9, random_state=1).fit(X, y)
    test = rng.normal(size=(50, 4))
    np.testing.assert_array_equal(ours.predict_proba(test), plain.predict_proba(test))
    predictions = ours.tree_predictions(test)
    assert predictions.shape == (9, 50) and predictions.dtype == np.intp
    # by hand: tree t's class is the class of its leaf's largest count
    for t, tree in enumerate(ours.estimators_):
        leaf_counts = tree.tree_.value[tree.apply(test.astype(np.float32)), 0, :]
        np.testing.assert_array_equal(predictions[t], leaf_counts.argmax(axis=1))
    assert set(ours.classes_[predictions].ravel()) <= {"a", "b", "c"}


# Waived as scikit-learn waives them for RandomForestClassifier itself (its own expected
# failures, sklearn.utils._test_common.instance_generator): a bootstrap sample is not the same
# as weights that remove or repeat rows.
SCIKIT_LEARNS_OWN_WAIVERS = {
    "check_sample_weight_equivalence_on_dense_data": "bootstrap samples, as RandomForestClassifier",
    "check_sample_weight_equivalence_on_sparse_data": "bootstrap samples, as RandomForestClassifier",
    "check_classifiers_one_label_sample_weights": "as RandomForestClassifier",
}


def test_scikit_learn_estimator_checks():
    check_estimator(SklearnRandomForest(n_estimators=5), expected_failed_checks=SCIKIT_LEARNS_OWN_WAIVERS)
