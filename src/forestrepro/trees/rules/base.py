"""What a split rule is.

A split rule looks at one node and answers ``(feature, threshold)`` or "make a leaf".  Two
kinds plug into the builder without changing it:

- ``CompiledSplitRule``: a numba kernel with the signature ``SPLIT_KERNEL_SIG`` of
  ``forestrepro.trees._kernel_api`` plus a float64 parameter vector.  The whole tree then
  grows in compiled code; this is the fast path of every sample-level rule (best threshold,
  midpoint, ...).
- ``PythonSplitRule``: a Python method called once per node with a ``NodeView``.  For rules
  whose work is combinatorial on features rather than a loop over samples (the Banzhaf power
  index of the BRF paper); loops over samples inside it should still call compiled helpers.

A new compiled rule is a module with a kernel of that signature (see ``gini`` for a
criterion, ``midpoint`` for a feature choice) and a ``CompiledSplitRule`` returning it.  The
BRF rule, for instance, is a kernel that scores the candidate features (gain ratio at the
root, ``depth == 0``; Banzhaf power index elsewhere) and cuts the best one at
``_scan.midpoint``.  Which labels a node's splits are scored on is orthogonal to the rule:
see ``label_view`` (RCRF).
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np


class SplitRule(ABC):
    """Base class of split rules; ``needs_cell`` asks the builder for each node's cell."""

    needs_cell = False


class CompiledSplitRule(SplitRule):
    """A rule run by a compiled kernel (``kernel``) with parameters ``params()``."""

    @property
    @abstractmethod
    def kernel(self):
        """The numba function compiled with ``SPLIT_KERNEL_SIG``."""

    @property
    def integer_weight_kernel(self):
        """The kernel the builder runs when every sample weight is an integer (bootstrap
        multiplicities; ``builder.integer_weights``): a faster kernel that may sum in another
        order, as such sums are exact, and chooses the same cut as ``kernel``; by default
        ``kernel`` itself."""
        return self.kernel

    def params(self):
        """The kernel's float64 parameter vector."""
        return np.zeros(1)


@dataclass(frozen=True, eq=False)
class NodeView:
    """One node as a ``PythonSplitRule`` sees it.

    ``y`` and ``counts`` are in the node's label view; ``samples`` is the node's slice of the
    sample permutation (read it, do not reorder it); ``features`` is the tree's feature pool
    of which ``n_eval`` are to be evaluated; ``cell_lo``/``cell_hi`` are filled when the rule
    ``needs_cell``.
    """

    X: np.ndarray
    y: np.ndarray
    w: np.ndarray
    n_classes: int
    samples: np.ndarray
    counts: np.ndarray
    cell_lo: np.ndarray
    cell_hi: np.ndarray
    features: np.ndarray
    n_eval: int
    depth: int
    rng: np.random.Generator


class PythonSplitRule(SplitRule):
    """A rule called from Python once per node."""

    @abstractmethod
    def split(self, node: NodeView):
        """Return ``(feature, threshold)``, or ``None`` to make the node a leaf."""
