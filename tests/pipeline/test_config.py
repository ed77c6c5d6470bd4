"""Composition, validation, tags and job specifications of the Hydra configuration."""

import json
from pathlib import Path

import pytest
import yaml

from forestrepro.config import (
    ConfigError,
    compose_config,
    compute_tag,
    plan_jobs,
    plan_spec_files,
    write_job_specs,
)
from forestrepro.config.jobs import method_threads, result_overrides
from forestrepro.record import spec_digest


def test_quick_profile_composes_with_every_dataset():
    cfg = compose_config()
    assert cfg["profile"] == "quick"
    assert set(cfg["paper"]["brf"]["experiments"]["main"]["datasets"]) <= set(cfg["dataset"])
    assert cfg["protocol"]["brf_cv5"]["outer_folds"] == 2


def test_the_quick_profile_names_every_experiments_data_sets_and_shrinks_every_forest():
    """A paper's experiment that the quick profile does not name runs there on all the data sets
    the paper's file gives it (RCRF's grown CRF ran on 21, a third of the quick profile's
    time), and a method the profile does not list keeps the paper's 100 trees."""
    conf = Path(__file__).resolve().parents[2] / "conf"
    named = yaml.safe_load((conf / "profile" / "quick.yaml").read_text())["paper"]
    quick = compose_config(profile="quick")
    used = set()
    for paper, spec in quick["paper"].items():
        for experiment, settings in spec["experiments"].items():
            assert "datasets" in named.get(paper, {}).get("experiments", {}).get(experiment, {}), (
                f"conf/profile/quick.yaml names no data sets for {paper}'s experiment {experiment}"
            )
            used.update(settings["methods"])
    for method in sorted(used):
        params = quick["method"][method].get("params", {})
        for key in ("n_estimators", "n_trees"):
            assert params.get(key, 0) <= 20, f"{method}: {key} = {params[key]} in the quick profile"


def test_paper_profile_has_the_papers_settings():
    cfg = compose_config(profile="paper")
    assert cfg["protocol"]["brf_cv5"]["outer_folds"] == 5
    assert cfg["protocol"]["brf_cv5"]["inner_folds"] == 5
    assert cfg["method"]["rf"]["params"]["n_estimators"] == 100
    assert len(cfg["paper"]["brf"]["experiments"]["main"]["datasets"]) == 15


def test_the_profile_sets_methods_that_config_yaml_does_not_list():
    """The method files config.yaml's defaults do not list (BRF's and RCRF's readings) are
    composed in after it; the profile comes after them, so the quick profile's 10 trees and one
    h reach BRF's readings as they reach BRF (before: 100 trees and six h, the method files'),
    and an override still has the last word."""
    quick = compose_config(profile="quick")["method"]
    for reading in ("brf_soft", "brf_per_node", "brf_beats_partner", "brf_gr_nodes"):
        assert quick[reading]["params"]["n_estimators"] == quick["brf"]["params"]["n_estimators"] == 10
        assert quick[reading]["grid"] == quick["brf"]["grid"]
    assert quick["biau12_log2"]["grid"] == {"h_offset": [0]}
    assert quick["rf_gr_per_node"]["grid"] == quick["rf_gr"]["grid"] == {"h_offset": [0]}
    assert quick["rf_gr_per_node"]["params"]["feature_subset"] == "per_node"  # its own switch stays
    assert quick["crf_log2"]["params"]["n_estimators"] == quick["crf"]["params"]["n_estimators"] == 20
    assert quick["crf_log2"]["params"]["max_features"] == "log2"  # the reading's own switch stays
    assert (
        quick["breiman_rf_log2p1"]["params"]["n_estimators"] == quick["breiman_rf"]["params"]["n_estimators"]
    )
    assert quick["breiman_rf_log2p1"]["params"]["max_features"] == "log2+1"
    assert quick["breiman_rf_soft"]["params"]["n_estimators"] == quick["breiman_rf"]["params"]["n_estimators"]
    assert quick["breiman_rf_soft"]["params"]["voting"] == "soft"  # the reading's own switch stays
    paper = compose_config(["profile=paper", "method.brf_soft.params.n_estimators=7"])
    assert paper["profile"] == "paper" and paper["method"]["brf_soft"]["params"]["n_estimators"] == 7
    assert paper["method"]["brf_soft"]["grid"]["h_offset"] == [-1, 0, 1, 2, 3, 4]


def test_override_changes_the_value():
    cfg = compose_config(["method.rf.params.n_estimators=7"])
    assert cfg["method"]["rf"]["params"]["n_estimators"] == 7


