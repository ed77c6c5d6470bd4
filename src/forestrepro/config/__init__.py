"""Composition, validation and job planning of the Hydra configuration.

This is the one place that touches Hydra. It turns ``conf/`` plus the user's overrides into a
plain, validated dictionary, a result tag and one job specification (a plain JSON file) per
(paper, method, data set). Everything downstream reads plain dictionaries.
"""

from .compose import ConfigError, compose_config, repo_root
from .jobs import JobSpec, compute_tag, plan_jobs, plan_spec_files, write_job_specs, write_spec_files

__all__ = [
    "ConfigError",
    "JobSpec",
    "compose_config",
    "compute_tag",
    "plan_jobs",
    "plan_spec_files",
    "repo_root",
    "write_job_specs",
    "write_spec_files",
]
