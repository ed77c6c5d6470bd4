"""Method parameters checked while the jobs are planned, before any job runs.

Each planned job's method is built as the job would build it, and its estimator's own
parameter checks (``_check_params``, or its scikit-learn ``_parameter_constraints`` read by
``forestrepro._validation.check_params``, on nested estimators too) run on the fixed parameters, on every sweep value, and on every grid value for
the data set's configured feature count. So ``n_estimators=-1``, ``abc`` or ``2.5`` is one
error naming the method, the experiment and the value, instead of a traceback in every job.
Training never imports this module, so the run records do not depend on it.
"""

from __future__ import annotations

import json

from sklearn.base import BaseEstimator, clone

from .._validation import check_params


def check_estimator_params(estimator: BaseEstimator, n_features: int | None = None) -> None:
    """Run the parameter checks of a clone of ``estimator`` and of the estimators it holds.

    Checks that resolve a parameter against the data's width (BRF's ``h``) see ``n_features``
    as ``n_features_in_``, as ``fit`` would; without it such a check is skipped."""
    probe = clone(estimator)
    if n_features is not None:
        probe.n_features_in_ = n_features
    check = getattr(probe, "_check_params", None)
    try:
        if check is not None:
            check()
        elif getattr(probe, "_parameter_constraints", None):
            check_params(probe)
    except AttributeError:  # the check needs fitted data it cannot have here
        pass
    for value in probe.get_params(deep=False).values():
        if isinstance(value, BaseEstimator):
            check_estimator_params(value, n_features)


def _variants(method_config: dict, sweep: dict | None) -> list[tuple[str, dict]]:
    """(label, method config) for the unswept config or each sweep value (as the runner sweeps)."""
    if not sweep:
        return [("", method_config)]
    key = sweep["param"].removeprefix("params.")
    return [
        (f" with {key}={value!r}", {**method_config, "params": {**method_config["params"], key: value}})
        for value in sweep["values"]
    ]


def _problem(method_config: dict, options: dict, n_features: int | None) -> str | None:
    """The first parameter error of one method configuration, or None."""
    from ..methods import build_method

    try:
        method = build_method(method_config, options)
        if not method.is_estimator:  # a C2RF approach: its switches are checked when it is built
            return None
        estimator = method.estimator(random_state=0)
        check_estimator_params(estimator, n_features)
        grid = method.param_grid(n_features) if n_features else {}
        for name, values in grid.items():
            for value in values:
                try:
                    check_estimator_params(clone(estimator).set_params(**{name: value}), n_features)
                except (TypeError, ValueError) as err:
                    return f"grid value {name}={value!r}: {err}"
    except (TypeError, ValueError) as err:  # MethodConfigError and InvalidParameterError are ValueErrors
        return str(err)
    return None


def check_method_params(specs: list[dict]) -> list[str]:
    """The parameter errors of the planned job specs' methods, one line per method and experiment."""
    problems, seen, failed = [], set(), set()
    for spec in specs:
        where = (spec["paper"], spec["experiment"], spec["method"])
        if where in failed:
            continue
        options = spec["dataset_options"]
        n_features = spec["dataset_config"].get("expected", {}).get("features")
        for label, method_config in _variants(spec["method_config"], spec.get("sweep")):
            key = json.dumps([method_config, options, n_features], sort_keys=True, default=str)
            if key in seen:
                continue
            seen.add(key)
            problem = _problem(method_config, options, n_features)
            if problem:
                failed.add(where)
                problems.append(
                    f"method.{spec['method']}{label} (paper.{spec['paper']}.experiments."
                    f"{spec['experiment']}, data set {spec['dataset']}): {problem}"
                )
                break
    return problems
