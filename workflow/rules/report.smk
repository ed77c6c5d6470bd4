# The report of the tag: its tables (published vs regenerated, ranks, Friedman test, Nemenyi
# critical difference; CSV, Markdown and LaTeX), their critical-difference diagrams, the papers'
# figures and the page itself. One job makes them all, in one process: each is a fraction of a
# second of work, where a process of its own spent two to four seconds importing pandas,
# scipy.stats and matplotlib (a committed report's 8 to 19 such steps took 30 to 65 s; see
# workflow/scripts/committed_reports.py).


# An ablation: a run with overrides under a tag of its own is compared with its baseline, the
# tag of the same profile without overrides (report/baseline.py), unless its report is committed
# (results/report/paper/: the C2RF reports' tags are named configurations of their own). A job
# is changed by the overrides when its spec differs, up to the tag, from the baseline's spec of
# the same job path: the report reads the baseline's current record of each changed job (an
# input) and this run's record of every other, and says which changed job has none yet.
ABLATION = bool(_OVERRIDES) and TAG != CFG["profile"] and not COMMITTED_REPORT
ABLATION_SPEC = f"{RESULTS}/runs/{TAG}/specs/ablation.json"
BASELINE_RUNS = []  # the baseline's records of the changed jobs the report reads
if ABLATION:
    from forestrepro.config.jobs import job_spec_path
    from forestrepro.record.reuse import content_digest

    BASELINE_TAG = CFG["profile"]
    # the papers of this run: overrides of no result (data, resources) leave every spec as it is
    _, _, _BASE_JOBS, _BASE_SPECS = cached_plan(
        [f"papers=[{','.join(CFG['papers'])}]"],
        profile=BASELINE_TAG,
        tag=BASELINE_TAG,
        conf_dir=Path(workflow.basedir) / "conf",
        results=RESULTS,
        before_planning=_no_compilation,
    )
    _BASE_JOB = {job.path: job for job in _BASE_JOBS}

    def _content(spec_files, tag, job):
        """What ``job`` computes under ``tag``: its planned spec's digest without the tag."""
        return content_digest(json.loads(spec_files[job_spec_path(Path(RESULTS), tag, job)]))

    def _baseline_record(job):
        """The baseline's current record of ``job`` (its CSV), or why there is none."""
        base = _BASE_JOB.get(job.path)
        if base is None:
            return None, f"no such job under tag {BASELINE_TAG}"
        run = f"{RESULTS}/runs/{BASELINE_TAG}/{job.path}.csv"
        status = record_status(run, base.spec_digest, _HASHES, _EQUIVALENCES)
        if status.current:
            return run, None
        if status.state == "missing":
            return None, f"no record under tag {BASELINE_TAG} yet"
        return None, f"its record under tag {BASELINE_TAG} is stale ({status.reason})"

    _CHANGED = sorted(
        job.path for job in REPORTED_JOBS
        if job.path not in _BASE_JOB or _content(SPEC_FILES, TAG, job) != _content(_BASE_SPECS, BASELINE_TAG, _BASE_JOB[job.path])
    )
    _BASELINE = {path: _baseline_record(JOB_BY_PATH[path]) for path in _CHANGED}
    BASELINE_RUNS = sorted(run for run, _ in _BASELINE.values() if run)
    SPEC_FILES[Path(ABLATION_SPEC)] = json.dumps(
        {"baseline": BASELINE_TAG, "overrides": _OVERRIDES, "changed": _CHANGED,
         "missing": {path: why for path, (_, why) in _BASELINE.items() if why},
         # each experiment's rows as the baseline has them, in the order of REPORT_RUNS
         "runs": {experiment: [_BASELINE[job.path][0] if job.path in _BASELINE else record_of(job)
                               for job in REPORTED_JOBS if f"{job.paper}/{job.experiment}" == experiment
                               and shown(job) and (job.path not in _BASELINE or _BASELINE[job.path][0])]
                  for experiment in REPORT_RUNS}},
        indent=1, sort_keys=True) + "\n"


