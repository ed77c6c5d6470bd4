"""Nominal features recoded in a declared order (dataset option nominal_order), checked by hand,
and the coding of the file the RCRF config's car orders are written against."""

import numpy as np
import pandas as pd
import pytest

from forestrepro.data import DatasetError
from forestrepro.data.nominal import declared_codes


def test_string_coded_features_take_their_position_in_the_declared_list():
    # sorted strings at fetch: high=0, low=1, med=2; a number column beside it stays
    categories = {"price": ["high", "low", "med"]}
    X = np.array([[0.0, 5.0], [1.0, 6.0], [2.0, 7.0], [np.nan, 8.0]])
    out = declared_codes(X, ["price", "n"], categories, {"price": ["low", "med", "high"]}, "toy")
    np.testing.assert_array_equal(out[:3, 0], [2.0, 0.0, 1.0])
    assert np.isnan(out[3, 0]) and out[:, 1].tolist() == [5.0, 6.0, 7.0, 8.0]
    assert X[0, 0] == 0.0  # the input is not changed


def test_a_file_coded_feature_is_listed_by_its_codes():
    X = np.array([[3.0], [0.0], [1.0], [2.0]])
    out = declared_codes(X, ["buying"], {}, {"buying": [1, 2, 0, 3]}, "toy")
    assert out[:, 0].tolist() == [3.0, 2.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ({"colour": ["a", "b"]}, "does not have"),
        ({"price": ["low", "high"]}, "'med'"),  # a value left out
        ({"price": ["low", "low", "med", "high"]}, "twice"),
    ],
)
def test_a_bad_order_is_named(order, message):
    X = np.array([[0.0], [1.0], [2.0]])
    with pytest.raises(DatasetError, match=message) as error:
        declared_codes(X, ["price"], {"price": ["high", "low", "med"]}, order, "toy")
    assert "toy" in str(error.value) and "nominal_order" in str(error.value)


def test_pmlb_car_is_coded_by_sorted_label(mirror_dir):
    """conf/paper/rcrf.yaml writes car's declared orders as PMLB's codes, read as sorted labels
    (buying high=0, low=1, med=2, vhigh=3; safety high=0, low=1, med=2; persons 2=0, 4=1, more=2;
    class acc=0, good=1, unacc=2, vgood=3). UCI's car rules check it: low safety or two persons
    make a car unacceptable; a very high buying price never makes it good or very good."""
    car = pd.read_csv(mirror_dir / "pmlb" / "car.tsv.gz", sep="\t")
    assert car["target"].value_counts().to_dict() == {2: 1210, 0: 384, 1: 69, 3: 65}
    assert (car.loc[car["safety"] == 1, "target"] == 2).all()
    assert (car.loc[car["persons"] == 0, "target"] == 2).all()
    assert set(car.loc[car["buying"] == 3, "target"]) == {0, 2}
    assert set(car.loc[car["buying"] == 0, "target"]) == {0, 2}  # high: no good either
    assert set(car.loc[car["lug_boot"] == 2, "target"]) == {0, 1, 2}  # small: never very good
