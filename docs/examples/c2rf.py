"""C2RF: cardinality-constrained random forests (Burgard, Pinheiro and Schmidt 2024) on HiGHS.

Semi-supervised binary classification: a few points are labeled, the forest's trees vote
+-1 on the unlabeled ones (the vote matrix ``R``, trees x points), and the number ``lam`` of
positives among the unlabeled points is known.  ``solve`` finds tree weights ``alpha`` in
``[lower, upper]`` whose weighted vote predicts as close to ``lam`` positives as it can: it
minimises ``eta = |sum(z) - lam|`` (Problem (2), a MILP).  The majority vote (RF) is the
baseline.

The instance is built as in Sec. 5.1 of the paper (duplicates dropped, features scaled, a
biased sample labeled, 20 CART trees each on 20 % of it), from the breast cancer data that
ships with scikit-learn (569 rows; malignant is the positive class), with 10 % of the points
labeled instead of the paper's 1 % so that the trees see a few dozen points.

Run: ``python docs/examples/c2rf.py``; prints the instance, then one line per approach.
"""

from sklearn.datasets import load_breast_cancer

from forestrepro.c2rf.approaches import APPROACHES
from forestrepro.c2rf.experiment import accuracy, mcc
from forestrepro.c2rf.instances import build_instance
from forestrepro.c2rf.solver import majority_vote, solve

X, y = load_breast_cancer(return_X_y=True)
instance = build_instance(X, 1 - y, sampling="biased", seed=0, fraction=0.1)
R, lam = instance.R, instance.lam
print(f"instance: {R.shape[0]} trees, {R.shape[1]} unlabeled points, lambda = {lam}")

z = majority_vote(R)
print(
    f"{'RF (majority vote)':20s} eta {abs(int(z.sum()) - lam):4d}  "
    f"accuracy {accuracy(instance.y_unlabeled, z):.3f}  mcc {mcc(instance.y_unlabeled, z):.3f}"
)

for name in ("C2RF", "only PP", "p-C2RF+"):
    result = solve(R, lam, time_limit=20, **APPROACHES[name])
    print(
        f"{name:20s} eta {result.eta:4.0f}  accuracy {accuracy(instance.y_unlabeled, result.z):.3f}"
        f"  mcc {mcc(instance.y_unlabeled, result.z):.3f}  status {result.status}, "
        f"{result.seconds:.2f} s, solved by {result.solved_by}"
    )
