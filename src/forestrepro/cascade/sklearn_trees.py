"""scikit-learn's classification tree, node for node, grown by a compiled builder.

``grow_sklearn_tree`` returns the very ``sklearn.tree._tree.Tree`` that scikit-learn 1.9.1's
``DepthFirstTreeBuilder`` grows with ``BestSplitter`` (``splitter="best"``, random forests) or
``RandomSplitter`` (``splitter="random"``, extremely randomized trees) and the Gini criterion,
for the settings of a cascade level's trees: dense float32 ``X`` without missing values, one
output, ``min_samples_split=2``, ``min_samples_leaf=1``, ``min_weight_fraction_leaf=0``,
``max_depth=None``, ``min_impurity_decrease=0``, and sample weights that are whole numbers
(bootstrap multiplicities) or none.  Every node (children, feature, threshold, impurity,
sample counts, ``missing_go_to_left``), every value and ``max_depth`` are scikit-learn's.

It follows ``sklearn/tree/_splitter.pyx``, ``_partitioner.pyx``, ``_criterion.pyx`` and
``_tree.pyx`` step by step: the splitter's random state and its draws
(:mod:`._sklearn_rand`); the Fisher-Yates draw of features over the persistent ``features``
array with the known, found and drawn constant features and the count of constant features
handed to the children; ``FEATURE_THRESHOLD`` (float32) between neighbouring values; the
threshold ``Xf[p - 1] / 2.0 + Xf[p] / 2.0``; the strict ``>`` on the proxy improvement
(features in draw order, positions ascending); Gini's impurity, the improvement and the node
values in scikit-learn's float64 operation order; the ``EPSILON`` leaf test; the stack order
and node numbering of the depth-first builder.

One step differs: how a node's values of a feature are put in order. scikit-learn sorts the
values with their samples (introsort). Here the columns are coded once (``column_codes``: each
value's rank among its column's distinct values, and those values), and a node counts its
samples' class weights per code in one pass where the column has at most ``COUNTING_RATIO`` (8)
times as many distinct values as the node has samples, else sorts its codes
(``trees._sort.sort_together``). This cannot change a number. Everything the best split reads is a function of the sorted sequence of
values, which is unique (the cuts: neighbouring values more than ``FEATURE_THRESHOLD`` apart;
their thresholds; the constant-feature test), and of class sums over the samples left of a cut,
which are sums of whole numbers in float64, exact in any order. Which sample among equal values
comes first differs, but samples are sent to the children by ``X <= threshold``, as
scikit-learn sends them (``partition_samples_final``), and the threshold, the float64 midpoint
of two different float32 values, lies strictly between them, so each child holds the same
samples. The random splitter reads only the node's least and greatest values and the class sums
left of its threshold. With weights that are not whole numbers the sums would depend on the
order: ``grow_sklearn_tree`` refuses them.
"""

from collections import namedtuple

import numpy as np
from numba import njit
from sklearn.tree._tree import NODE_DTYPE, Tree

from ..trees._sort import sort_together
from ._sklearn_rand import rand_int, rand_uniform, splitter_state
from .column_codes import ColumnCodes, column_codes

FEATURE_THRESHOLD = np.float32(1e-7)
EPSILON = np.finfo(np.float64).eps
TREE_LEAF = -1
TREE_UNDEFINED = -2
SPLITTERS = {"best": 0, "random": 1}
# a node counts a feature's codes where its column has at most this many times as many distinct
# values as the node has samples, else sorts them (2, 8 and 32 timed: benchmarks/sklearn_trees.md)
COUNTING_RATIO = 8

# a tree's scratch arrays: class sums per distinct value and their sample counts (counting a
# feature's values), sort keys (sorting them), the left and right class sums of a cut, the best
# cut (proxy, position, threshold)
_Work = namedtuple("_Work", ["histogram", "counts", "keys", "sums", "best"])


@njit(cache=True, nogil=True, inline="always")
def _gini(counts, weight):
    """Gini's ``node_impurity`` (one output): ``1 - sum(count^2) / weight^2``."""
    sq_count = 0.0
    for c in range(counts.shape[0]):
        sq_count += counts[c] * counts[c]
    return 1.0 - sq_count / (weight * weight)


