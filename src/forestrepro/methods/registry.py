"""Look a method class up by the ``estimator`` key of its configuration.

Each method's module is imported only when a job builds that method, so a job's record
depends on its own method's code and not on every method's (``record/provenance.py``).
A key with a colon, ``"package.module:ClassName"``, names any scikit-learn classifier
(``external.External``): a new method needs no entry here.
"""

from __future__ import annotations

from importlib import import_module

from .base import Method, MethodConfigError

# estimator key -> (module of forestrepro.methods, class)
METHODS: dict[str, tuple[str, str]] = {
    "svm_rbf": ("baselines", "SVMRbf"),
    "knn": ("baselines", "KNN"),
    "textbook_rf": ("baselines", "TextbookRF"),
    "cascade_forest": ("cascades", "CascadeForest"),
    "breiman_rf": ("forests", "BreimanRF"),
    "credal_rf": ("forests", "CredalRF"),
    "rcrf": ("forests", "RCRF"),
    "gain_ratio_rf": ("forests", "GainRatioRF"),
    "banzhaf_rf": ("forests", "BanzhafRF"),
    "biau12": ("forests", "Biau12"),
    "empirical_error_rf": ("forests", "EmpiricalErrorRF"),
    "c2rf_approach": ("c2rf", "C2RFApproach"),
}


def method_class(key: str) -> type:
    """The class of estimator key ``key`` (imported on demand)."""
    module, name = METHODS[key]
    return getattr(import_module(f".{module}", __package__), name)


def build_method(method_config: dict, options: dict | None = None) -> Method:
    """Instantiate the method of one ``conf/method/*.yaml`` entry, with a job's data set options."""
    key = method_config["estimator"]
    if ":" in key:
        from .external import External

        return External(
            method_config["name"],
            method_config.get("params", {}),
            method_config.get("grid", {}),
            options,
            path=key,
        )
    if key not in METHODS:
        raise MethodConfigError(
            f"method '{method_config.get('name', key)}': unknown estimator '{key}'; valid: {sorted(METHODS)}, "
            "or a classifier's import path 'package.module:ClassName'"
        )
    return method_class(key)(
        method_config["name"], method_config.get("params", {}), method_config.get("grid", {}), options
    )
