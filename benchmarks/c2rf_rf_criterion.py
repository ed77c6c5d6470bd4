"""Does the CART split criterion explain the C2RF report's RF deviations?

Sec. 5.1 grows each of the 20 instance trees with DecisionTree.jl, whose ``build_tree`` splits by
Shannon entropy; ``forestrepro.c2rf.instances.tree_votes`` uses scikit-learn's default, Gini. RF is
the trees' majority vote with no optimisation, so its column checks the protocol, not the method.
This script builds every committed instance (13 data sets x 5 biased and 5 simple random samples,
the pipeline's root seed, ``bias: inclusion``) under both criteria, the same samples and the same
row subsets (the random streams do not depend on the criterion), and prints RF's median accuracy
and MCC in percent minus the paper's (Tables 3-4), per instance, with how many cells each criterion
brings within 2 points. It first checks that the Gini instances give the committed records' RF rows.

    PYTHONPATH=src .venv/bin/python benchmarks/c2rf_rf_criterion.py [--tag c2rf_600s]

The criterion is swapped by rebinding ``instances.DecisionTreeClassifier`` for this process only:
the library has no option for it, and adding one would change the file every C2RF record imported.
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier

from forestrepro.c2rf import instances
from forestrepro.c2rf.experiment import accuracy, mcc
from forestrepro.c2rf.solver import majority_vote
from forestrepro.evaluation.seeds import derive_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from c2rf import PAPER_DATASETS, PAPER_NAME, PUBLISHED, ROOT_SEED, load  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CRITERIA = ("gini", "entropy")
TABLES = {"biased": "c2rf_table3_biased.csv", "srs": "c2rf_table4_srs.csv"}


def rf_rows(mirror: str | None) -> pd.DataFrame:
    """RF's accuracy and MCC (percent) per instance, sample and criterion."""
    rows = []
    for name in PAPER_DATASETS:
        X, y = load(name, mirror)
        for sampling in TABLES:
            for sample in range(5):
                seed = derive_seed(ROOT_SEED, "c2rf", name, sampling, sample)
                for criterion in CRITERIA:
                    instances.DecisionTreeClassifier = functools.partial(
                        DecisionTreeClassifier, criterion=criterion
                    )
                    instance = instances.build_instance(X, y, sampling=sampling, seed=seed, bias="inclusion")
                    z = majority_vote(instance.R)
                    rows.append(
                        {
                            "dataset": name,
                            "sampling": sampling,
                            "sample": sample,
                            "criterion": criterion,
                            "accuracy_pct": 100.0 * accuracy(instance.y_unlabeled, z),
                            "mcc_pct": (mcc(instance.y_unlabeled, z) + 1.0) / 2.0 * 100.0,
                        }
                    )
    instances.DecisionTreeClassifier = DecisionTreeClassifier
    return pd.DataFrame(rows)


def check_records(rows: pd.DataFrame, tag: str) -> None:
    """The Gini rows must be the committed records' RF rows, or the comparison is of other instances."""
    records = pd.concat(
        pd.read_csv(path)
        for sampling in TABLES
        for path in sorted((REPO / "results" / "runs" / tag / "c2rf" / sampling / "c2rf_rf").glob("*.csv"))
    ).rename(columns={"repeat": "sample"})
    both = rows[rows["criterion"] == "gini"].merge(
        records[["dataset", "sampling", "sample", "accuracy_pct", "mcc_pct"]],
        on=["dataset", "sampling", "sample"],
        suffixes=("", "_record"),
    )
    same = np.allclose(both["accuracy_pct"], both["accuracy_pct_record"]) and np.allclose(
        both["mcc_pct"], both["mcc_pct_record"]
    )
    print(
        f"Gini instances against the {len(both)} committed RF rows of tag {tag}: {'the same' if same else 'DIFFERENT'}"
    )
    if not same or len(both) != len(rows) // len(CRITERIA):
        sys.exit("the instances are not the committed ones; nothing compared")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tag", default="c2rf_600s", help="whose committed RF records to check against")
    parser.add_argument("--mirror", default=None, help="data mirror directory (default: ../shared/datasets)")
    args = parser.parse_args(argv)
    rows = rf_rows(args.mirror)
    check_records(rows, args.tag)
    medians = rows.groupby(["sampling", "dataset", "criterion"])[["accuracy_pct", "mcc_pct"]].median()
    table1 = pd.read_csv(PUBLISHED / "c2rf_table1_datasets.csv")[["id", "dataset"]]
    for metric in ("accuracy_pct", "mcc_pct"):
        print(f"\nRF {metric}, median of 5 samples, ours minus the paper's (Gini | entropy), and the paper's")
        for sampling, table in TABLES.items():
            paper = pd.read_csv(PUBLISHED / table).merge(table1, on="id")
            paper = paper[(paper["method"] == "RF") & (paper["metric"] == metric)].set_index("dataset")[
                "median"
            ]
            delta = {c: [] for c in CRITERIA}
            for name in PAPER_DATASETS:
                published = paper[PAPER_NAME.get(name, name)]
                cells = [medians.loc[(sampling, name, c), metric] - published for c in CRITERIA]
                for criterion, cell in zip(CRITERIA, cells):
                    delta[criterion].append(cell)
                print(f"  {sampling:6s} {name:12s} {cells[0]:+7.2f} | {cells[1]:+7.2f}   {published:6.2f}")
            gini, entropy = (np.abs(delta[c]) for c in CRITERIA)
            print(
                f"  {sampling}: within 2 points Gini {int((gini <= 2).sum())}/13, entropy {int((entropy <= 2).sum())}/13; "
                f"median |delta| {np.median(gini):.2f} | {np.median(entropy):.2f}; "
                f"entropy closer on {int((entropy < gini).sum())}, farther on {int((entropy > gini).sum())}"
            )


if __name__ == "__main__":
    sys.exit(main())