@njit(cache=True, nogil=True, inline="always")
def _children_gini(sum_left, sum_total, weight_left, weight_node, sum_right):
    """Gini's ``children_impurity``: the left and right impurities of a cut."""
    for c in range(sum_total.shape[0]):
        sum_right[c] = sum_total[c] - sum_left[c]
    return _gini(sum_left, weight_left), _gini(sum_right, weight_node - weight_left)


@njit(cache=True, nogil=True)
def _left_sums(samples, start, pos, y, w, sum_left):
    """Class sums and total weight of ``samples[start:pos]`` into ``sum_left``; the weight."""
    sum_left[:] = 0.0
    weight = 0.0
    for p in range(start, pos):
        i = samples[p]
        sum_left[y[i]] += w[i]
        weight += w[i]
    return weight


@njit(cache=True, nogil=True, inline="always")
def _last_code_at_most(values, threshold):
    """The greatest code whose value is ``<= threshold`` (float32 against float64, as in C)."""
    low = 0
    high = values.shape[0]
    while low < high:
        middle = (low + high) // 2
        if values[middle] <= threshold:
            low = middle + 1
        else:
            high = middle
    return low - 1


@njit(cache=True, nogil=True)
def _partition(codes, values, samples, start, end, feature, threshold):
    """``partition_samples_final``: ``X <= threshold`` first; the first position on the right.

    The column's values ascend with their codes, so ``X <= threshold`` is ``code <= bound``.
    """
    bound = _last_code_at_most(values, threshold)
    left = start
    right = end
    while left < right:
        if codes[samples[left], feature] <= bound:
            left += 1
        else:
            right -= 1
            samples[left], samples[right] = samples[right], samples[left]
    return right


@njit(cache=True, nogil=True, inline="always")
def _consider(best, sum_left, weight_left, sum_total, weight_node, sum_right, position, low, high):
    """Score the cut between the neighbouring values ``low`` and ``high`` (float32) with
    ``sum_left`` on its left; keep it in ``best`` (proxy, position, threshold) if strictly better."""
    impurity_left, impurity_right = _children_gini(sum_left, sum_total, weight_left, weight_node, sum_right)
    proxy = -(weight_node - weight_left) * impurity_right - weight_left * impurity_left
    if proxy > best[0]:
        best[0] = proxy
        best[1] = position
        best[2] = low / 2.0 + high / 2.0


@njit(cache=True, nogil=True, inline="always")
def _counted_cut(codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best):
    """``_best_cut`` by counting: class sums per distinct value, scanned in the values' order."""
    histogram = work.histogram
    counts = work.counts
    lowest = values.shape[0]
    highest = -1
    for p in range(start, end):
        i = samples[p]
        code = np.intp(codes[i, feature])
        histogram[code, y[i]] += w[i]
        counts[code] += 1
        lowest = min(lowest, code)
        highest = max(highest, code)
    constant = values[highest] <= values[lowest] + FEATURE_THRESHOLD
    sum_left = work.sums[0]
    sum_left[:] = 0.0
    weight_left = 0.0
    position = start
    previous = lowest
    for code in range(lowest, highest + 1):
        if counts[code] == 0:
            continue
        if not constant and code != lowest and values[code] > values[previous] + FEATURE_THRESHOLD:
            _consider(
                best, sum_left, weight_left, sum_total, weight_node, work.sums[1], position,
                values[previous], values[code],
            )  # fmt: skip
        for c in range(sum_left.shape[0]):
            sum_left[c] += histogram[code, c]
            weight_left += histogram[code, c]
            histogram[code, c] = 0.0
        position += counts[code]
        counts[code] = 0
        previous = code
    return constant


@njit(cache=True, nogil=True, inline="always")
def _sorted_cut(codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best):
    """``_best_cut`` by sorting the node's codes (few samples, many distinct values)."""
    keys = work.keys
    for p in range(start, end):
        keys[p] = np.float32(codes[samples[p], feature])
    sort_together(keys, samples, start, end)
    if values[np.intp(keys[end - 1])] <= values[np.intp(keys[start])] + FEATURE_THRESHOLD:
        return True
    sum_left = work.sums[0]
    sum_left[:] = 0.0
    weight_left = 0.0
    for p in range(start, end - 1):
        i = samples[p]
        sum_left[y[i]] += w[i]
        weight_left += w[i]
        low = values[np.intp(keys[p])]
        high = values[np.intp(keys[p + 1])]
        if high <= low + FEATURE_THRESHOLD:
            continue
        _consider(best, sum_left, weight_left, sum_total, weight_node, work.sums[1], p + 1, low, high)
    return False


