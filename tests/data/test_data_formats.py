"""Each parser on a tiny hand-made file, through the same loader the registry uses."""

from __future__ import annotations

import gzip
import struct

import h5py
import numpy as np
import pandas as pd
import pytest
import scipy.io
import scipy.sparse

from forestrepro.data import DatasetError, load_dataset


def load(spec, directory):
    return load_dataset(spec, sources=("mirror",), mirror_dir=directory)


def test_arff_nominal_numeric_and_missing(tmp_path, make_spec):
    (tmp_path / "tiny.arff").write_text(
        "@relation tiny\n"
        "@attribute colour {red, green, blue}\n"
        "@attribute size numeric\n"
        "@attribute legs {0,2,4}\n"
        "@attribute class {yes, no}\n"
        "@data\n"
        "red,1.5,2,yes\nblue,?,4,no\ngreen,3.0,0,yes\n?,2.0,2,no\n"
    )
    spec = make_spec(
        tmp_path, {"format": "arff", "files": ["tiny.arff"], "target_column": "class"}, (4, 3, 2)
    )
    # no method takes a missing value: an error unless the data set drops incomplete rows
    with pytest.raises(
        DatasetError,
        match=r"tiny \(mirror file\(s\) tiny.arff\): 2 missing value\(s\) in 2 "
        r"column\(s\); the first in column 'size', data row 2\. .*drop_incomplete",
    ):
        load(spec, tmp_path)

    spec = make_spec(
        tmp_path, spec["mirror"] | {"files": ["tiny.arff"]}, (2, 3, 1), drop_incomplete_rows=True
    )
    loaded = load(spec, tmp_path)
    # sorted categories: blue=0, green=1, red=2; numeric categories keep their values
    np.testing.assert_array_equal(loaded.frame["colour"].to_numpy(), [2.0, 1.0])
    np.testing.assert_array_equal(loaded.frame["size"].to_numpy(), [1.5, 3.0])
    np.testing.assert_array_equal(loaded.frame["legs"].to_numpy(), [2.0, 0.0])
    assert loaded.frame["target"].tolist() == ["yes", "yes"]
    assert loaded.provenance["categories"] == {"colour": ["blue", "green", "red"]}
    assert loaded.provenance["dropped_incomplete_rows"] == 2


def test_uci_data_with_question_marks(tmp_path, make_spec):
    (tmp_path / "tiny.data").write_text("1,?,a,x\n2, 3.5,b,y\n?,4,a,x\n5,6,a,x\n")
    mirror = {
        "format": "uci_data",
        "files": ["tiny.data"],
        "separator": ",",
        "header": False,
        "target_column": -1,
    }
    # '?' not declared as a missing-value marker: a column of numbers with a stray token
    with pytest.raises(
        DatasetError,
        match=r"tiny .*column 'x0', data row 3: '\?' is not a number, in a column of "
        r"numbers \(1 such cell\(s\)\); .*mirror.missing_values",
    ):
        load(make_spec(tmp_path, mirror, (4, 3, 2)), tmp_path)
    mirror["missing_values"] = ["?"]
    with pytest.raises(DatasetError, match="2 missing value.*column 'x1', data row 1"):
        load(make_spec(tmp_path, mirror, (4, 3, 2)), tmp_path)
    frame = load(make_spec(tmp_path, mirror, (2, 3, 2), drop_incomplete_rows=True), tmp_path).frame
    assert list(frame.columns) == ["x0", "x1", "x2", "target"]
    np.testing.assert_array_equal(frame["x0"].to_numpy(), [2.0, 5.0])
    np.testing.assert_array_equal(frame["x1"].to_numpy(), [3.5, 6.0])
    np.testing.assert_array_equal(frame["x2"].to_numpy(), [1.0, 0.0])  # a = 0, b = 1
    assert frame["target"].tolist() == ["y", "x"]


