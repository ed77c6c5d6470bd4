"""Numba types of the compiled plug-in points of the tree builder.

A compiled split rule is a numba function compiled with the fixed signature
``SPLIT_KERNEL_SIG``; a label view chooser has ``VIEW_CHOOSER_SIG``.  The builder's grow
loop takes them as first-class function values (``numba.types.FunctionType``), so it is
compiled (and cached on disk) once, and a new rule plugs in without touching it.

Split kernel arguments, in order:

``X``          float32 (n_samples, n_features), C order (a node's rows stay in cache
               while its candidate features are gathered)
``y``          intp labels of the node's label view, in ``[0, n_classes)``
``w``          float64 sample weights (bootstrap multiplicities)
``n_classes``  number of classes of the label view
``samples``    intp permutation of sample indices; the node holds ``samples[start:end]``;
               a kernel may reorder that range (and only that range)
``start, end`` the node's range in ``samples``
``counts``     float64 weighted class counts of the node in the label view
``cell_lo, cell_hi``  float64 bounds of the node's cell (filled only for rules whose
               ``needs_cell`` is true)
``features``   intp pool of candidate features; a kernel may permute it in place
``n_eval``     how many usable (non-constant) features to evaluate (``max_features``)
``depth``      depth of the node (root = 0)
``params``     float64 rule parameters (meaning defined by each rule)
``rng``        uint64 state of the tree's generator (``_rng``)
``Xf``         float32 scratch of length n_samples
``buf``        float64 scratch of shape (4, max(n_classes, 2))
``ibuf``       intp scratch of shape (4, n_samples + 1)
``codes``      int32 (n_samples, n_features), C order: ``X`` coded by column
               (``tree_codes``): ``codes[s, f]`` is the rank of ``X[s, f]`` among
               the distinct values of column ``f``, which are
               ``code_values[code_offsets[f]:code_offsets[f + 1]]`` ascending, so
               ``code_values[code_offsets[f] + codes[s, f]] == X[s, f]``; filled only when the
               builder runs the rule's ``integer_weight_kernel`` (else the three are empty)
``code_values, code_offsets``  float32 and intp, see ``codes``

It returns ``(feature, threshold)``; ``feature < 0`` makes the node a leaf.  Samples with
``X[s, feature] <= threshold`` go left; a cut that leaves a child empty makes a leaf.

All compiled functions use ``cache=True``.  Numba's disk cache of a function is invalidated
only by changes to that function's own source file: after editing a shared compiled helper
(``_scan``, ``_sort``, ``_nodes``, ``_rng``, ``_borrow``, ``_kernel_api``), delete the package's
``__pycache__`` folders.
"""

from numba import types

FEATURE_THRESHOLD = 1e-7
"""Two float32 values closer than this are one value (scikit-learn's ``FEATURE_THRESHOLD``)."""

X_TYPE = types.Array(types.float32, 2, "C")
INTP_1D = types.Array(types.intp, 1, "C")
INTP_2D = types.Array(types.intp, 2, "C")
F64_1D = types.Array(types.float64, 1, "C")
F64_2D = types.Array(types.float64, 2, "C")
F32_1D = types.Array(types.float32, 1, "C")
I32_2D = types.Array(types.int32, 2, "C")
U64_1D = types.Array(types.uint64, 1, "C")

SPLIT_KERNEL_SIG = types.Tuple((types.intp, types.float64))(
    X_TYPE,
    INTP_1D,
    F64_1D,
    types.intp,
    INTP_1D,
    types.intp,
    types.intp,
    F64_1D,
    F64_1D,
    F64_1D,
    INTP_1D,
    types.intp,
    types.intp,
    F64_1D,
    U64_1D,
    F32_1D,
    F64_2D,
    INTP_2D,
    I32_2D,
    F32_1D,
    INTP_1D,
)
SplitKernelType = types.FunctionType(SPLIT_KERNEL_SIG)

VIEW_CHOOSER_SIG = types.intp(F64_1D, F64_1D)
"""``chooser(counts, params) -> view``: which label view scores the node's splits, given the
node's weighted counts of the original classes."""
ViewChooserType = types.FunctionType(VIEW_CHOOSER_SIG)