def test_typo_in_override_lists_valid_keys():
    with pytest.raises(ConfigError) as err:
        compose_config(["method.rf.params.n_estimatorz=7"])
    text = str(err.value)
    assert "n_estimatorz" in text and "n_estimators" in text


def test_appended_unknown_key_is_rejected_by_the_schema():
    with pytest.raises(ConfigError, match="n_trees"):
        compose_config(["+protocol.brf_cv5.n_trees=3"])


def test_malformed_override_is_an_error():
    with pytest.raises(ConfigError, match="malformed override"):
        compose_config(["method.rf.params.n_estimators"])
    with pytest.raises(ConfigError):
        compose_config(["method.rf.params.n_estimators=1=2"])
    with pytest.raises(ConfigError, match="malformed override '=5'"):
        compose_config(["=5"])


def test_an_optional_key_without_plus_gets_the_hint():
    with pytest.raises(
        ConfigError, match=r"added with a leading '\+': \+paper.brf.experiments.main.sweep=\.\.\."
    ):
        compose_config(["paper.brf.experiments.main.sweep={param: n_estimators, values: [1]}"])


def test_unknown_dataset_and_method_are_named():
    with pytest.raises(ConfigError, match="unknown data set 'wnie'.*wine"):
        compose_config(["paper.brf.experiments.main.datasets=[wnie]"])
    with pytest.raises(ConfigError, match="unknown method 'svn'"):
        compose_config(["paper.brf.experiments.main.methods=[svn]"])


def test_a_table_must_name_an_existing_experiment():
    with pytest.raises(ConfigError, match="unknown experiment 'mian'"):
        compose_config(["paper.brf.tables.table2.experiment=mian"])


def test_a_figure_must_draw_a_data_set_and_methods_of_its_experiment():
    with pytest.raises(
        ConfigError, match="fig2_kappa_error.dataset: unknown data set of experiment 'diversity' 'wien'"
    ):
        compose_config(["paper.rcrf.figures.fig2_kappa_error.dataset=wien"])
    with pytest.raises(ConfigError, match="unknown data set of experiment 'diversity' 'krkopt'"):
        compose_config(["paper.rcrf.figures.fig2_kappa_error.dataset=krkopt"])  # not in the quick profile's
    with pytest.raises(
        ConfigError, match="fig3_banzhaf_vs_gain_ratio.methods: unknown method of experiment .main. .svn."
    ):
        compose_config(["paper.brf.figures.fig3_banzhaf_vs_gain_ratio.methods=[brf,svn]"])


def test_table_spec_names_what_its_experiment_runs_but_it_cannot_place(tmp_path):
    cfg = compose_config(["paper.rcrf.experiments.main.datasets=[wine,sonar]"])
    write_job_specs(cfg, "t", tmp_path)
    spec = json.loads((tmp_path / "runs" / "t" / "specs" / "rcrf" / "table2.table.json").read_text())
    assert spec["dataset_order"] == ["wine"] and spec["unplaced"] == {"datasets": ["sonar"], "methods": []}


@pytest.mark.parametrize("value", ["-1", "abc", "2.5"])
def test_method_parameters_are_checked_before_any_job_runs(value, tmp_path):
    cfg = compose_config([f"method.rcrf.params.n_estimators={value}"])
    with pytest.raises(
        ConfigError,
        match=r"method\.rcrf \(paper\.rcrf\.experiments\.main, data set \w+\): "
        r"n_estimators must be an int >= 1",
    ):
        plan_spec_files(cfg, "t", tmp_path)
    assert not any(tmp_path.iterdir())  # nothing written


def test_grid_sweep_and_nested_parameters_are_checked(tmp_path):
    cfg = compose_config(["method.knn.grid.n_neighbors=[1,0]"])
    with pytest.raises(ConfigError, match=r"method\.knn .*grid value n_neighbors=0"):
        plan_spec_files(cfg, "t", tmp_path)
    cfg = compose_config(["paper.brf.experiments.sweep_h.sweep.values=[1,-2]"])
    with pytest.raises(ConfigError, match=r"method\.brf with h=-2 .*h must be None or an int >= 1"):
        plan_spec_files(cfg, "t", tmp_path)
    cfg = compose_config(["method.df.params.max_levels=0"])
    with pytest.raises(ConfigError, match=r"method\.df .*max_levels must be an int >= 1"):
        plan_spec_files(cfg, "t", tmp_path)
    # the paper profile scans MNIST and sEMG: the scanner inside the estimator is checked too
    cfg = compose_config(["method.wdf.params.scanner.stride=0"], profile="paper")
    with pytest.raises(
        ConfigError, match=r"method\.wdf .*data set (mnist|semg)\w*\): stride must be an int >= 1"
    ):
        plan_spec_files(cfg, "t", tmp_path)
    plan_spec_files(compose_config(), "t", tmp_path)  # the shipped config passes