@pytest.mark.parametrize(
    ("cell", "match"),
    [
        ("nan", r"column 'b', data row 2: 'nan' is not a number, in a column of numbers \(1 such cell"),
        ("NA", r"column 'b', data row 2: 'NA' is not a number"),
        ("", r"1 missing value\(s\) in 1 column\(s\); the first in column 'b', data row 2\."),
        ("inf", r"1 infinite value\(s\); the first in column 'b', data row 2"),
        ("-Infinity", r"1 infinite value\(s\); the first in column 'b', data row 2"),
    ],
)
def test_a_numeric_column_is_read_strictly(tmp_path, make_spec, cell, match):
    """A token that is not a number in a column of numbers, a missing or an infinite value is an
    error naming the data set, file, column and data row, not a categorical column or a NaN that
    fails inside training."""
    (tmp_path / "t.csv").write_text(f"a,b,target\n1,0.5,x\n2,{cell},y\n3,1.5,x\n")
    mirror = {
        "format": "csv",
        "files": ["t.csv"],
        "separator": ",",
        "header": True,
        "target_column": "target",
    }
    with pytest.raises(DatasetError, match=r"^tiny \(mirror file\(s\) t.csv\): " + match):
        load(make_spec(tmp_path, mirror, (3, 2, 2)), tmp_path)


def test_a_column_of_words_and_numbers_stays_categorical(tmp_path, make_spec):
    """car's doors ('2', '3', '4', '5more'): a word that is not a missing-value token makes the
    column categorical, coded by sorted string value, as before."""
    (tmp_path / "t.csv").write_text("doors,target\n2,x\n5more,y\n4,x\n3,y\n")
    mirror = {
        "format": "csv",
        "files": ["t.csv"],
        "separator": ",",
        "header": True,
        "target_column": "target",
    }
    loaded = load(make_spec(tmp_path, mirror, (4, 1, 2)), tmp_path)
    assert loaded.provenance["categories"] == {"doors": ["2", "3", "4", "5more"]}
    assert loaded.frame["doors"].tolist() == [0.0, 3.0, 2.0, 1.0]


def test_uci_data_whitespace_with_names_and_dropped_column(tmp_path, make_spec):
    (tmp_path / "tiny.data").write_text("  id1  0.5  7 A\n id2 0.25 8  B\n")
    mirror = {
        "format": "uci_data",
        "files": ["tiny.data"],
        "separator": "whitespace",
        "header": False,
        "column_names": ["name", "u", "v", "kind"],
        "target_column": "kind",
        "drop_columns": ["name"],
    }
    frame = load(make_spec(tmp_path, mirror, (2, 2, 2)), tmp_path).frame
    assert list(frame.columns) == ["u", "v", "target"]
    assert frame["u"].tolist() == [0.5, 0.25] and frame["target"].tolist() == ["A", "B"]


def test_unknown_drop_column_is_an_error(tmp_path, make_spec):
    (tmp_path / "tiny.csv").write_text("a,b\n1,0\n2,1\n")
    mirror = {
        "format": "csv",
        "files": ["tiny.csv"],
        "separator": ",",
        "header": True,
        "target_column": "b",
        "drop_columns": ["id"],
    }
    with pytest.raises(DatasetError, match=r"drop_columns \['id'\]"):
        load(make_spec(tmp_path, mirror, (2, 1, 2)), tmp_path)


def test_pmlb_tsv_gz(tmp_path, make_spec):
    with gzip.open(tmp_path / "tiny.tsv.gz", "wt") as handle:
        handle.write("f1\tf2\ttarget\n1\t2\t0\n3\t4\t1\n5\t6\t1\n")
    mirror = {
        "format": "tsv.gz",
        "files": ["tiny.tsv.gz"],
        "separator": "\t",
        "header": True,
        "target_column": "target",
    }
    frame = load(make_spec(tmp_path, mirror, (3, 2, 2)), tmp_path).frame
    assert frame.to_numpy().tolist() == [[1, 2, 0], [3, 4, 1], [5, 6, 1]]
    assert frame["target"].dtype == np.int64


