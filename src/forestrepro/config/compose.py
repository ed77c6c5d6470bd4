"""Compose ``conf/`` with Hydra and validate the result against the packaged schemas (``schema.py``)."""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import yaml
from hydra import compose, initialize_config_dir
from hydra.core.config_store import ConfigStore
from hydra.errors import HydraException
from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from ..data.collection import collection_entries, collection_members
from ..data.errors import DatasetError
from ..resources import default_conf_dir
from .errors import ConfigError
from .schema import validate_config

__all__ = ["compose_config", "default_conf_dir", "dump_yaml"]


def _collected_datasets(conf_dir: Path) -> dict[str, dict]:
    """The data sets of the collections in ``conf/dataset/collections/``, by name, each the config
    a ``conf/dataset/<name>.yaml`` would hold (``data/collection.py``); a name clash or a malformed
    collection is a ``ConfigError``."""
    try:
        return {name: entry.spec for name, entry in collection_entries(conf_dir / "dataset").items()}
    except DatasetError as err:
        raise ConfigError(str(err)) from None


def _root_config(conf_dir: Path) -> dict:
    """``config.yaml`` as written (its defaults list and keys), before any composition."""
    return yaml.safe_load((conf_dir / "config.yaml").read_text(encoding="utf-8"))


def _unlisted_methods(conf_dir: Path) -> list[str]:
    """The files of ``conf/method/`` that ``config.yaml``'s defaults do not list. They are composed
    in as ``method.<name>`` too, after the listed ones, so that a new method is its file alone
    (``docs/pages/extending.md``)."""
    defaults = _root_config(conf_dir).get("defaults", [])
    listed = {
        v
        for entry in defaults
        if isinstance(entry, dict)
        for k, v in entry.items()
        if k.startswith("method@")
    }
    return sorted(p.stem for p in (conf_dir / "method").glob("*.yaml") if p.stem not in listed)


def _keys_at(cfg: Any, dotted: str) -> list[str]:
    """The valid keys under the parent of ``dotted`` in ``cfg`` (for error messages)."""
    node = cfg
    for part in dotted.split(".")[:-1]:
        if not isinstance(node, dict) or part not in node:
            break
        node = node[part]
    return sorted(node) if isinstance(node, dict) else []