def test_table_limit_names_a_protocol_parameter(tmp_path):
    with pytest.raises(ConfigError, match=r"paper\.c2rf\.tables\.table2\.limit.*time_limt"):
        compose_config(["paper.c2rf.tables.table2.limit=time_limt"])
    _, files = plan_spec_files(compose_config(["protocol.c2rf_biased.time_limit=10"]), "t", tmp_path)
    spec = json.loads(files[tmp_path / "runs" / "t" / "specs" / "c2rf" / "table2.table.json"])
    assert spec["limit"] == "time_limit" and spec["limit_value"] == 10.0


def test_c2rf_bounds_must_be_ordered():
    with pytest.raises(
        ConfigError, match=r"protocol.c2rf_biased: lower \(200.0\) must not exceed upper \(100.0\)"
    ):
        compose_config(["protocol.c2rf_biased.lower=200.0"])
    with pytest.raises(ConfigError, match="lower"):
        compose_config(["protocol.c2rf_srs.lower=0"])
    compose_config(["protocol.c2rf_biased.lower=100.0"])  # equal bounds are allowed


def test_sweep_param_must_be_a_method_param():
    with pytest.raises(ConfigError, match="sweep"):
        compose_config(["+paper.brf.experiments.main.sweep={param: n_estimators, values: [1]}"])


def test_unknown_profile_is_an_error():
    with pytest.raises(ConfigError, match="fast"):
        compose_config(profile="fast")


def test_tags_separate_ablations_from_paper_settings():
    base = compose_config()
    assert compute_tag(base) == "quick"  # composes the profile's defaults itself
    assert compute_tag(base, profile_cfg=base) == "quick"
    changed = compose_config(["method.rf.params.n_estimators=7"])
    tag = compute_tag(changed, profile_cfg=base)
    assert tag.startswith("quick-") and tag != "quick"
    assert compute_tag(compose_config(["method.rf.params.n_estimators=7"]), profile_cfg=base) == tag
    assert compute_tag(changed, "my_ablation") == "my_ablation"
    with pytest.raises(ConfigError):
        compute_tag(changed, "../escape")


def test_choosing_papers_keeps_the_tag_and_so_the_records():
    """A run of some papers reads and writes the records of the profile's tag (the commands of
    results/report/paper/README.md continue long work that way); an override still separates."""
    base = compose_config()
    assert compute_tag(compose_config(["papers=[rcrf]"]), profile_cfg=base) == "quick"
    ablation = compute_tag(compose_config(["method.rf.params.n_estimators=7"]), profile_cfg=base)
    subset = compose_config(["papers=[brf]", "method.rf.params.n_estimators=7"])
    assert compute_tag(subset, profile_cfg=base) == ablation != "quick"


def test_what_a_page_shows_keeps_the_tag_and_stays_out_of_the_table_specs(tmp_path):
    """report.show selects a page's tables and figures (the ranking's own page): the profile's
    tag and records, and table specs without it; the report's tolerances are results."""
    overrides = ["papers=[brf]", "report.show=[table2]"]
    assert result_overrides([*overrides, "report.title='Which one?'"]) == []
    assert result_overrides(["report.tolerance_abs=0.05"])
    cfg = compose_config(overrides)
    assert cfg["report"]["show"] == ["table2"]
    assert compute_tag(cfg, overrides=overrides, conf_dir="no_conf_here") == "quick"
    _, files = plan_spec_files(cfg, "t", tmp_path)
    tables = [text for path, text in files.items() if path.name.endswith(".table.json")]
    assert tables and all('"tolerance_abs"' in text and '"show"' not in text for text in tables)