@njit(cache=True, nogil=True, inline="always")
def _best_cut(codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best):
    """The best cut of ``feature`` at the node (``node_split_best``'s loop over positions).

    What scikit-learn reads of the sorted values: neighbouring distinct values more than
    ``FEATURE_THRESHOLD`` apart are the cuts, each scored on the class sums left of it, in
    ascending order. Counting gives them in one pass where the column has few distinct values
    for the node's samples; otherwise the codes are sorted. Updates ``best`` (proxy, position,
    threshold) on a strictly better cut; returns True if the feature is constant at the node.
    """
    if values.shape[0] <= COUNTING_RATIO * (end - start):
        return _counted_cut(
            codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best
        )
    return _sorted_cut(codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best)


@njit(cache=True, nogil=True, inline="always")
def _random_cut(codes, values, y, w, samples, start, end, feature, sum_total, weight_node, work, best, state):
    """Draw a threshold of ``feature`` and score it (``node_split_random``'s inner loop).

    Updates ``best`` (proxy, position, threshold) on a strictly better cut; returns True if
    the feature is constant at the node.
    """
    lowest = codes[samples[start], feature]
    highest = lowest
    for p in range(start, end):
        code = codes[samples[p], feature]
        if code < lowest:
            lowest = code
        elif code > highest:
            highest = code
    low = values[lowest]
    high = values[highest]
    if high <= low + FEATURE_THRESHOLD:
        return True
    threshold = rand_uniform(np.float64(low), np.float64(high), state)
    if threshold == high:
        threshold = np.float64(low)
    position = _partition(codes, values, samples, start, end, feature, threshold)
    if position - start < 1 or end - position < 1:
        return False
    sum_left = work.sums[0]
    weight_left = _left_sums(samples, start, position, y, w, sum_left)
    impurity_left, impurity_right = _children_gini(
        sum_left, sum_total, weight_left, weight_node, work.sums[1]
    )
    proxy = -(weight_node - weight_left) * impurity_right - weight_left * impurity_left
    if proxy > best[0]:
        best[0] = proxy
        best[1] = position
        best[2] = threshold
    return False


@njit(cache=True, nogil=True)
def _split(
    codes,
    values,
    offsets,
    y,
    w,
    samples,
    features,
    constant_features,
    start,
    end,
    n_known_constants,
    max_features,
    splitter,
    sum_total,
    weight_node,
    work,
    state,
):
    """``node_split_best`` or ``node_split_random`` (``splitter`` 0 or 1) on ``samples[start:end]``.

    Returns (position, feature, threshold, number of constant features for the children); the
    position is ``end`` when no cut was found. The samples are partitioned at the position.
    """
    n_features = features.shape[0]
    f_i = n_features
    n_visited = 0
    n_found_constants = 0
    n_drawn_constants = 0
    n_total_constants = n_known_constants
    best = work.best
    best[0] = -np.inf
    best[1] = end
    best[2] = 0.0
    best_feature = 0
    partitioned = -1  # the feature whose cut last partitioned the samples (random splitter)
    while f_i > n_total_constants and (
        n_visited < max_features or n_visited <= n_found_constants + n_drawn_constants
    ):
        n_visited += 1
        f_j = rand_int(n_drawn_constants, f_i - n_found_constants, state)
        if f_j < n_known_constants:
            features[n_drawn_constants], features[f_j] = features[f_j], features[n_drawn_constants]
            n_drawn_constants += 1
            continue
        f_j += n_found_constants
        feature = features[f_j]
        column = values[offsets[feature] : offsets[feature + 1]]
        proxy_before = best[0]
        if splitter == 0:
            constant = _best_cut(
                codes, column, y, w, samples, start, end, feature, sum_total, weight_node, work, best
            )
        else:
            constant = _random_cut(
                codes, column, y, w, samples, start, end, feature, sum_total, weight_node, work, best, state
            )
            if not constant:
                partitioned = feature
        if constant:
            features[f_j], features[n_total_constants] = features[n_total_constants], features[f_j]
            n_found_constants += 1
            n_total_constants += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        if best[0] > proxy_before:
            best_feature = feature
    position = np.intp(best[1])
    if position < end and partitioned != best_feature:  # else partitioned by the best cut already
        column = values[offsets[best_feature] : offsets[best_feature + 1]]
        _partition(codes, column, samples, start, end, best_feature, best[2])
    features[:n_known_constants] = constant_features[:n_known_constants]
    constant_features[n_known_constants:n_total_constants] = features[n_known_constants:n_total_constants]
    return position, best_feature, best[2], n_total_constants


