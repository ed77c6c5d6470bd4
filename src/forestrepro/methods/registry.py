"""Look a method class up by the ``estimator`` key of its configuration."""

from __future__ import annotations

from .base import Method, MethodConfigError
from .baselines import KNN, SVMRbf, TextbookRF
from .c2rf import C2RFApproach
from .cascades import CascadeForest
from .forests import RCRF, BanzhafRF, Biau12, BreimanRF, CredalRF, EmpiricalErrorRF, GainRatioRF

METHODS: dict[str, type[Method] | type[C2RFApproach]] = {
    cls.key: cls
    for cls in (SVMRbf, KNN, TextbookRF, CascadeForest, BreimanRF, CredalRF, RCRF, GainRatioRF, BanzhafRF, Biau12,
                EmpiricalErrorRF, C2RFApproach)
}


def build_method(method_config: dict, options: dict | None = None) -> Method | C2RFApproach:
    """Instantiate the method of one ``conf/method/*.yaml`` entry, with a job's data set options."""
    key = method_config["estimator"]
    if key not in METHODS:
        raise MethodConfigError(
            f"method '{method_config.get('name', key)}': unknown estimator '{key}'; "
            f"valid: {sorted(METHODS)}"
        )
    return METHODS[key](
        method_config["name"], method_config.get("params", {}), method_config.get("grid", {}), options
    )