def test_what_a_job_reserves_keeps_the_tag_and_so_the_records():
    """Cores, memory and time are not results: reserving other ones (a cluster's smaller nodes)
    reads and writes the same records, with or without the composed defaults at hand."""
    base = compose_config(profile="paper")
    for overrides in (
        ["resources.threads=1"],
        ["+method.rf.resources.threads=2", "method.svm.resources.mem_mb=9000"],
    ):
        cfg = compose_config(overrides, profile="paper")
        assert compute_tag(cfg, profile_cfg=base) == "paper"
        assert compute_tag(cfg, overrides=overrides, conf_dir="no_conf_here") == "paper"
    assert method_threads(compose_config(["resources.threads=3"], profile="paper"), "rf") == 3
    assert method_threads(base, "rf") == 4 and method_threads(base, "c2rf_plus") == 1
    quick = compose_config(["+method.svm.resources.threads=2"])
    assert method_threads(quick, "rf") == 1 and method_threads(quick, "svm") == 2
    # a parameter is a result, also next to a resource
    changed = ["resources.threads=1", "method.rf.params.n_estimators=7"]
    assert compute_tag(compose_config(changed, profile="paper"), profile_cfg=base) != "paper"


def test_the_tag_composes_the_profile_from_the_configs_own_conf_dir(tmp_path, monkeypatch):
    """The profile's defaults come from the directory ``cfg`` was composed from, not from conf/
    under the working directory (a run with ``--directory`` elsewhere failed there); overrides
    that only choose papers or data sources decide the tag without a second composition."""
    conf = Path(__file__).resolve().parents[2] / "conf"
    monkeypatch.chdir(tmp_path)  # no conf/ here
    changed = compose_config(["method.rf.params.n_estimators=7"], conf_dir=conf)
    tag = compute_tag(changed, overrides=["method.rf.params.n_estimators=7"], conf_dir=conf)
    assert tag.startswith("quick-")
    selected = compose_config(["papers=[rcrf]"], conf_dir=conf)
    missing = tmp_path / "no_conf_here"  # would fail if it composed again
    assert compute_tag(selected, overrides=["papers=[rcrf]"], conf_dir=missing) == "quick"
    assert compute_tag(selected, overrides=[], conf_dir=missing) == "quick"
    with pytest.raises(FileNotFoundError):  # any other override composes the defaults
        compute_tag(changed, overrides=["method.rf.params.n_estimators=7"], conf_dir=missing)


def test_job_specs_are_written_once(tmp_path):
    cfg = compose_config()
    jobs = write_job_specs(cfg, "quick", tmp_path)
    assert [j.path for j in jobs] == [j.path for j in plan_jobs(cfg)]
    for job in jobs:  # each job carries the digest of the spec it wrote (its record's key)
        written = json.loads((tmp_path / "runs" / "quick" / "specs" / f"{job.path}.json").read_text())
        assert job.spec_digest == spec_digest(written)
    main = cfg["paper"]["brf"]["experiments"]["main"]
    brf_main = [j for j in jobs if j.paper == "brf" and j.experiment == "main"]
    assert len(brf_main) == len(main["methods"]) * len(main["datasets"])
    assert len(main["datasets"]) == 3  # quick profile
    spec_path = tmp_path / "runs" / "quick" / "specs" / "brf" / "main" / "svm" / "wine.json"
    spec = json.loads(spec_path.read_text())
    assert spec["method_config"]["estimator"] == "svm_rbf"
    mtime = spec_path.stat().st_mtime_ns
    write_job_specs(cfg, "quick", tmp_path)
    assert spec_path.stat().st_mtime_ns == mtime
    write_job_specs(compose_config(["method.svm.grid.log2_C=[0]"]), "quick", tmp_path)
    assert spec_path.stat().st_mtime_ns != mtime


