"""Data layer: the data set registry (``conf/dataset/*.yaml``), parsers of the mirror's formats,
the mirror and OpenML sources, and the parquet + provenance files the pipeline reads.

Public API: ``DatasetError``, ``list_datasets``, ``load_spec``, ``load_dataset``,
``LoadedDataset``, ``write_dataset``, ``read_dataset``, ``apply_paper_target``, ``fetch``.
"""

from .errors import DatasetError
from .fetch_rule import fetch
from .loader import LoadedDataset, load_dataset
from .registry import list_datasets, load_spec
from .store import read_dataset, write_dataset
from .targets import apply_paper_target

__all__ = [
    "DatasetError",
    "LoadedDataset",
    "apply_paper_target",
    "fetch",
    "list_datasets",
    "load_dataset",
    "load_spec",
    "read_dataset",
    "write_dataset",
]
