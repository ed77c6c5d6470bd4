"""The protocol kinds, looked up by the ``kind`` of a protocol's configuration.

Each kind's module is imported only when a job runs it, so a job's record names only the
protocol code it ran (``record/provenance.py``).
"""

from __future__ import annotations

from importlib import import_module

from .base import EvaluationProtocol, ProtocolError

# protocol kind -> (module of forestrepro.evaluation, EvaluationProtocol subclass)
PROTOCOLS: dict[str, tuple[str, str]] = {
    "nested_cv": ("protocol", "NestedCrossValidation"),
    "holdout": ("holdout", "Holdout"),
    "oob_repeats": ("oob", "OOBRepeats"),
    "kappa_error_cv": ("kappa_error", "KappaErrorCV"),
    "learning_curve": ("learning_curve", "LearningCurve"),
    "c2rf_samples": ("c2rf_samples", "C2RFSamples"),
}


def protocol_runner(kind: str) -> EvaluationProtocol:
    """The protocol of kind ``kind`` (its module imported on demand)."""
    if kind not in PROTOCOLS:
        raise ProtocolError(f"unknown protocol kind {kind!r}; valid: {sorted(PROTOCOLS)}")
    module, name = PROTOCOLS[kind]
    return getattr(import_module(f".{module}", __package__), name)()