def _explain_override_error(err: Exception, overrides: list[str], conf_dir: Path) -> ConfigError:
    """Turn a Hydra error into one that names the override and lists the valid keys."""
    text = str(err)
    match = re.search(r"Could not override '([^']+)'", text) or re.search(
        r"Key '([^']+)' is not in struct", text
    )
    if match:
        key = match.group(1)
        base = _compose_plain(conf_dir, [])
        valid = _keys_at(base, key)
        leaf = key.split(".")[-1]
        close = difflib.get_close_matches(leaf, valid, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        return ConfigError(
            f"unknown configuration key '{key}' in overrides {overrides}.{hint} "
            f"Valid keys there: {', '.join(valid) or '(none)'}. A key the defaults do not set (an "
            f"optional one such as an experiment's grid or sweep) is added with a leading '+': +{key}=..."
        )
    return ConfigError(f"cannot apply overrides {overrides}: {text.strip()}")


def _touches_datasets(overrides: list[str]) -> bool:
    """Whether an override's key is in the ``dataset`` group (``dataset.wine.x=1``, ``+dataset@...``)."""
    keys = (item.partition("=")[0].strip().lstrip("+~") for item in overrides)
    return any(key == "dataset" or key.startswith(("dataset.", "dataset@")) for key in keys)


def _profile_last(conf_dir: Path, overrides: list[str]) -> list[str]:
    """``overrides`` with the profile (``profile=<name>`` among them, else ``config.yaml``'s
    ``profile``) as ``+profile=<name>`` at their head. Appended after the unlisted method files
    (Hydra appends ``+group=...`` defaults after the primary config's, in the order given), the
    profile sets their parameters as it sets the listed ones'; in ``config.yaml``'s defaults list
    it came before them, and the method files overwrote it."""
    name = _root_config(conf_dir)["profile"]
    rest = []
    for item in overrides:
        key, _, value = item.partition("=")
        if key.strip() == "profile":
            name = value.strip()
        else:
            rest.append(item)
    return [f"+profile={name}", *rest]


def _members_of(conf_dir: Path):
    """The resolver ``${collection:<name>[,<except>...]}``: the data sets of collection ``name``
    (``conf/dataset/collections/``), in its file's order, without those named after it, so that a
    new entry of the collection joins every experiment that names it (the out-of-sample suite)."""

    def members(name: str, *leave_out: str) -> list[str]:
        collections = collection_members(conf_dir / "dataset")
        if name not in collections:
            raise ConfigError(
                f"unknown collection '{name}' in ${{collection:...}}; collections: {', '.join(collections) or 'none'}"
            )
        unknown = [n for n in leave_out if n not in collections[name]]
        if unknown:
            raise ConfigError(f"${{collection:{name},...}} leaves out {', '.join(unknown)}, not in it")
        return [n for n in collections[name] if n not in leave_out]

    return members


def _binary_members_of(conf_dir: Path):
    """The resolver ``${collection_binary:<name>,<rows>}``: the binary data sets of collection
    ``name`` with at least ``rows`` rows (by each entry's ``expected`` shape), sorted by name
    (capitals first), so that a new entry that meets the rule joins the experiment that states it
    (C2RF's in the out-of-sample suite)."""

    def members(name: str, rows: int) -> list[str]:
        collections = collection_members(conf_dir / "dataset")
        if name not in collections:
            raise ConfigError(
                f"unknown collection '{name}' in ${{collection_binary:...}}; collections: "
                f"{', '.join(collections) or 'none'}"
            )
        if not isinstance(rows, int) or isinstance(rows, bool):
            raise ConfigError(
                f"${{collection_binary:{name},{rows}}}: the least number of rows must be a whole number"
            )
        entries = collection_entries(conf_dir / "dataset")
        shapes = {n: entries[n].spec["expected"] for n in collections[name]}
        return sorted(n for n, shape in shapes.items() if shape["classes"] == 2 and shape["rows"] >= rows)

    return members


def _count(items: list) -> int:
    """The resolver ``${count:<list>}``: how many items the list has, so that a title or note
    says how many data sets an experiment has from its list (``${count:${.experiments.brf.datasets}}``),
    never a number typed beside it."""
    return len(items)


def _default_table_datasets(cfg: dict) -> None:
    """A table without ``datasets`` shows every data set of its experiment under its own name,
    and a table whose ``datasets`` is a list (``${collection:pmlb_outofsample,diabetes}``) shows
    those, each under its own name."""
    for pcfg in cfg.get("paper", {}).values():
        for tcfg in pcfg.get("tables", {}).values():
            exp = pcfg.get("experiments", {}).get(tcfg.get("experiment"))
            if "datasets" not in tcfg and exp is not None:
                tcfg["datasets"] = {d: d for d in exp.get("datasets", [])}
            elif isinstance(tcfg.get("datasets"), list):
                tcfg["datasets"] = {d: d for d in tcfg["datasets"]}


def _compose_plain(conf_dir: Path, overrides: list[str]) -> dict:
    """Hydra's composition of ``config`` with every data set of ``conf/dataset/`` (its files and the
    entries of its collections) as ``dataset.<name>`` and every unlisted method file as
    ``method.<name>``, then the profile (``_profile_last``), then the user's overrides. Hydra merges
    each of the data set configs into the tree one by one, which is more than half of a
    composition's time (seconds, paid by every Snakemake invocation), so unless an override
    reaches into the ``dataset`` group the files are read with OmegaConf's own loader instead and
    put in place whole: the same dict (tested). For Hydra's merge, the collections' data sets are
    entered in its config store under the group ``dataset``, beside the files."""
    collected = _collected_datasets(conf_dir)
    files = [p.stem for p in (conf_dir / "dataset").glob("*.yaml")]
    names = sorted([*files, *collected])
    with_datasets = _touches_datasets(overrides)
    dataset_defaults = [f"+dataset@dataset.{n}={n}" for n in names] if with_datasets else []
    if with_datasets:
        for name, spec in collected.items():
            ConfigStore.instance().store(group="dataset", name=name, node=spec)
    methods = [f"+method@method.{n}={n}" for n in _unlisted_methods(conf_dir)]
    OmegaConf.register_new_resolver("collection", _members_of(conf_dir), replace=True)
    OmegaConf.register_new_resolver("collection_binary", _binary_members_of(conf_dir), replace=True)
    OmegaConf.register_new_resolver("count", _count, replace=True)
    with initialize_config_dir(config_dir=str(conf_dir), version_base="1.3"):
        cfg = compose(
            "config", overrides=methods + dataset_defaults + _profile_last(conf_dir, list(overrides))
        )
    plain = OmegaConf.to_container(cfg, resolve=True)
    if not with_datasets:
        plain["dataset"] = {
            n: collected[n]
            if n in collected
            else OmegaConf.to_container(OmegaConf.load(conf_dir / "dataset" / f"{n}.yaml"), resolve=True)
            for n in names
        }
    return plain


def compose_config(
    overrides: list[str] | tuple[str, ...] = (),
    *,
    profile: str | None = None,
    conf_dir: str | Path | None = None,
) -> dict:
    """Compose ``conf/config.yaml`` with ``overrides`` and return a validated plain dict.

    ``conf_dir`` is the Hydra configuration directory (default: ``default_conf_dir()``).

    ``profile`` selects ``conf/profile/<profile>.yaml`` (same as the override ``profile=...``).
    Every file in ``conf/dataset/`` and every entry of its collections (``conf/dataset/collections/``)
    is composed in as ``dataset.<name>``, and every file of
    ``conf/method/`` as ``method.<name>`` (the defaults list the papers' own). Unknown keys, a
    malformed override or a config that breaks the schema raise :class:`ConfigError`.
    """
    conf = Path(conf_dir) if conf_dir else default_conf_dir()
    overrides = [str(o) for o in overrides]
    for item in overrides:
        if not isinstance(item, str) or not item.partition("=")[0].strip() or "=" not in item:
            raise ConfigError(
                f"malformed override {item!r}: write key=value, e.g. method.rf.params.n_estimators=500"
            )
    if profile:
        overrides = [f"profile={profile}", *overrides]
    try:
        cfg = _compose_plain(conf.resolve(), overrides)
    except (HydraException, OmegaConfBaseException) as err:
        raise _explain_override_error(err, overrides, conf.resolve()) from err
    _default_table_datasets(cfg)
    validate_config(cfg)
    return cfg


def dump_yaml(cfg: dict) -> str:
    """A stable YAML text of a plain config (sorted keys), for provenance files."""
    return yaml.safe_dump(cfg, sort_keys=True, default_flow_style=False, allow_unicode=True)