def test_headerless_gzipped_csv_with_last_column_label(tmp_path, make_spec):
    with gzip.open(tmp_path / "tiny.csv.gz", "wt") as handle:
        handle.write("0,255,7\n128,0,3\n")
    mirror = {
        "format": "csv",
        "files": ["tiny.csv.gz"],
        "separator": ",",
        "header": False,
        "target_column": -1,
    }
    frame = load(make_spec(tmp_path, mirror, (2, 2, 2)), tmp_path).frame
    assert list(frame.columns) == ["x0", "x1", "target"]
    assert frame["x1"].tolist() == [255.0, 0.0] and frame["target"].tolist() == [7, 3]


def test_txt_keeps_quotes_and_text(tmp_path, make_spec):
    (tmp_path / "tiny.txt").write_text(
        'Sentence\tsentiment\nHe said "great" film.  \t1\nIt\'s dull, "really"\t0\n'
    )
    mirror = {
        "format": "txt",
        "files": ["tiny.txt"],
        "separator": "\t",
        "header": True,
        "target_column": "sentiment",
        "text_columns": ["Sentence"],
    }
    frame = load(make_spec(tmp_path, mirror, (2, 1, 2)), tmp_path).frame
    assert frame["Sentence"].tolist() == ['He said "great" film.  ', 'It\'s dull, "really"']
    assert frame["target"].tolist() == [1, 0]


def write_idx(path, array, code, compress):
    header = struct.pack(">BBBB", 0, 0, code, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    data = header + array.astype(array.dtype.newbyteorder(">")).tobytes()
    path.write_bytes(gzip.compress(data) if compress else data)


def test_idx_images_and_labels_in_any_order(tmp_path, make_spec):
    images = np.arange(12, dtype=np.uint8).reshape(3, 2, 2)
    write_idx(tmp_path / "images.idx3.gz", images, 0x08, compress=True)
    write_idx(tmp_path / "labels.idx1", np.array([7, 1, 7], dtype=np.uint8), 0x08, compress=False)
    spec = make_spec(tmp_path, {"format": "idx", "files": ["labels.idx1", "images.idx3.gz"]}, (3, 4, 2))
    frame = load(spec, tmp_path).frame
    assert frame.drop(columns="target").to_numpy().tolist() == images.reshape(3, 4).astype(float).tolist()
    assert frame["target"].tolist() == [7, 1, 7]


def test_idx_truncated_file_is_an_error(tmp_path, make_spec):
    write_idx(tmp_path / "images.idx3", np.zeros((3, 2, 2), dtype=np.uint8), 0x08, compress=False)
    (tmp_path / "images.idx3").write_bytes((tmp_path / "images.idx3").read_bytes()[:-1])
    write_idx(tmp_path / "labels.idx1", np.zeros(3, dtype=np.uint8), 0x08, compress=False)
    spec = make_spec(tmp_path, {"format": "idx", "files": ["images.idx3", "labels.idx1"]}, (3, 4, 1))
    with pytest.raises(DatasetError, match="idx header says"):
        load(spec, tmp_path)


def test_mat_matrix_and_label_vector(tmp_path, make_spec):
    scipy.io.savemat(
        tmp_path / "faces.mat",
        {
            "fea": np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint8),
            "gnd": np.array([[1], [2], [2]], dtype=np.uint8),
        },
    )
    spec = make_spec(
        tmp_path,
        {"format": "mat", "files": ["faces.mat"], "features_var": "fea", "target_var": "gnd"},
        (3, 2, 2),
    )
    frame = load(spec, tmp_path).frame
    assert frame.to_numpy().tolist() == [[1, 2, 1], [3, 4, 2], [5, 6, 2]]