@njit(cache=True, nogil=True, inline="always")
def _push(stack, stack_impurity, top, start, end, depth, parent, is_left, n_constants, impurity):
    """Push a node's record on the builder's stack; the new top."""
    stack[top, 0] = start
    stack[top, 1] = end
    stack[top, 2] = depth
    stack[top, 3] = parent
    stack[top, 4] = is_left
    stack[top, 5] = n_constants
    stack_impurity[top] = impurity
    return top + 1


@njit(cache=True, nogil=True)
def _grow(codes, values, offsets, y, w, n_classes, max_features, splitter, state):
    """``DepthFirstTreeBuilder.build``: the node arrays, the values and the depth of the tree."""
    n_rows, n_features = codes.shape
    samples = np.empty(n_rows, dtype=np.intp)
    n_samples = 0
    weight_all = 0.0
    for i in range(n_rows):
        if w[i] != 0.0:
            samples[n_samples] = i
            n_samples += 1
        weight_all += w[i]
    features = np.arange(n_features)
    constant_features = np.empty(n_features, dtype=np.intp)
    sum_total = np.zeros(n_classes)
    most = np.max(offsets[1:] - offsets[:-1]) if n_features else 0
    work = _Work(
        np.zeros((most, n_classes)),
        np.zeros(most, dtype=np.intp),
        np.empty(n_rows, dtype=np.float32),
        np.zeros((2, n_classes)),
        np.empty(3),
    )

    capacity = max(2 * n_samples - 1, 1)
    left = np.empty(capacity, dtype=np.intp)
    right = np.empty(capacity, dtype=np.intp)
    feature_of = np.empty(capacity, dtype=np.intp)
    threshold_of = np.empty(capacity)
    impurity_of = np.empty(capacity)
    n_node_samples = np.empty(capacity, dtype=np.intp)
    weighted_n_node_samples = np.empty(capacity)
    missing_go_to_left = np.empty(capacity, dtype=np.uint8)
    node_values = np.empty((capacity, n_classes))

    # the stack: start, end, depth, parent, is_left, n_constant_features; and the impurity
    stack = np.empty((n_samples + 1, 6), dtype=np.intp)
    stack_impurity = np.empty(n_samples + 1)
    top = _push(stack, stack_impurity, 0, 0, n_samples, 0, TREE_UNDEFINED, 0, 0, np.inf)
    node_count = 0
    max_depth_seen = -1
    while top > 0:
        top -= 1
        start, end, depth, parent, is_left, n_constants = (
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4], stack[top, 5]
        )  # fmt: skip
        impurity = stack_impurity[top]
        weight_node = _left_sums(samples, start, end, y, w, sum_total)
        if node_count == 0:
            impurity = _gini(sum_total, weight_node)
        is_leaf = end - start < 2 or impurity <= EPSILON
        if not is_leaf:
            position, feature, threshold, n_constants = _split(
                codes,
                values,
                offsets,
                y,
                w,
                samples,
                features,
                constant_features,
                start,
                end,
                n_constants,
                max_features,
                splitter,
                sum_total,
                weight_node,
                work,
                state,
            )
            is_leaf = position >= end
            if not is_leaf:
                weight_left = _left_sums(samples, start, position, y, w, work.sums[0])
                impurity_left, impurity_right = _children_gini(
                    work.sums[0], sum_total, weight_left, weight_node, work.sums[1]
                )
                weight_right = weight_node - weight_left
                improvement = (weight_node / weight_all) * (
                    impurity
                    - (weight_right / weight_node * impurity_right)
                    - (weight_left / weight_node * impurity_left)
                )
                is_leaf = improvement + EPSILON < 0.0
        node = node_count
        node_count += 1
        if parent != TREE_UNDEFINED:
            if is_left:
                left[parent] = node
            else:
                right[parent] = node
        impurity_of[node] = impurity
        n_node_samples[node] = end - start
        weighted_n_node_samples[node] = weight_node
        for c in range(n_classes):
            node_values[node, c] = sum_total[c] / weight_node
        if is_leaf:
            left[node] = TREE_LEAF
            right[node] = TREE_LEAF
            feature_of[node] = TREE_UNDEFINED
            threshold_of[node] = TREE_UNDEFINED
            missing_go_to_left[node] = 0
        else:
            feature_of[node] = feature
            threshold_of[node] = threshold
            missing_go_to_left[node] = position - start > end - position
            top = _push(
                stack, stack_impurity, top, position, end, depth + 1, node, 0, n_constants, impurity_right
            )
            top = _push(
                stack, stack_impurity, top, start, position, depth + 1, node, 1, n_constants, impurity_left
            )
        if depth > max_depth_seen:
            max_depth_seen = depth
    return (
        left[:node_count],
        right[:node_count],
        feature_of[:node_count],
        threshold_of[:node_count],
        impurity_of[:node_count],
        n_node_samples[:node_count],
        weighted_n_node_samples[:node_count],
        missing_go_to_left[:node_count],
        node_values[:node_count],
        max_depth_seen,
    )


