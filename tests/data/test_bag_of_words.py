"""The bag-of-words features: the vocabulary is the most frequent terms in one total order."""

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer

from forestrepro.data.bag_of_words import bag_of_words, choose_vocabulary


def brute_force_vocabulary(documents, k, binary=False):
    """The k terms first by (count descending, term ascending), counted by hand."""
    counts = {}
    for document in documents:
        words = CountVectorizer().build_analyzer()(document)
        for word in set(words) if binary else words:
            counts[word] = counts.get(word, 0) + 1
    return sorted(sorted(counts, key=lambda term: (-counts[term], term))[:k])


TIED = ["apple pear", "pear fig", "kiwi plum", "date pear apple"]  # pear 3, apple 2, the rest 1


def test_ties_at_the_cut_keep_the_alphabetically_first_terms():
    train, test = bag_of_words(TIED, ["fig date date zebra"], max_features=3)
    # pear (3) and apple (2) are certain; date, fig, kiwi, plum tie at 1 and date comes first.
    assert train.tolist() == [[1, 0, 1], [0, 0, 1], [0, 0, 0], [1, 1, 1]]  # apple, date, pear
    assert test.tolist() == [[0, 2, 0]]
    assert train.dtype == test.dtype == np.float32


@pytest.mark.parametrize("binary", [False, True])
@pytest.mark.parametrize("k", [1, 2, 5, 9, 40])
def test_vocabulary_is_the_brute_force_one(k, binary):
    rng = np.random.default_rng(k)
    words = [f"w{i:02d}" for i in range(30)]
    documents = [" ".join(rng.choice(words, size=rng.integers(1, 8))) for _ in range(25)]
    train, _ = bag_of_words(documents, documents[:2], k, binary=binary)
    expected = brute_force_vocabulary(documents, k, binary)
    reference = CountVectorizer(vocabulary=expected, binary=binary).transform(documents).toarray()
    np.testing.assert_array_equal(train, reference)


def test_without_ties_it_is_scikit_learns_vocabulary():
    documents = ["aa aa aa aa bb bb bb cc cc dd", "aa bb ee", "aa"]  # aa 6, bb 4, cc 2, dd 1, ee 1
    ours, ours_test = bag_of_words(documents, ["cc bb xx"], max_features=3)
    theirs = CountVectorizer(max_features=3).fit(documents)
    assert theirs.get_feature_names_out().tolist() == ["aa", "bb", "cc"]
    np.testing.assert_array_equal(ours, theirs.transform(documents).toarray())
    np.testing.assert_array_equal(ours_test, theirs.transform(["cc bb xx"]).toarray())


def test_choose_vocabulary_breaks_ties_by_index_whatever_the_count_order():
    counts = np.array([1, 5, 1, 1, 5, 2])
    assert choose_vocabulary(counts, 3).tolist() == [1, 4, 5]
    assert choose_vocabulary(counts, 4).tolist() == [0, 1, 4, 5]
    assert choose_vocabulary(counts, 10).tolist() == [0, 1, 2, 3, 4, 5]
