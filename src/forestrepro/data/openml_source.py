"""The OpenML source, through openml-python with a caller-given cache directory.

Fails fast when the server cannot be reached: a TCP connect with a short timeout before any
openml call (skipped when the data set is already in the cache), and one retry instead of
openml's default five.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pandas as pd

from .errors import DatasetError, SourceUnavailable

CONNECT_TIMEOUT_S = 3.0


@contextlib.contextmanager
def _openml_config(cache_dir: Path) -> Iterator[object]:
    """Point openml at ``cache_dir`` with a single retry; restore its settings afterwards."""
    import openml

    before = openml.config.get_config_as_dict()
    openml.config.set_root_cache_directory(cache_dir)
    openml.config.connection_n_retries = 1
    try:
        yield openml
    finally:
        openml.config.set_root_cache_directory(before["cachedir"])
        openml.config.connection_n_retries = before["connection_n_retries"]


def check_reachable(server_url: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Raise ``SourceUnavailable`` unless a TCP connection to the OpenML server opens within ``timeout``."""
    url = urlparse(server_url)
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((url.hostname, port), timeout=timeout).close()
    except OSError as error:
        raise SourceUnavailable(f"OpenML unreachable ({url.hostname}:{port}: {error})") from error


def load_openml(spec: dict, cache_dir: Path) -> tuple[pd.DataFrame, pd.Series, dict]:
    """Return (features, target, provenance part) of ``spec['openml']['id']`` from OpenML.

    Uses ``dataset.get_data(target=...)`` (the configured attribute, or the data set's default
    target), drops OpenML's ignore attributes and ``openml.drop_columns``; records the id,
    version, name, target and the md5 checksum OpenML publishes for the data file.
    """
    config = spec["openml"]
    if config["id"] is None:
        raise SourceUnavailable(
            "no OpenML id for this data set: the mirror is the only source (see its notes)"
        )
    with _openml_config(cache_dir) as openml:
        cached = Path(openml.config.get_cache_directory(), "datasets", str(config["id"]), "description.xml")
        if not cached.is_file():
            check_reachable(openml.config.server)
        try:
            dataset = openml.datasets.get_dataset(
                config["id"], download_data=True, download_qualities=False, download_features_meta_data=False
            )
        except Exception as error:  # network, server or cache failure: this source cannot deliver
            raise SourceUnavailable(
                f"OpenML {config['id']} download failed ({type(error).__name__}: {error})"
            ) from error
        if config["version"] is not None and int(dataset.version) != config["version"]:
            raise DatasetError(
                f"{spec['name']}: OpenML {config['id']} is version {dataset.version}, the config expects {config['version']}"
            )
        target_name = config["target"] or dataset.default_target_attribute
        try:
            features, target, _, _ = dataset.get_data(target=target_name, dataset_format="dataframe")
        except (KeyError, ValueError) as error:
            raise DatasetError(
                f"{spec['name']}: OpenML {config['id']} has no target '{target_name}' ({error})"
            ) from error
    features = features.drop(columns=[c for c in config["drop_columns"] if c in features.columns])
    provenance = {
        "source": "openml",
        "openml": {
            "id": config["id"],
            "version": int(dataset.version),
            "name": dataset.name,
            "target": target_name,
            "md5_checksum": dataset.md5_checksum,
        },
    }
    return features, target.rename("target"), provenance