def test_job_per_repeat_plans_one_job_per_split_and_dataset_options_set_the_repeats(tmp_path):
    """The paper profile's WDF: 5 splits of each non-scanned data set, each its own job whose
    spec's protocol names its repeat; SEMG and MNIST one split (dataset_options.repeats)."""
    cfg = compose_config(["papers=[wdf]"], profile="paper")
    jobs, files = plan_spec_files(cfg, "t", tmp_path)
    paths = [job.path for job in jobs]
    assert [p for p in paths if p.startswith("wdf/main/df/yeast")] == [
        f"wdf/main/df/yeast/repeat{k}" for k in range(5)
    ]
    assert [p for p in paths if p.startswith("wdf/main/wdf/semg")] == ["wdf/main/wdf/semg/repeat0"]
    assert len(jobs) == 3 * (5 * 5 + 2) + 3  # and SEMG's 3,000-sample reading (semg_3000)
    spec = json.loads(files[tmp_path / "runs" / "t" / "specs" / "wdf/main/df/yeast/repeat3.json"])
    assert spec["protocol"]["repeat"] == 3 and spec["protocol"]["repeats"] == 5 and spec["dataset"] == "yeast"
    semg = json.loads(files[tmp_path / "runs" / "t" / "specs" / "wdf/main/df/semg/repeat0.json"])
    assert semg["protocol"]["repeats"] == 1 and semg["protocol"]["repeat"] == 0
    # each split of a scanned data set is scanned on its own; DF, WDF and WDF-oob share it
    scans = {job.path: job.scan for job in jobs if job.dataset == "semg"}
    assert len(set(scans.values())) == 2  # one per reading: Table 1's 500 features, the 3,000 samples
    assert len({scans[f"wdf/main/{m}/semg/repeat0"] for m in ("df", "wdf", "wdf_oob")}) == 1
    assert semg["dataset_options"]["block_mean"] == 6 and semg["dataset_options"]["scan"]["shape"] == [500]
    whole = plan_jobs(
        compose_config(["papers=[wdf]", "protocol.wdf_holdout.job_per_repeat=false"], profile="paper")
    )
    assert [j.path for j in whole if j.method == "df"][:2] == ["wdf/main/df/adult", "wdf/main/df/yeast"]


def test_an_experiments_dataset_options_go_over_the_papers_for_its_jobs_only(tmp_path):
    """BRF's data_size experiments subsample isolet (the learning curve of the data_size cause
    test); Table 2's isolet jobs keep the whole data set, and shuttle keeps the paper's option."""
    cfg = compose_config(["papers=[brf]"], profile="paper")
    _, files = plan_spec_files(cfg, "t", tmp_path)
    specs = tmp_path / "runs" / "t" / "specs" / "brf"
    half = json.loads(files[specs / "data_size_half/knn/isolet.json"])
    assert half["dataset_options"] == {"subsample_rows": 780}
    assert json.loads(files[specs / "data_size_quarter/knn/isolet.json"])["dataset_options"] == {
        "subsample_rows": 390
    }
    assert json.loads(files[specs / "main/knn/isolet.json"])["dataset_options"] == {}
    assert json.loads(files[specs / "main/knn/shuttle.json"])["dataset_options"] == {
        "subsample_rows": 14516,
        "allow_small_classes": True,
    }
    with pytest.raises(
        ConfigError, match="experiments.data_size_half.dataset_options: unknown data set 'isolett'"
    ):
        compose_config(
            ["+paper.brf.experiments.data_size_half.dataset_options.isolett={subsample_rows: 100}"]
        )
    # an override that narrows an experiment to some of its data sets keeps the others' options
    # unused (RCRF's nominal codings name three data sets)
    narrowed = compose_config(["papers=[rcrf]", "paper.rcrf.experiments.nominal_declared.datasets=[car]"])
    _, files = plan_spec_files(narrowed, "n", tmp_path)
    nominal = sorted(p.name for p in files if "nominal_declared/" in p.as_posix())
    assert nominal == ["car.json"] * 3
    assert json.loads(files[tmp_path / "runs/n/specs/rcrf/nominal_declared/crf/car.json"])["dataset_options"][
        "nominal_order"
    ]["safety"] == [1, 2, 0]


def test_job_per_repeat_is_for_the_holdout_protocol_and_table_options_name_known_cells():
    with pytest.raises(ConfigError, match="job_per_repeat|holdout"):
        compose_config(["+protocol.brf_cv5.job_per_repeat=true"])
    with pytest.raises(ConfigError, match="averages.low_dim: unknown data set of the table 'yaest'"):
        compose_config(
            ["paper.wdf.tables.table2_accuracy.averages=[{group: low_dim, datasets: [adult,yaest]}]"]
        )
    with pytest.raises(ConfigError, match="paired: unknown method of the table 'wfd'"):
        compose_config(["paper.wdf.tables.table2_accuracy.paired=[{a: wfd, b: df}]"])
    with pytest.raises(ConfigError, match="repeats"):
        compose_config(["paper.wdf.dataset_options.semg.repeats=0"])


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_data_sets_read_whole_give_the_same_config_as_hydras_merge(profile):
    """compose reads conf/dataset/*.yaml with OmegaConf unless an override reaches into the
    dataset group; Hydra's file-by-file merge (forced here by a no-op dataset override) must
    give the same dict, key order and value types included."""
    from forestrepro.config.compose import _compose_plain, default_conf_dir

    conf = default_conf_dir().resolve()
    fast = _compose_plain(conf, [f"profile={profile}"])
    merged = _compose_plain(conf, [f"profile={profile}", "dataset.wine.name=wine"])
    assert json.dumps(fast) == json.dumps(merged)  # not sort_keys: the order counts too
    changed = compose_config(["dataset.housing.target_transform.threshold=20.0"])
    assert changed["dataset"]["housing"]["target_transform"]["threshold"] == 20.0


