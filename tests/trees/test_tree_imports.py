"""A job's record depends on the library files it imported (``record/provenance.py``): the
cascade, which sorts with ``trees._sort``, imports none of the tree builder's modules, so a change
of the builder leaves the cascade's records current."""

import subprocess
import sys

SCRIPT = """
import sys
import forestrepro.cascade.deep_forest, forestrepro.cascade.forest, forestrepro.cascade.sklearn_trees
print(sorted(m for m in sys.modules if m.startswith(("forestrepro.trees", "forestrepro.ensembles"))))
from forestrepro.trees import PluggableTreeClassifier, StoppingRules, Tree, build_tree
print(PluggableTreeClassifier.__module__, StoppingRules.__module__, Tree.__module__, build_tree.__module__)
"""


def test_the_cascade_imports_only_the_sort_of_the_tree_package():
    lines = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True)
    cascade, names = lines.stdout.splitlines()
    assert cascade == "['forestrepro.trees', 'forestrepro.trees._sort']"
    assert names == (
        "forestrepro.trees.estimator forestrepro.trees.builder forestrepro.trees.tree "
        "forestrepro.trees.builder"
    )
