"""What cutting a job's data set into its protocol's folds needs of the data.

Nested cross-validation (``nested_cv``) and the κ-error diagrams (``kappa_error_cv``) cut a
job's data set into ``outer_folds`` folds, stratified by class (nested CV unless it says
``stratified: false``), and nested CV cuts each outer training part into ``inner_folds`` where
it searches a grid. That needs as many rows as folds, which the planner checks from the data
set's expected shape before any job runs (``fold_rows_problem``, from ``config/folds.py``). A
stratified split also needs as many rows of each class as folds (inner folds: in each outer
training part), else some folds lack the class and scikit-learn only warns: class counts are known from the data alone, so a job checks them
before any fitting (``check_class_sizes``, from ``forestrepro train``) and is refused unless the
data set's option ``allow_small_classes`` (``paper.<p>.dataset_options.<d>``, or an experiment's
``dataset_options``) runs it anyway; its record's spec then holds the option, and the report
notes it.
"""

from __future__ import annotations

import math

import numpy as np

from .base import ProtocolError

FOLDED_KINDS = ("nested_cv", "kappa_error_cv")  # the protocol kinds that cut a data set into folds
SMALL_CLASSES_OPTION = "allow_small_classes"  # a data set option: run with classes smaller than the folds


def protocol_folds(protocol: dict) -> int | None:
    """The folds a protocol cuts a job's data set into (its ``outer_folds``), or None."""
    return int(protocol["outer_folds"]) if protocol["kind"] in FOLDED_KINDS else None


def is_stratified(protocol: dict) -> bool:
    """Whether the protocol's folds keep each class's share (κ-error's always, nested CV's by default)."""
    return protocol["kind"] == "kappa_error_cv" or bool(protocol.get("stratified", True))


def fold_rows_problem(rows: int, protocol: dict, searches_grid: bool) -> str | None:
    """Why ``rows`` rows cannot be cut into the protocol's folds (``"outer_folds"`` or
    ``"inner_folds"`` first, then the reason), or None. The inner folds cut the smallest outer
    training part, and only where the method searches a grid."""
    folds = protocol_folds(protocol)
    if folds is None:
        return None
    if rows < folds:
        return f"outer_folds: {rows} rows are fewer than its {folds} folds"
    inner = protocol.get("inner_folds")
    training = rows - math.ceil(rows / folds)  # the smallest outer training part
    if protocol["kind"] == "nested_cv" and searches_grid and inner and training < inner:
        return (
            f"inner_folds: the smallest outer training part of {rows} rows in {folds} folds has "
            f"{training} rows, fewer than its {inner} inner folds"
        )
    return None


def searches_grid(method_config: dict) -> bool:
    """Whether a method chooses among several grid candidates (by nested CV's inner folds)."""
    grid = method_config.get("grid") or {}
    return math.prod(len(values) for values in grid.values()) > 1


def small_classes(y: np.ndarray, folds: int, inner_folds: int | None = None) -> dict[str, int]:
    """``{class: rows}`` of each class of ``y`` with fewer rows than ``folds``, and, given
    ``inner_folds``, with fewer rows than those in its smallest outer training part (a stratified
    fold holds ``ceil(rows / folds)`` rows of a class or fewer), there the training part's rows."""
    labels, counts = np.unique(y, return_counts=True)
    small = {}
    for label, count in zip(labels, counts, strict=True):
        training = count - math.ceil(count / folds)
        if count < folds:
            small[str(label)] = int(count)
        elif inner_folds is not None and training < inner_folds:
            small[str(label)] = int(training)
    return small


def check_class_sizes(y: np.ndarray, spec: dict) -> dict[str, int]:
    """Refuse a job whose stratified folds would lack a class (fewer rows than the outer folds,
    or than the inner folds in an outer training part where it searches a grid), naming the data
    set, the paper and experiment, the protocol and the option that runs it anyway; return the
    small classes (``small_classes``; empty for a protocol without folds or with none)."""
    protocol = spec["protocol"]
    folds = protocol_folds(protocol)
    if folds is None or not is_stratified(protocol):
        return {}
    inner = protocol.get("inner_folds") if searches_grid(spec["method_config"]) else None
    small = small_classes(y, folds, inner)
    if small and not spec["dataset_options"].get(SMALL_CLASSES_OPTION):
        paper, dataset = spec["paper"], spec["dataset"]
        listed = ", ".join(f"{label!r} ({count} rows)" for label, count in small.items())
        inner_text = f" (or, in an outer training part, than its {inner} inner folds)" if inner else ""
        raise ProtocolError(
            f"data set '{dataset}' (paper.{paper}.experiments.{spec['experiment']}, protocol "
            f"'{protocol.get('name', protocol['kind'])}', outer_folds {folds}): class(es) {listed} "
            f"have fewer rows than the {folds} folds{inner_text}, so some folds would lack them; "
            f"to run it anyway, set the data set option {SMALL_CLASSES_OPTION} "
            f"(+paper.{paper}.dataset_options.{dataset}.{SMALL_CLASSES_OPTION}=true): the job's "
            "spec and the report then say so"
        )
    return small
