"""Fit the official deep forest (``deepforest``, package deep-forest-py310) on one split and
print one JSON line: accuracy, layers kept, fit and predict seconds.

Run with this folder's own interpreter (``.venv/bin/python``, made by ``setup.sh``); the
benchmark ``benchmarks/cascade.py`` calls it on the split it saved:

    .venv/bin/python run_anchor.py SPLIT.npz '{"mode": "custom", "n_forests": 2, ...}'

Modes:
- ``builtin``: deep-forest's own layer: ``n_forests`` random forests and ``n_forests``
  extremely randomised forests (``max_features="sqrt"``, random cuts) of its compiled
  forest, grown on bootstrap samples; class vectors and layer accuracy out-of-bag.
- ``custom``: ``set_estimator`` with scikit-learn's ``RandomForestClassifier(max_features=
  "sqrt")`` and ``ExtraTreesClassifier(max_features=1)`` (completely random) forests, each
  cross-fitted over ``n_folds`` folds (``KFoldWrapper``): gcForest's layer, as near as the
  API allows.

Both bin every input feature into at most 255 quantile bins (uint8) and stop after
``n_tolerant_rounds`` layers without a gain of ``delta`` in layer accuracy; ``n_layers_`` is
then the number of layers kept (up to the best one), and ``n_tolerant_rounds`` more were
grown and dropped. If ``max_layers`` stops the growth first, all layers are kept and the
last one predicts.
"""

import json
import sys
import time

import numpy as np
import sklearn
from deepforest import CascadeForestClassifier
from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier


def make_model(params):
    model = CascadeForestClassifier(
        n_estimators=params["n_forests"],
        n_trees=params["n_trees"],
        max_layers=params["max_levels"],
        n_tolerant_rounds=params["early_stopping_rounds"],
        use_predictor=False,
        n_jobs=params["n_jobs"],
        random_state=params["seed"],
        verbose=0,
    )
    if params["mode"] == "custom":
        seeds = np.random.RandomState(params["seed"]).randint(2**31 - 1, size=2 * params["n_forests"])
        forests = [
            RandomForestClassifier(
                params["n_trees"], max_features="sqrt", n_jobs=params["n_jobs"], random_state=int(seed)
            )
            for seed in seeds[: params["n_forests"]]
        ]
        forests += [
            ExtraTreesClassifier(
                params["n_trees"], max_features=1, n_jobs=params["n_jobs"], random_state=int(seed)
            )
            for seed in seeds[params["n_forests"] :]
        ]
        model.set_estimator(forests, n_splits=params["n_folds"])
    elif params["mode"] != "builtin":
        raise ValueError(f"unknown mode {params['mode']!r}")
    return model


def main(split_path, params_json):
    params = json.loads(params_json)
    split = np.load(split_path, allow_pickle=False)
    model = make_model(params)
    start = time.perf_counter()
    model.fit(split["X_train"], split["y_train"])
    fit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    predicted = model.predict(split["X_test"])
    predict_seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "accuracy": float(np.mean(predicted == split["y_test"])),
                "levels_used": int(model.n_layers_),
                "levels_grown": int(
                    model.n_layers_ + params["early_stopping_rounds"]
                    if model.n_layers_ < params["max_levels"]
                    else model.n_layers_
                ),
                "fit_seconds": fit_seconds,
                "predict_seconds": predict_seconds,
                "sklearn": sklearn.__version__,
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