REPORT_SPECS = {
    "tables": [f"{RESULTS}/runs/{TAG}/specs/{p}/{t}.table.json" for p, t in TABLES],
    "figures": [f"{RESULTS}/runs/{TAG}/specs/{p}/{f}.figure.json" for p, f in PAPER_FIGURES],
    "datasets": [f"{RESULTS}/data/specs/{DATA_KEY[d]}.json" for d in DATASETS],
    "partial": [PARTIAL_SPEC] if PARTIAL else [],
    "ablation": [ABLATION_SPEC] if ABLATION else [],
}


rule report:
    input:
        runs=[run for runs in REPORT_RUNS.values() for run in runs],
        records=[provenance_of(run) for run in REPORTED_RUNS],
        baseline=BASELINE_RUNS,
    output:
        tables=[
            report(
                f"{RESULTS}/tables/{TAG}/{p}_{t}.csv",
                caption="../report/table.rst",
                category="Tables",
                subcategory=p,
                labels={"paper": p, "table": t},
            )
            for p, t in TABLES
        ],
        table_texts=[f"{RESULTS}/tables/{TAG}/{p}_{t}.{ext}" for p, t in TABLES for ext in ("md", "tex")],
        ranks=[f"{RESULTS}/tables/{TAG}/{p}_{t}_ranks.json" for p, t in TABLES],
        cd_figures=[
            report(
                f"{FIGURES}/{TAG}/{p}_{t}_cd.png",
                caption="../report/cd_diagram.rst",
                category="Figures",
                subcategory=p,
                labels={"paper": p, "figure": f"{t} (critical differences)"},
            )
            for p, t in RANKED_TABLES
        ],
        cd_pdfs=[f"{FIGURES}/{TAG}/{p}_{t}_cd.pdf" for p, t in RANKED_TABLES],
        paper_figures=[
            report(
                f"{FIGURES}/{TAG}/{p}_{f}.png",
                caption="../report/paper_figure.rst",
                category="Figures",
                subcategory=p,
                labels={"paper": p, "figure": f},
            )
            for p, f in PAPER_FIGURES
        ],
        paper_figure_extras=[f"{FIGURES}/{TAG}/{p}_{f}.{ext}" for p, f in PAPER_FIGURES for ext in ("pdf", "claims.json")],
        md=f"{REPORT_DIR}/index.md",
        html=f"{REPORT_DIR}/index.html",
        # the same page with its figures embedded: snakemake --report shows a page on its own,
        # without the figures/ beside it
        embedded=report(
            f"{RESULTS}/snakemake_report/{TAG}/{Path(REPORT_DIR).name}.html",
            caption="../report/report.rst",
            category="Report",
        ),
    log:
        f"{RESULTS}/logs/{TAG}/report.log",
    params:
        cli=FORESTREPRO,
        tag=TAG,
        out_dir=lambda wc, output: os.path.dirname(output.md),
        runs=" ".join(f"--runs {experiment} {' '.join(runs)}" for experiment, runs in REPORT_RUNS.items()),
        table_specs=REPORT_SPECS["tables"],
        figure_specs=REPORT_SPECS["figures"],
        dataset_specs=REPORT_SPECS["datasets"],
        spec_sha256=spec_sha256(*(path for paths in REPORT_SPECS.values() for path in paths)),
        stems=[f"{RESULTS}/tables/{TAG}/{p}_{t}" for p, t in TABLES],
        jobs=len(REPORTED_JOBS),
        partial=f"--partial {PARTIAL_SPEC}" if PARTIAL else "",
        committed="--committed" if COMMITTED_REPORT else "",
        covers=f"--covers {shlex.quote(COVERS)}" if COVERS else "",
        ablation=f"--ablation {ABLATION_SPEC}" if ABLATION else "",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} report --tag {params.tag} {params.runs} --tables {params.stems} --table-specs {params.table_specs}"
        " --cd-figures {output.cd_figures} --paper-figures {output.paper_figures} --figure-specs {params.figure_specs}"
        " --dataset-specs {params.dataset_specs} --records {input.records} --jobs {params.jobs}"
        " --out-dir {params.out_dir} --embedded-html {output.embedded} {params.partial} {params.committed}"
        " {params.covers} {params.ablation} 2> {log}"
