"""Composition, validation and job planning of the Hydra configuration.

This is the one place that touches Hydra. It turns ``conf/`` plus the user's overrides into a
plain, validated dictionary, a result tag and one job specification (a plain JSON file) per
(paper, method, data set). Everything downstream reads plain dictionaries. Names are imported
on first use (``_lazy.py``): ``ConfigError`` (``config.errors``) loads no Hydra, so a training
job that names it does not import Hydra.
"""

from .._lazy import lazy_exports

__all__ = [
    "ConfigError",
    "JobSpec",
    "compose_config",
    "compute_tag",
    "default_conf_dir",
    "plan_jobs",
    "plan_spec_files",
    "write_job_specs",
    "write_spec_files",
]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ConfigError": "errors",
        "compose_config": "compose",
        "default_conf_dir": "compose",
        "JobSpec": "jobs",
        "compute_tag": "jobs",
        "plan_jobs": "jobs",
        "plan_spec_files": "jobs",
        "write_job_specs": "jobs",
        "write_spec_files": "jobs",
    },
)
