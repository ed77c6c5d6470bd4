"""The plan's content-keyed cache (issue 76, item 3): what it hands back is what planning anew
gives, a change to anything the plan reads is a new plan, and an error is never cached."""

import shutil
from pathlib import Path

import pytest

from forestrepro.config import ConfigError, compose_config, compute_tag, plan_cache, plan_spec_files

REPO = Path(__file__).resolve().parents[2]


def test_a_cached_plan_is_the_plan_made_anew():
    overrides = ["papers=[rcrf]"]
    first = plan_cache.cached_plan(overrides, profile="quick", tag=None, conf_dir=REPO / "conf")
    assert len(list(plan_cache.plans_dir().glob("*.pickle"))) == 1
    again = plan_cache.cached_plan(overrides, profile="quick", tag=None, conf_dir=REPO / "conf")
    cfg = compose_config(overrides, profile="quick", conf_dir=REPO / "conf")
    tag = compute_tag(cfg, None, overrides=overrides, conf_dir=REPO / "conf")
    jobs, files = plan_spec_files(cfg, tag, "results")
    for plan in (first, again):
        assert plan == (cfg, tag, jobs, files)


def test_a_changed_configuration_file_is_planned_anew(tmp_path):
    conf = tmp_path / "conf"
    shutil.copytree(REPO / "conf", conf)
    args = {"profile": "paper", "tag": None, "conf_dir": conf}
    before = plan_cache.cached_plan(["papers=[rcrf]"], **args)[0]
    method = conf / "method" / "crf.yaml"
    method.write_text(method.read_text() + "\n# a comment changes the key, and nothing else\n")
    assert plan_cache.cached_plan(["papers=[rcrf]"], **args)[0] == before
    assert len(list(plan_cache.plans_dir().glob("*.pickle"))) == 2
    trees = before["method"]["crf"]["params"]["n_estimators"]
    method.write_text(method.read_text().replace(f"n_estimators: {trees}", f"n_estimators: {trees + 1}"))
    after = plan_cache.cached_plan(["papers=[rcrf]"], **args)[0]
    assert after["method"]["crf"]["params"]["n_estimators"] == trees + 1


def test_an_error_is_raised_every_time_and_never_cached():
    for _ in range(2):
        with pytest.raises(ConfigError, match="n_estimatorz"):
            plan_cache.cached_plan(
                ["method.rf.params.n_estimatorz=5"], profile="quick", tag=None, conf_dir=REPO / "conf"
            )
    assert not list(plan_cache.plans_dir().glob("*.pickle"))
