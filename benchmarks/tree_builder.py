"""Our tree builder against scikit-learn's: one tree and a forest of 100 trees, fit time.

A single tree is ``PluggableTreeClassifier("gini")`` against ``DecisionTreeClassifier(criterion=
"gini")``; a forest is ``PluggableForestClassifier`` against ``RandomForestClassifier`` (100 trees,
``max_features="sqrt"``, bootstrap, one thread each). Both fit the same 75 % of each data set in the
same process, alternating, best of 3 fits (one for the 10^6-row tree); accuracy is on the other
25 %. Cases: pendigits, letter, satimage and magic of the mirror, and synthetic data
(``make_classification``: 10 features, 3 classes) of 10^4, 10^5 (trees and forests) and 10^6 rows
(a tree). numba compiles before any timing. Findings: ``tree_builder.md``.
"""

from __future__ import annotations

from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.tree import DecisionTreeClassifier

from forestrepro.ensembles.forest import PluggableForestClassifier
from forestrepro.trees import PluggableTreeClassifier

from .comparison import Comparison, Row, best_seconds
from .data import load_rows, synthetic

MIRROR_SETS = ("pendigits", "letter", "satimage", "magic")
SYNTHETIC_ROWS = (10**4, 10**5, 10**6)
FOREST_MAX_ROWS = 10**5
REPEATS = 3


class TreeBuilder(Comparison):
    name = "tree_builder"
    ours = "our tree builder (PluggableTreeClassifier, PluggableForestClassifier)"
    anchor = "scikit-learn's DecisionTreeClassifier, RandomForestClassifier"

    def rows(self, quick: bool) -> list[Row]:
        warm_X, warm_y = synthetic(200)
        PluggableForestClassifier(2).fit(warm_X, warm_y).predict(warm_X)  # compile first
        if quick:
            X, y = synthetic(2000)
            return [
                _row("synthetic 2,000, tree", X, y, None, 1),
                _row("synthetic 2,000, forest", X, y, 10, 1),
            ]
        rows = []
        for name in MIRROR_SETS:
            X, _, y = load_rows(name)
            rows += [_row(f"{name}, tree", X, y, None, REPEATS), _row(f"{name}, forest", X, y, 100, REPEATS)]
        for n in SYNTHETIC_ROWS:
            X, y = synthetic(n)
            repeats = REPEATS if n < 10**6 else 1
            rows.append(_row(f"synthetic {n:,}, tree", X, y, None, repeats))
            if n <= FOREST_MAX_ROWS:
                rows.append(_row(f"synthetic {n:,}, forest", X, y, 100, repeats))
        return rows


def _row(case, X, y, n_trees, repeats) -> Row:
    """One tree (``n_trees`` None) or forest of each library on the same 75 %; accuracy on 25 %."""
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    if n_trees is None:
        ours, theirs = (
            PluggableTreeClassifier("gini"),
            DecisionTreeClassifier(criterion="gini", random_state=0),
        )
    else:
        ours = PluggableForestClassifier(n_trees, n_jobs=1, random_state=0)
        theirs = RandomForestClassifier(n_trees, n_jobs=1, random_state=0)
    seconds, _ = best_seconds(
        [lambda: ours.fit(X_train, y_train), lambda: theirs.fit(X_train, y_train)], repeats
    )
    return Row(
        case,
        *seconds,
        f"accuracy {ours.score(X_test, y_test):.3f} / {theirs.score(X_test, y_test):.3f}",
    )
