"""Run records: exact round trip, provenance, and currency decided by content alone."""

import json
import logging
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from forestrepro.record import (
    FileHashes,
    git_state,
    imported_code,
    read_provenance,
    read_rows,
    record_status,
    spec_digest,
    write_record,
)
from forestrepro.record.pieces import PieceLog, Pieces, read
from forestrepro.record.provenance import code_digest


@pytest.fixture
def package(tmp_path):
    """A stand-in library: two module files and their hashes."""
    root = tmp_path / "pkg"
    (root / "methods").mkdir(parents=True)
    (root / "methods" / "a.py").write_text("A = 1\n")
    (root / "methods" / "b.py").write_text("B = 2\n")
    return root


def _record(tmp_path, package, spec, files=("methods/a.py",)):
    hashes = FileHashes(package)
    code = {f: hashes(f) for f in files}
    rows = pd.DataFrame({"fold": [0, 1], "accuracy": [0.1 + 0.2, 1 / 3], "best_params": ['{"C": 2.0}', None]})
    path = tmp_path / "runs" / "p" / "e" / "m" / "d.csv"
    write_record(
        rows,
        {
            "job": "p/e/m/d",
            "spec": spec,
            "spec_digest": spec_digest(spec),
            "code": {"digest": code_digest(code), "files": code},
        },
        path,
    )
    return path


def test_rows_round_trip_exactly(tmp_path):
    rng = np.random.default_rng(0)
    rows = pd.DataFrame(
        {
            "x": rng.random(200) * 10.0 ** rng.integers(-8, 8, 200),
            "n": np.arange(200),
            "ok": rng.random(200) > 0.5,
            "name": ["a,b"] * 200,
        }
    )
    path = tmp_path / "r.csv"
    prov = write_record(rows, {"job": "j"}, path)
    back = read_rows(path)
    assert back["x"].to_numpy().tobytes() == rows["x"].to_numpy().tobytes()
    assert back["n"].tolist() == rows["n"].tolist() and back["ok"].tolist() == rows["ok"].tolist()
    assert back["name"].tolist() == rows["name"].tolist()
    assert prov["rows"] == 200 and read_provenance(path)["rows_sha256"] == prov["rows_sha256"]