def test_a_methods_resources_are_not_part_of_its_jobs_specs(tmp_path):
    """Threads, memory and time fit a job to a machine; changing them reruns nothing."""
    base, _ = plan_spec_files(compose_config(), "t", tmp_path)
    fitted, files = plan_spec_files(
        compose_config(["+method.rf.resources.threads=1", "method.rf.resources.mem_mb=500"]), "t", tmp_path
    )
    assert [(j.path, j.spec_digest) for j in fitted] == [(j.path, j.spec_digest) for j in base]
    assert any(j.method == "rf" for j in base)
    assert not any('"resources"' in text for path, text in files.items() if "/specs/" in str(path))


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_no_shipped_figure_caption_names_a_data_set_it_does_not_draw(profile):
    # issue 20: the quick profile's Fig. 2 caption said krkopt while it drew wine
    from forestrepro.report.sections import figure_caption

    cfg = compose_config(profile=profile)
    for paper, pcfg in cfg["paper"].items():
        for name, fspec in pcfg.get("figures", {}).items():
            words = set(figure_caption(fspec).replace(":", " ").replace(",", " ").split())
            others = (words & set(cfg["dataset"])) - {fspec.get("dataset")}
            assert not others, f"{paper}.figures.{name} caption names {sorted(others)}"


def test_a_tables_caption_states_its_protocols_time_limit_as_overridden(tmp_path):
    # the C2RF ablation's captions say {time_limit}: 60 s by default, 10 s when the limit is overridden
    for limit, shown in ((None, "60 s"), ("10", "10 s")):
        overrides = ["papers=[c2rf]"] + ([f"protocol.c2rf_ablation.time_limit={limit}"] if limit else [])
        cfg = compose_config(overrides, profile="paper")
        _, files = plan_spec_files(cfg, "t", str(tmp_path))
        spec = json.loads(
            next(text for path, text in files.items() if path.name == "ablation_time.table.json")
        )
        assert f"at {shown} per solve" in spec["caption"] and "{time_limit}" not in spec["caption"]


def test_a_block_mean_that_does_not_divide_the_features_is_named_before_any_job():
    with pytest.raises(ConfigError, match=r"semg.*block_mean=7.*3000 features"):
        compose_config(["paper.wdf.dataset_options.semg.block_mean=7"], profile="paper")


def test_an_experiments_protocol_options_go_over_its_protocol_for_its_jobs_only(tmp_path):
    cfg = compose_config(
        [
            "papers=[wdf]",
            "paper.wdf.experiments.semg_3000.datasets=[yeast]",
            "+paper.wdf.experiments.semg_3000.protocol_options={repeats: 2, job_per_repeat: false}",
        ],
        profile="paper",
    )
    jobs, files = plan_spec_files(cfg, "t", tmp_path)
    paths = [job.path for job in jobs]
    assert [p for p in paths if p.startswith("wdf/main/df/yeast")] == [
        f"wdf/main/df/yeast/repeat{k}" for k in range(5)
    ]  # main keeps its protocol's 5 splits, one job each
    assert "wdf/semg_3000/df/yeast" in paths  # one job of 2 splits
    spec = json.loads(files[tmp_path / "runs" / "t" / "specs" / "wdf/semg_3000/df/yeast.json"])
    assert spec["protocol"]["repeats"] == 2 and spec["protocol"]["name"] == "wdf_holdout"
    with pytest.raises(ConfigError, match="n_trees"):
        compose_config(["+paper.wdf.experiments.main.protocol_options={n_trees: 3}"], profile="paper")


def test_only_overrides_that_can_change_a_result_make_an_ablation():
    """Where data is read from, what runs and what a job reserves change no result: an ablation's
    report names only the others (and a run with those alone keeps its profile's tag)."""
    from forestrepro.config.jobs import result_overrides

    given = [
        "papers=[brf]",
        "data.sources=[openml]",
        "+method.rf.resources.threads=2",
        "method.rf.params.n_estimators=5",
        "protocol.brf_cv5.outer_folds=3",
    ]
    assert result_overrides(given) == ["method.rf.params.n_estimators=5", "protocol.brf_cv5.outer_folds=3"]
