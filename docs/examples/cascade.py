"""Cascade: the deep forest (DF, gcForest's cascade) and the weighted deep forest (WDF).

``CascadeForestClassifier(weighting="none")`` is DF: each forest's class vector is the
plain mean of its trees'.  ``weighting="accuracy"`` is WDF (Gong, Wang and Su 2019): each
tree weighs by the log-odds of its accuracy (Eq. 4).  ``DeepForestClassifier`` puts
multi-grained scanning in front of the cascade, here on the 8 x 8 digit images.

The paper's settings (4 + 4 forests of 500 trees per level) take minutes; this example uses
one forest of each kind with 20 trees and at most 3 levels, on the digits data that ships
with scikit-learn (1797 images of 8 x 8 pixels, 10 classes), so it runs in seconds.

Run: ``python docs/examples/cascade.py``; prints one line per model: test accuracy, levels.
"""

from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

from forestrepro.cascade.deep_forest import DeepForestClassifier
from forestrepro.cascade.forest import CascadeForestClassifier
from forestrepro.cascade.scanning import MultiGrainedScanner

X, y = load_digits(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)

small = {"n_rf": 1, "n_crf": 1, "n_trees": 20, "n_folds": 3, "max_levels": 3, "early_stopping_rounds": 1}
models = {
    "DF": CascadeForestClassifier(weighting="none", random_state=0, **small),
    "WDF": CascadeForestClassifier(weighting="accuracy", random_state=0, **small),
    # WDF with multi-grained scanning: 4 x 4 windows over each 8 x 8 image
    "WDF + scanning": DeepForestClassifier(
        scanner=MultiGrainedScanner(shape=(8, 8), window_sizes=(4,), n_trees=10, max_train_windows=20_000),
        cascade=CascadeForestClassifier(weighting="accuracy", **small),
        random_state=0,
    ),
}

for name, model in models.items():
    model.fit(X_train, y_train)
    accuracy = model.score(X_test, y_test)
    print(
        f"{name:15s} test accuracy {accuracy:.3f}, levels grown {model.n_levels_}, "
        f"best level {model.best_level_}"
    )