def test_a_record_gives_the_peak_memory_of_the_process_that_wrote_it(tmp_path):
    big = np.ones(60 * 2**20 // 8)  # 60 MB held while the record is written
    prov = write_record(pd.DataFrame({"x": [big.sum()]}), {"job": "j"}, tmp_path / "r.csv")
    assert 60 < prov["peak_memory_mb"] < 100_000
    assert read_provenance(tmp_path / "r.csv")["peak_memory_mb"] == prov["peak_memory_mb"]


def test_list_cells_round_trip_as_lists(tmp_path):
    # RCRF's diversity rows hold one (kappa, error) per pair of trees; C2RF none: both shapes.
    kappa = [0.1 + 0.2, 1 / 3, float("nan")]
    rows = pd.DataFrame(
        {"fold": [0, 1], "pairs_kappa": [kappa, np.array([0.5, 2 / 3])], "note": ["[x]", None]}
    )
    path = tmp_path / "r.csv"
    assert write_record(rows, {"job": "j"}, path)["json_columns"] == ["pairs_kappa"]
    back = read_rows(path)
    assert back["pairs_kappa"][1] == [0.5, 2 / 3] and back["pairs_kappa"][0][:2] == kappa[:2]
    assert np.isnan(back["pairs_kappa"][0][2]) and back["note"][0] == "[x]"  # a plain string stays one


def test_spec_digest_ignores_key_order_but_not_values():
    assert spec_digest({"a": 1, "b": [1, 2]}) == spec_digest({"b": [1, 2], "a": 1})
    assert spec_digest({"a": 1}) != spec_digest({"a": 2})


def test_current_record(tmp_path, package):
    path = _record(tmp_path, package, {"n_estimators": 100})
    assert record_status(path, spec_digest({"n_estimators": 100}), FileHashes(package)).current


def test_missing_record(tmp_path, package):
    status = record_status(tmp_path / "none.csv", "x", FileHashes(package))
    assert status.state == "missing"


def test_changed_spec_makes_it_stale(tmp_path, package):
    path = _record(tmp_path, package, {"n_estimators": 100})
    status = record_status(path, spec_digest({"n_estimators": 500}), FileHashes(package))
    assert status.state == "stale" and "spec" in status.reason


def test_changed_code_it_ran_makes_it_stale_other_code_does_not(tmp_path, package):
    path = _record(tmp_path, package, {"k": 1})
    (package / "methods" / "b.py").write_text("B = 3\n")  # not imported by the job
    assert record_status(path, spec_digest({"k": 1}), FileHashes(package)).current
    (package / "methods" / "a.py").write_text("A = 2\n")
    status = record_status(path, spec_digest({"k": 1}), FileHashes(package))
    assert status.state == "stale" and "methods/a.py" in status.reason


def test_deleted_code_file_makes_it_stale(tmp_path, package):
    path = _record(tmp_path, package, {"k": 1})
    (package / "methods" / "a.py").unlink()
    assert record_status(path, spec_digest({"k": 1}), FileHashes(package)).state == "stale"


def test_rows_edited_by_hand_are_detected(tmp_path, package):
    path = _record(tmp_path, package, {"k": 1})
    path.write_text(path.read_text().replace("0.30000000000000004", "0.9"))
    status = record_status(path, spec_digest({"k": 1}), FileHashes(package))
    assert status.state == "stale" and "differs" in status.reason


def test_half_a_record_or_another_format_is_stale(tmp_path, package):
    path = _record(tmp_path, package, {"k": 1})
    prov = path.with_suffix(".provenance.json")
    data = json.loads(prov.read_text())
    prov.write_text(json.dumps({**data, "format": 0}))
    assert "format" in record_status(path, spec_digest({"k": 1}), FileHashes(package)).reason
    prov.unlink()
    assert record_status(path, spec_digest({"k": 1}), FileHashes(package)).state == "stale"


def test_imported_code_names_library_files_only():
    code = imported_code()
    assert code and all(not p.startswith("/") and p.endswith(".py") for p in code)
    assert "record/store.py" not in code and "cli.py" not in code  # they cannot change a number
    assert all(len(sha) == 64 for sha in code.values())


def test_a_job_imports_only_its_own_method(tmp_path):
    """Lazy registries: building RCRF imports the RCRF forest, not BRF's Banzhaf code."""
    script = (
        "from forestrepro.methods import build_method\n"
        "build_method({'name': 'r', 'estimator': 'rcrf', 'params': {}, 'grid': {}}).estimator(0)\n"
        "from forestrepro.record import imported_code\nprint(sorted(imported_code()))\n"
    )
    files = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert "ensembles/rcrf.py" in files
    assert "trees/banzhaf.py" not in files and "ensembles/brf.py" not in files and "c2rf/" not in files


def test_the_piece_log_lists_each_library_file_as_it_is_imported_and_changes_no_import(tmp_path):
    """record/pieces.py: what a job had imported is on file before the module runs, so a
    piece written at any moment depends on no library file missing from the log."""
    log = tmp_path / "pieces.txt"
    script = (
        "import json, sys\n"
        "from forestrepro.record.pieces import PieceLog\n"
        f"PieceLog({str(log)!r}).install({{'data/loader.py': 'd' * 64}})\n"
        "assert 'forestrepro.ensembles.rcrf' not in sys.modules\n"
        f"print(open({str(log)!r}).read().count('ensembles/rcrf.py'))\n"
        "import forestrepro.ensembles.rcrf as m\n"
        "from forestrepro.record import imported_code\n"
        "print(m.__file__)\n"
        "print(json.dumps(imported_code()))\n"
    )
    lines = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert lines[0] == "0"  # not before it is imported
    assert lines[1].endswith("src/forestrepro/ensembles/rcrf.py")  # found where it is without the log
    logged = read(log).code
    assert logged.pop("data/loader.py") == ["d" * 64]  # the code that made the job's data
    assert logged == {path: [sha] for path, sha in json.loads(lines[2]).items()}  # each, with its hash
    assert "cli.py" not in logged and not any(p.startswith("record/") for p in logged)


def test_the_piece_log_names_each_cascade_part_kept_or_read(tmp_path):
    key, other = "6c25" + "0" * 60, "f" * 64
    piece_log = PieceLog(tmp_path / "pieces.txt").install()
    try:
        parts = logging.getLogger("forestrepro.checkpoint.parts")  # as KeptParts logs them
        parts.info("kept %s (%.0f s) in %s", "level1_forest0", 0.2, f"{key}.parts")
        parts.info("kept %s (%.0f s) in %s", "level1_forest1", 12.0, f"{key}.parts")
        logging.getLogger("forestrepro").info("level 1: k-fold accuracy 0.6024 (best 0.6024, level 1)")
        parts.info("read kept %s from %s", "level1_forest0", f"{other}.parts")
        parts.info("kept something in notakey.parts")
    finally:
        piece_log.uninstall()
    parts.info("read kept %s from %s", "level2_forest0", f"{'e' * 64}.parts")  # after: not noted
    assert read(tmp_path / "pieces.txt").parts == [key, other]


def test_a_piece_log_lists_each_files_hashes_in_order_once(tmp_path):
    (tmp_path / "twice.txt").write_text(
        "code a.py 1\ncode b.py 2\nparts k\ncode a.py 1\ncode a.py 3\nparts k\n"
    )
    assert read(tmp_path / "twice.txt") == Pieces({"a.py": ["1", "3"], "b.py": ["2"]}, ["k"])


def test_git_state_counts_result_paths_only(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src" / "pkg").mkdir(parents=True)
    (repo / "src" / "pkg" / "m.py").write_text("x = 1\n")
    run = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True)
    run("init", "-q")
    run("-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c")
    state = git_state(repo / "src" / "pkg")
    assert state["clean"] is True and len(state["commit"]) == 40
    (repo / "results").mkdir()
    (repo / "results" / "new.csv").write_text("a\n")  # a new record does not make the tree dirty
    assert git_state(repo / "src" / "pkg")["clean"] is True
    (repo / "src" / "pkg" / "m.py").write_text("x = 2\n")
    state = git_state(repo / "src" / "pkg")
    assert state["clean"] is False and state["changed"] == ["src/pkg/m.py"]


def test_outside_git_is_neither_clean_nor_dirty(tmp_path):
    assert git_state(tmp_path)["clean"] is None


def test_a_permission_to_run_leaves_the_spec_digest_alone():
    """``allow_small_classes`` lets a job run; it does not change what the job computes, so a
    record made before it was set stays current. Any other option changes the digest."""
    from forestrepro.evaluation.folds import SMALL_CLASSES_OPTION
    from forestrepro.record.store import PERMISSIONS

    assert SMALL_CLASSES_OPTION in PERMISSIONS
    spec = {"dataset": "zoo", "method": "rf", "dataset_options": {}}
    allowed = {**spec, "dataset_options": {"allow_small_classes": True}}
    assert spec_digest(allowed) == spec_digest(spec)
    both = {**spec, "dataset_options": {"subsample_rows": 9, "allow_small_classes": True}}
    assert spec_digest(both) == spec_digest({**spec, "dataset_options": {"subsample_rows": 9}})
    assert spec_digest({**spec, "dataset_options": {"subsample_rows": 9}}) != spec_digest(spec)
