"""A table's ``datasets`` given as a list shows those data sets under their own names
(config/compose.py ``_default_table_datasets``; the out-of-sample suite's brf_accuracy leaves
diabetes, BRF's pima, out of BRF's claims while its experiment runs every data set)."""

from forestrepro.config.compose import _default_table_datasets


def test_a_list_of_table_datasets_becomes_a_mapping_and_a_missing_one_the_experiments():
    cfg = {
        "paper": {
            "p": {
                "experiments": {"e": {"datasets": ["a", "b", "c"]}},
                "tables": {
                    "listed": {"experiment": "e", "datasets": ["a", "c"]},
                    "missing": {"experiment": "e"},
                    "mapped": {"experiment": "e", "datasets": {"a": "A"}},
                },
            }
        }
    }
    _default_table_datasets(cfg)
    tables = cfg["paper"]["p"]["tables"]
    assert tables["listed"]["datasets"] == {"a": "a", "c": "c"}
    assert tables["missing"]["datasets"] == {"a": "a", "b": "b", "c": "c"}
    assert tables["mapped"]["datasets"] == {"a": "A"}
