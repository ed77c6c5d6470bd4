# forestrepro: data -> train -> statistics -> report, for the papers in ../shared/papers.
#
#   snakemake --cores 2                                  # quick profile (default), tag "quick"
#   snakemake --cores 16 --config profile=paper          # the papers' settings, tag "paper"
#   snakemake --cores 16 --config profile=paper overrides='["method.rf.params.n_estimators=500"]'
#   snakemake --cores 16 --config tag=rf500 overrides='[...]'   # name an ablation yourself
#
# The configuration is composed with Hydra from conf/ (see workflow/rules/common.smk).

report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/scan.smk"
include: "workflow/rules/train.smk"
include: "workflow/rules/report.smk"


# Cheap steps run in the Snakemake process itself, never through a cluster's queue: reading
# the mirror and the report (its tables and figures) take seconds (training and scans are the work).
localrules:
    all,
    records,
    stale_record,
    outside_only,
    reuse,
    fetch,
    report,


# The report and every file it is made from, so a deleted table or figure is made again.
# With --config only=, the records of its jobs and the (partial) report of every finished job,
# or those records alone while they complete no cell of the report (common.smk, only=).
rule all:
    input:
        [f"{REPORT_DIR}/index.md", f"{REPORT_DIR}/index.html"] if TABLES else [],
        [f"{RESULTS}/tables/{TAG}/{p}_{t}.{ext}" for p, t in TABLES for ext in ("csv", "md", "tex")],
        [f"{FIGURES}/{TAG}/{p}_{t}_cd.{ext}" for p, t in RANKED_TABLES for ext in ("png", "pdf")],
        [f"{FIGURES}/{TAG}/{p}_{f}.{ext}" for p, f in PAPER_FIGURES for ext in ("png", "pdf")],
        only_targets() if ONLY_GIVEN else [] if PARTIAL else stale_markers(REPORTED_JOBS),
    default_target: True
