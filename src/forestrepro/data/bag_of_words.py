"""Bag-of-words counts over a vocabulary that every machine chooses alike.

The WDF paper feeds IMDB's reviews to the cascade as word counts; we keep the ``max_features``
most frequent terms of the training part (``text.max_features`` in ``conf/paper/wdf.yaml``).
scikit-learn's ``CountVectorizer(max_features=k)`` picks them with ``(-counts).argsort()[:k]``,
an unstable sort that numpy dispatches by CPU (AVX2, AVX-512), so where terms tie at the cut,
which of them are kept can differ from one machine to another. On imdb's 1,000 reviews 470 terms
share the count at the cut and 297 of them are kept; numpy's default and stable sorts keep sets
112 terms apart on one machine. Here the vocabulary is the first ``k`` terms in one total order,
count descending, then term ascending (the order a stable sort gives over the alphabetical
columns), so the features are the same bytes everywhere. Where no terms tie at the cut it is
scikit-learn's vocabulary.
"""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer


def choose_vocabulary(counts: np.ndarray, max_features: int) -> np.ndarray:
    """The column indices, ascending, of the ``max_features`` terms with the largest
    ``counts`` (one per term, columns in term order), ties broken by the lower index."""
    order = np.lexsort((np.arange(counts.size), -np.asarray(counts)))
    return np.sort(order[:max_features])


def bag_of_words(train, test, max_features: int, binary: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(train, test)`` as float32 term counts (presence with ``binary``) over the
    ``max_features`` most frequent terms of ``train`` (``choose_vocabulary``; counted as
    presence with ``binary``, as scikit-learn counts them), fitted on ``train`` only."""
    full = CountVectorizer(binary=binary)
    counts = full.fit_transform(train)
    keep = choose_vocabulary(np.asarray(counts.sum(axis=0)).ravel(), max_features)
    vectorizer = CountVectorizer(vocabulary=full.get_feature_names_out()[keep], binary=binary)
    return (
        counts[:, keep].toarray().astype(np.float32),
        vectorizer.transform(test).toarray().astype(np.float32),
    )
