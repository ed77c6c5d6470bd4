"""What the Snakemake workflow plans from a tag's jobs and their records, as plain functions.

``workflow/rules/common.smk`` wires these into Snakemake (wildcard constraints, input functions;
its onstart guard is ``record/run_guard.py``); ``forestrepro plan`` prints the same states. One
job per module:

- ``states``: each job's record current, copied from the same job under another tag, or to
  train; the guard that never replaces a committed record of another spec;
- ``only``: the jobs ``--config only=`` lets a run train, and what it leaves out of the report;
- ``contents``: the tables and figures a report holds, which records it shows (a partial
  report's complete cells), and why each job it leaves out has no record;
- ``ablation``: a run with overrides beside its baseline tag's records;
- ``data``: each data set's files and where the fetch step reads them;
- ``run_config``: the ``--config`` settings.

Errors are ``PlanError`` (``errors.py``): one line, which the workflow prints before any job.
"""