def test_mat_sparse_transposed_with_feature_names(tmp_path, make_spec):
    words_by_docs = scipy.sparse.csc_matrix(np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8))
    scipy.io.savemat(
        tmp_path / "news.mat",
        {
            "documents": words_by_docs,
            "wordlist": np.array(["god", "nasa"], dtype=object),
            "newsgroups": np.array([[1, 3, 3]], dtype=np.uint8),
        },
    )
    mirror = {
        "format": "mat",
        "files": ["news.mat"],
        "features_var": "documents",
        "transpose": True,
        "target_var": "newsgroups",
        "feature_names_var": "wordlist",
    }
    frame = load(make_spec(tmp_path, mirror, (3, 2, 2)), tmp_path).frame
    assert list(frame.columns) == ["god", "nasa", "target"]
    assert frame.to_numpy().tolist() == [[1, 0, 1], [0, 1, 3], [1, 1, 3]]


def test_mat_label_column(tmp_path, make_spec):
    scipy.io.savemat(tmp_path / "iso.mat", {"data": np.array([[1.0, 0.5, -0.5], [2.0, 0.25, 0.0]])})
    mirror = {"format": "mat", "files": ["iso.mat"], "features_var": "data", "target_column": 0}
    frame = load(make_spec(tmp_path, mirror, (2, 2, 2)), tmp_path).frame
    assert frame.to_numpy().tolist() == [[0.5, -0.5, 1], [0.25, 0.0, 2]]


def test_mat_class_variables_stack_files_then_classes(tmp_path, make_spec):
    for subject, base in (("s1", 0.0), ("s2", 100.0)):
        scipy.io.savemat(
            tmp_path / f"{subject}.mat",
            {
                "cyl_ch1": base + np.zeros((2, 3)),
                "cyl_ch2": base + np.ones((2, 3)),
                "hook_ch1": base + 2 * np.ones((2, 3)),
                "hook_ch2": base + 3 * np.ones((2, 3)),
            },
        )
    mirror = {
        "format": "mat",
        "files": ["s1.mat", "s2.mat"],
        "class_variables": {"cyl": ["cyl_ch1", "cyl_ch2"], "hook": ["hook_ch1", "hook_ch2"]},
    }
    frame = load(make_spec(tmp_path, mirror, (16, 3, 2)), tmp_path).frame
    assert frame["target"].tolist() == (["cyl"] * 4 + ["hook"] * 4) * 2
    assert frame["x0"].tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 100, 100, 101, 101, 102, 102, 103, 103]


def test_mat_missing_variable_is_an_error(tmp_path, make_spec):
    scipy.io.savemat(tmp_path / "faces.mat", {"fea": np.ones((2, 2))})
    spec = make_spec(
        tmp_path,
        {"format": "mat", "files": ["faces.mat"], "features_var": "fea", "target_var": "gnd"},
        (2, 2, 1),
    )
    with pytest.raises(DatasetError, match="no variable 'gnd'"):
        load(spec, tmp_path)


def test_h5_blocks_are_concatenated(tmp_path, make_spec):
    with h5py.File(tmp_path / "digits.h5", "w") as handle:
        handle["train/data"] = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
        handle["train/target"] = np.array([0, 1], dtype=np.int32)
        handle["test/data"] = np.full((1, 2, 2), 0.5, dtype=np.float32)
        handle["test/target"] = np.array([1], dtype=np.int32)
    mirror = {
        "format": "h5",
        "files": ["digits.h5"],
        "data_keys": ["train/data", "test/data"],
        "target_keys": ["train/target", "test/target"],
    }
    frame = load(make_spec(tmp_path, mirror, (3, 4, 2)), tmp_path).frame
    assert frame.drop(columns="target").to_numpy().tolist() == [[0, 1, 2, 3], [4, 5, 6, 7], [0.5] * 4]
    assert frame["target"].tolist() == [0, 1, 1]


def test_text_labels_that_are_numbers_become_integers(tmp_path, make_spec):
    pd.DataFrame({"a": [1.5, 2.5], "label": ["1.0", "2"]}).to_csv(tmp_path / "tiny.csv", index=False)
    mirror = {
        "format": "csv",
        "files": ["tiny.csv"],
        "separator": ",",
        "header": True,
        "target_column": "label",
    }
    assert load(make_spec(tmp_path, mirror, (2, 1, 2)), tmp_path).frame["target"].tolist() == [1, 2]
