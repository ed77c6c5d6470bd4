"""The deep forest (gcForest) and the weighted deep forest of the WDF paper as methods.

A data set's options (``paper.wdf.dataset_options.<name>``) say how to feed it: ``scan`` with a
``shape`` turns on multi-grained scanning (1-D sequences, 2-D images; WDF Sec. 2.1), and
``text`` with ``max_features`` turns a text column into bag-of-words counts (fitted on the
training part only) before the cascade. The cascade grows with ``fit_predict_proba``, which
keeps no fold models in memory (gcForest's own setting).
"""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer

from ..ensembles.cascade import CascadeForestClassifier
from ..ensembles.cascade_deep_forest import DeepForestClassifier
from ..ensembles.scanning import MultiGrainedScanner
from .base import Method, with_jobs


class CascadeForest(Method):
    """Cascade forest (DF) or weighted cascade forest (WDF), with scanning where configured.

    ``params`` are ``CascadeForestClassifier``'s; ``params.scanner`` (a mapping) holds
    ``MultiGrainedScanner``'s for the data sets that are scanned.
    """

    key = "cascade_forest"

    def estimator(self, random_state: int):
        params = {k: v for k, v in self.params.items() if k != "scanner"}
        cascade = CascadeForestClassifier(random_state=random_state, **params)
        scan = self.options.get("scan")
        if not scan:
            return cascade
        scanner = MultiGrainedScanner(
            shape=tuple(scan["shape"]), random_state=random_state, **self.params.get("scanner", {})
        )
        return DeepForestClassifier(scanner=scanner, cascade=cascade, random_state=random_state)

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}

    def describe(self, fitted) -> dict[str, float]:
        return {"n_levels": float(fitted.n_levels_), "best_level": float(fitted.best_level_)}

    def _features(self, X_train, X_test):
        text = self.options.get("text")
        if not text:
            return X_train, X_test
        vectorizer = CountVectorizer(max_features=text["max_features"], binary=text.get("binary", False))
        train = vectorizer.fit_transform(X_train).toarray().astype(np.float32)
        return train, vectorizer.transform(X_test).toarray().astype(np.float32)

    def fit_predict(self, X_train, y_train, X_test, random_state: int, n_jobs: int = 1):
        X_train, X_test = self._features(X_train, X_test)
        model = with_jobs(self.estimator(random_state), n_jobs)
        proba = model.fit_predict_proba(X_train, y_train, X_test)
        return model.classes_[np.argmax(proba, axis=1)], self.describe(model)
