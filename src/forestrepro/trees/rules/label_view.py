"""Per-node label views: which labels a node's splits are scored on.

A view maps each original class to a class of the view; a compiled chooser picks, per node,
the view from the node's counts of the original classes.  Leaves always keep the counts of
the original classes, so prediction is unchanged by views.

- ``OriginalLabels``: one view, the identity (the default).
- ``PriorityClassView(omega)``: the RCRF rule (Guan, Pang and Liang 2019, Algorithm 2,
  step 4): at a node that holds samples of the tree's priority class ``omega`` splits are
  scored on the binary labels ``1[y == omega]``, at any other node on the original classes.
"""

from dataclasses import dataclass

import numpy as np
from numba import njit

from .._kernel_api import VIEW_CHOOSER_SIG


@njit(VIEW_CHOOSER_SIG, cache=True, nogil=True)
def _only_view(counts, params):
    return 0


@njit(VIEW_CHOOSER_SIG, cache=True, nogil=True)
def _priority_view(counts, params):
    return 0 if counts[np.intp(params[0])] > 0.0 else 1


class LabelView:
    """Base class: ``maps(n_classes)`` gives the (n_views, n_classes) class maps and
    ``chooser(counts, chooser_params())`` the view of a node; by default the identity."""

    chooser = staticmethod(_only_view)

    def maps(self, n_classes):
        return np.arange(n_classes, dtype=np.intp)[None, :]

    def chooser_params(self):
        return np.zeros(1)


class OriginalLabels(LabelView):
    """Score every node on the original classes."""


@dataclass(frozen=True)
class PriorityClassView(LabelView):
    """One-vs-rest view of the priority class (encoded index ``omega``) where it is present."""

    omega: int
    chooser = staticmethod(_priority_view)

    def maps(self, n_classes):
        if not 0 <= self.omega < n_classes:
            raise ValueError(f"priority class index {self.omega} not in [0, {n_classes})")
        classes = np.arange(n_classes, dtype=np.intp)
        return np.stack([(classes == self.omega).astype(np.intp), classes])

    def chooser_params(self):
        return np.array([float(self.omega)])
