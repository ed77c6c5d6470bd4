"""Forests: BRF (Banzhaf), RCRF and the credal forest next to scikit-learn's random forest.

Every forest here is a scikit-learn classifier (``fit``, ``predict``, ``predict_proba``,
``get_params``), so it goes into a split, a ``Pipeline`` or ``GridSearchCV`` as any other.
The data set is the wine data that ships with scikit-learn (178 rows, 13 features, 3
classes); the first run compiles the trees' numba kernels, which takes some seconds.

Run: ``python docs/examples/forests.py``; prints one accuracy line per forest.
"""

from sklearn.datasets import load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from forestrepro.ensembles.brf import BanzhafForestClassifier
from forestrepro.ensembles.credal import CredalForestClassifier
from forestrepro.ensembles.rcrf import RCRFClassifier

X, y = load_wine(return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)

forests = {
    # scikit-learn's forest, for reference
    "RandomForestClassifier": RandomForestClassifier(n_estimators=50, random_state=0),
    # BRF (Sun et al. 2018): midpoint cuts on the feature of largest Banzhaf power index
    "BanzhafForestClassifier": BanzhafForestClassifier(n_estimators=50, random_state=0),
    # PBRF: the root cut on the Banzhaf feature too
    "BanzhafForestClassifier(pbrf)": BanzhafForestClassifier(n_estimators=50, variant="pbrf", random_state=0),
    # RCRF (Guan, Pang and Liang 2019): one random priority class per tree
    "RCRFClassifier": RCRFClassifier(n_estimators=50, random_state=0),
    # CRF (Abellan, Mantas and Castellano 2017): credal trees split by imprecise info gain
    "CredalForestClassifier": CredalForestClassifier(n_estimators=50, random_state=0),
}

for name, forest in forests.items():
    forest.fit(X_train, y_train)
    accuracy = forest.score(X_test, y_test)
    print(f"{name:30s} test accuracy {accuracy:.3f}")
