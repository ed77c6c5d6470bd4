"""The distribution of the BRF paper's inconsistency example (Sun et al. 2018, Sec. 5.2 and
Fig. 2, after Biau, Devroye and Lugosi 2008).

``X`` is uniform on the union of three unit squares, ``Y`` a function of ``X`` (Bayes risk 0):

- ``[0, 1] x [2, 3]``: vertical stripes, ``Y`` alternating from stripe to stripe along x;
- ``[2, 3] x [0, 1]``: the same stripes, horizontal (along y);
- ``[1, 2] x [1, 2]``: a 2 x 2 checkerboard, ``Y = 1`` on the lower-left and upper-right
  quarters.

**Finitely many stripes.**  The paper's stripes are countably infinite.  Ours accumulate at
``u = 0`` of the square's unit coordinate ``u``: the dyadic band ``[2**-m, 2**-(m-1))``,
``m = 1, 2, ...``, holds two stripes of equal width, stripe ``2m - 1`` (its upper half,
``Y = 1``) and stripe ``2m`` (its lower half, ``Y = 0``), so labels alternate from stripe to
stripe, stripe widths halve every two stripes, and each class has probability 1/2 in each
square.  We truncate at ``n_stripes``: stripe ``n_stripes`` extends down to ``u = 0``.  The
truncated sampler and the infinite one can differ only below stripe ``n_stripes``'s lower
end, ``u < 1.5 * 2**-floor(n_stripes / 2)``, in one of the two stripe squares, so under the
obvious coupling a sample of size ``n`` is a sample of the infinite distribution with
probability at least ``1 - n 2**-floor(n_stripes / 2)``; the default
``n_stripes = 2 (ceil(log2 n) + 20)`` makes that at least ``1 - 2**-20``.  At every ``n`` of
the experiment the data cannot tell the two apart, and every sample has stripes much
narrower than its spacing, as the infinite distribution does (what keeps a greedy tree
cutting stripes).
"""

import numpy as np
import pandas as pd

from .errors import DatasetError

_SQUARES = np.array([[0.0, 2.0], [2.0, 0.0], [1.0, 1.0]])
"""Lower-left corners of the vertical-stripe, horizontal-stripe and checkerboard squares."""


def stripe_label(u, n_stripes):
    """``Y`` at unit coordinates ``u`` in [0, 1) of a stripe square: 1 on odd stripes, where
    stripe ``2m - 1`` is ``[1.5 * 2**-m, 2**-(m-1))`` and stripe ``2m`` is
    ``[2**-m, 1.5 * 2**-m)``; stripes deeper than ``n_stripes`` are merged into it."""
    with np.errstate(divide="ignore"):
        band = np.ceil(-np.log2(u))
    stripe = np.where(u >= 1.5 * 2.0**-band, 2 * band - 1, 2 * band)
    return (np.minimum(stripe, n_stripes) % 2 == 1).astype(np.intp)


def stripes_checkerboard(n, *, n_stripes=None, seed=0):
    """``n`` points ``(X, y)`` of the Sec. 5.2 distribution (module docstring);
    ``n_stripes``: the number of stripes, default ``2 (ceil(log2 n) + 20)``; ``seed``: an int or
    a ``numpy.random.Generator``.  ``X`` is (n, 2) float64, ``y`` in {0, 1}."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    if n_stripes is None:
        n_stripes = 2 * (int(np.ceil(np.log2(max(n, 2)))) + 20)
    if n_stripes < 1:
        raise ValueError(f"n_stripes must be >= 1, got {n_stripes}")
    rng = np.random.default_rng(seed)
    square = rng.integers(0, 3, size=n)
    u = rng.random((n, 2))
    X = _SQUARES[square] + u
    y = np.empty(n, dtype=np.intp)
    vertical, horizontal, board = (square == 0), (square == 1), (square == 2)
    y[vertical] = stripe_label(u[vertical, 0], n_stripes)
    y[horizontal] = stripe_label(u[horizontal, 1], n_stripes)
    y[board] = ((u[board, 0] < 0.5) == (u[board, 1] < 0.5)).astype(np.intp)
    return X, y


GENERATORS = {"stripes_checkerboard": stripes_checkerboard}
"""Generators a data set config may name in its ``synthetic`` source, by name."""


def generate(spec):
    """``(features, target, provenance part)`` of the data set ``spec`` whose source is
    ``synthetic: {generator, n_samples, seed, params}``: ``n_samples`` points drawn by
    ``GENERATORS[generator](n_samples, seed=seed, **params)``, features named ``x1``, ``x2``,
    ...  The provenance says the data are synthetic and how they were drawn."""

    source = spec["synthetic"]
    name = source["generator"]
    if name not in GENERATORS:
        raise DatasetError(
            f"{spec['name']}: unknown synthetic generator {name!r}; valid: {sorted(GENERATORS)}"
        )
    params = dict(source.get("params") or {})
    try:
        X, y = GENERATORS[name](source["n_samples"], seed=source["seed"], **params)
    except (TypeError, ValueError) as err:
        raise DatasetError(f"{spec['name']}: synthetic generator {name!r} failed: {err}") from err
    features = pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(X.shape[1])])
    part = {
        "source": "synthetic",
        "synthetic": {
            "generator": f"forestrepro.data.synthetic.{name}",
            "n_samples": source["n_samples"],
            "seed": source["seed"],
            "params": params,
        },
        "files": [],
    }
    return features, pd.Series(y, name="target"), part