def _checked_weights(sample_weight, n_rows):
    """Sample weights as float64, ones if None; whole non-negative numbers only."""
    if sample_weight is None:
        return np.ones(n_rows)
    w = np.ascontiguousarray(sample_weight, dtype=np.float64)
    if w.shape != (n_rows,) or not np.all((w >= 0) & (w == np.floor(w))):
        raise ValueError("sample_weight must hold one whole non-negative number per row")
    return w


def grow_sklearn_tree(
    X, y, n_classes, *, max_features, splitter="best", sample_weight=None, random_state=None, check_input=True
):
    """Grow scikit-learn's tree (see the module docstring) on ``X`` and class codes ``y``.

    ``X`` is a 2-d float32 array of finite values or its ``column_codes`` (made once, it serves
    every tree grown on the same rows). ``y`` holds codes ``0..n_classes - 1`` (scikit-learn's
    ``np.unique`` inverse of the labels), ``max_features`` is the number of features drawn per
    node (scikit-learn's ``max_features_``), ``splitter`` is ``"best"`` or ``"random"`` and
    ``random_state`` is what the tree's ``random_state`` would be (an int, None or a
    ``RandomState``, from which the splitter draws its state once). Returns a
    ``sklearn.tree._tree.Tree``: ``predict``, ``apply`` and a classifier's ``tree_`` work
    unchanged.

    ``check_input=False`` skips the check that reads all of ``y`` (class codes in range), as
    scikit-learn's forests fit their trees: the caller vouches for it.
    """
    coded = X if isinstance(X, ColumnCodes) else column_codes(X)
    n_rows, n_features = coded.shape
    y = np.ascontiguousarray(y, dtype=np.intp)
    if y.shape != (n_rows,) or (check_input and (y.min() < 0 or y.max() >= n_classes)):
        raise ValueError(f"y must hold one class code in [0, {n_classes}) per row")
    if not 1 <= max_features <= n_features:
        raise ValueError(f"max_features must lie in [1, {n_features}], got {max_features}")
    w = _checked_weights(sample_weight, n_rows)
    state = splitter_state(random_state)
    *fields, values, max_depth = _grow(*coded, y, w, n_classes, max_features, SPLITTERS[splitter], state)
    nodes = np.zeros(len(values), dtype=NODE_DTYPE)
    for name, field in zip(NODE_DTYPE.names, fields, strict=True):
        nodes[name] = field
    tree = Tree(n_features, np.array([n_classes], dtype=np.intp), 1)
    tree.__setstate__(
        {
            "max_depth": max_depth,
            "node_count": len(values),
            "nodes": nodes,
            "values": np.ascontiguousarray(values.reshape(len(values), 1, n_classes)),
        }
    )
    return tree
