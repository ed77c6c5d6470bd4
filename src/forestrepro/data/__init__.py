"""Data layer: the data set registry (``conf/dataset/*.yaml``, packaged as ``forestrepro/datasets``),
parsers of the mirror's formats, the mirror and OpenML sources, and the parquet + provenance
files the pipeline reads. The workflow's fetch step is ``forestrepro fetch`` (``runner.fetch``).

Public API: ``DatasetError``, ``list_datasets``, ``load_spec``, ``load_dataset``,
``LoadedDataset``, ``write_dataset``, ``read_dataset``, ``apply_paper_target``.
"""

from .._lazy import lazy_exports

__all__ = [
    "DatasetError",
    "LoadedDataset",
    "apply_paper_target",
    "list_datasets",
    "load_dataset",
    "load_spec",
    "read_dataset",
    "write_dataset",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "DatasetError": "errors",
        "LoadedDataset": "loader",
        "load_dataset": "loader",
        "list_datasets": "registry",
        "load_spec": "registry",
        "read_dataset": "store",
        "write_dataset": "store",
        "apply_paper_target": "targets",
    },
)
