"""The deep forest (gcForest) and the weighted deep forest of the WDF paper as methods.

A data set's options (``paper.wdf.dataset_options.<name>``) say how to feed it: ``scan`` with a
``shape`` turns on multi-grained scanning (1-D sequences, 2-D images; WDF Sec. 2.1), and
``text`` with ``max_features`` turns a text column into bag-of-words counts (fitted on the
training part only, over a vocabulary every machine chooses alike: ``data/bag_of_words.py``)
before the cascade. The cascade grows with ``fit_predict_proba``, which
keeps no fold models in memory (gcForest's own setting). A scanned split is scanned once for
all methods (``cascade.scan_cache``): the scanning forests are not weighted, so DF and WDF
share the scan and differ only in their cascades. With ``options.cache_dir`` (the workflow
sets ``results/cache``) each cascade keeps its finished forests under ``cascades/`` while it
grows (``cascade.cache``), so a stopped job resumes, and scans are kept in pieces in the scan
store outside the work tree (``options.scan_store``, by default the user cache's,
``checkpoint.location``), where a later session finds them. ``block_mean`` replaces each run of
that many consecutive features by its mean before anything else (``data/blocks.py``; WDF's
SEMG read as Table 1's 500 features).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..cascade.cache import cached_cascade_proba
from ..cascade.deep_forest import DeepForestClassifier
from ..cascade.forest import CascadeForestClassifier, early_stopping_outcome
from ..cascade.scan_cache import Scan, cached_scan
from ..cascade.scanning import MultiGrainedScanner
from ..checkpoint.location import scan_store_dir
from ..data.bag_of_words import bag_of_words
from ..data.blocks import block_means
from .base import Method, MethodConfigError, with_jobs


class CascadeForest(Method):
    """Cascade forest (DF) or weighted cascade forest (WDF), with scanning where configured.

    ``params`` are ``CascadeForestClassifier``'s; ``params.scanner`` (a mapping) holds
    ``MultiGrainedScanner``'s for the data sets that are scanned.
    """

    key = "cascade_forest"

    def estimator(self, random_state: int):
        cascade = self._cascade(random_state)
        scan = self.options.get("scan")
        if not scan:
            return cascade
        return DeepForestClassifier(
            scanner=self._scanner(scan, random_state), cascade=cascade, random_state=random_state
        )

    def _cascade(self, random_state: int) -> CascadeForestClassifier:
        params = {k: v for k, v in self.params.items() if k != "scanner"}
        return CascadeForestClassifier(random_state=random_state, **params)

    def _scanner(self, scan: dict, random_state: int) -> MultiGrainedScanner:
        return MultiGrainedScanner(
            shape=tuple(scan["shape"]), random_state=random_state, **self.params.get("scanner", {})
        )

    def param_grid(self, n_features: int) -> dict[str, list]:
        return {}

    def describe(self, fitted) -> dict[str, float]:
        return {"n_levels": float(fitted.n_levels_), "best_level": float(fitted.best_level_)}

    def _features(self, X_train, X_test):
        block = self.options.get("block_mean")
        if block:
            return block_means(X_train, block), block_means(X_test, block)
        text = self.options.get("text")
        if not text:
            return X_train, X_test
        return bag_of_words(X_train, X_test, text["max_features"], binary=text.get("binary", False))

    def _arrays(self, X_train, y_train, X_test):
        X_train, X_test = self._features(X_train, X_test)
        return (
            np.asarray(X_train, dtype=np.float32),
            np.asarray(y_train),
            np.asarray(X_test, dtype=np.float32),
        )

    def scan(self, X_train, y_train, X_test, seed: int, n_jobs: int = 1) -> Scan:
        """The split's scanned features (Algorithm 1 lines 1-3) with scanner seed ``seed``,
        as ``fit_predict`` gets them with ``shared_seed=seed``. The workflow's ``scan`` rule
        calls this before the split's DF and WDF jobs start, so that none of them holds its
        cores while another scans."""
        if not self.options.get("scan"):
            raise MethodConfigError(
                f"method '{self.name}': its data set's options have no 'scan', so there is nothing to scan"
            )
        return self._stored_scan(*self._arrays(X_train, y_train, X_test), seed, n_jobs)

    def _stored_scan(self, X_train, y_train, X_test, seed: int, n_jobs: int) -> Scan:
        """``cached_scan`` in the scan store: read if a job has stored the scan, else scanned
        and stored. The store is ``options.scan_store``, else, for a job that keeps its pieces
        (``options.cache_dir``), the user cache's (``checkpoint.location.scan_store_dir``)."""
        store = self.options.get("scan_store")
        if store is None and self.options.get("cache_dir") is not None:
            store = scan_store_dir()
        scanner = with_jobs(self._scanner(self.options["scan"], seed), n_jobs)
        return cached_scan(store, scanner, X_train, y_train, X_test)

    def fit_predict(
        self, X_train, y_train, X_test, random_state: int, n_jobs: int = 1, shared_seed: int | None = None
    ):
        """Algorithm 1 on the split. Scanned data sets are scanned with ``shared_seed`` (the
        split's seed, the same for DF and WDF) through the scan store, and the cascade grows
        with the method's own ``random_state``, keeping its finished forests
        (``options.cache_dir``).

        Besides the levels, the extras give ``cascade_seconds`` and, on scanned data sets,
        ``scan_seconds``: wall times summed over every run that grew a piece of them, so a
        job resumed across sessions, or reading a scan another job paid for, still reports
        what its result cost (``fit_seconds`` is the last run's wall time). They also give
        the stopping rule's readings (``stopping_readings``)."""
        X_train, y_train, X_test = self._arrays(X_train, y_train, X_test)
        cache = self.options.get("cache_dir")
        costs = {}
        if self.options.get("scan"):
            seed = random_state if shared_seed is None else shared_seed
            X_train, X_test, costs["scan_seconds"] = self._stored_scan(X_train, y_train, X_test, seed, n_jobs)
        cascade = with_jobs(self._cascade(random_state), n_jobs)
        proba, costs["cascade_seconds"] = cached_cascade_proba(
            None if cache is None else Path(cache) / "cascades", cascade, X_train, y_train, X_test
        )
        extras = {**self.describe(cascade), **costs, **stopping_readings(cascade)}
        return cascade.classes_[np.argmax(proba, axis=1)], extras


def stopping_readings(cascade: CascadeForestClassifier) -> dict:
    """What the cascade would have answered under a stricter stopping rule, read off its own
    levels (``early_stopping_outcome``): for every ``r`` below its ``early_stopping_rounds``,
    ``n_levels_stop<r>`` and ``best_level_stop<r>``, and under ``alternatives`` the test
    predictions ``stop<r>`` that the protocol scores as ``<metric>_stop<r>``. Also the
    per-level k-fold accuracies ``level_kfold_accuracy`` (``A_et``, Eq. 11), which decide both.
    WDF's Algorithm 1 does not say when a level is no longer expanded (line 14), gcForest
    stops once the best level is some rounds old; this shows the levels of each reading.
    """
    found = {"level_kfold_accuracy": [float(a) for a in cascade.level_accuracies_]}
    alternatives = {}
    for rounds in range(1, cascade.early_stopping_rounds):
        n_levels, best_level = early_stopping_outcome(cascade.level_accuracies_, rounds)
        found[f"n_levels_stop{rounds}"] = float(n_levels)
        found[f"best_level_stop{rounds}"] = float(best_level)
        alternatives[f"stop{rounds}"] = cascade.level_test_predictions_[best_level - 1]
    return {**found, "alternatives": alternatives}
