# The report of the tag: its tables (published vs regenerated, ranks, Friedman test, Nemenyi
# critical difference; CSV, Markdown and LaTeX), their critical-difference diagrams, the papers'
# figures and the page itself. One job makes them all, in one process: each is a fraction of a
# second of work, where a process of its own spent two to four seconds importing pandas,
# scipy.stats and matplotlib (a committed report's 8 to 19 such steps took 30 to 65 s; see
# report/committed.py).


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
        show=f"--show {' '.join(CFG['report']['show'])}" if CFG["report"].get("show") else "",
        title=f"--title {shlex.quote(CFG['report']['title'])}" if CFG["report"].get("title") else "",
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
        " {params.covers} {params.ablation} {params.show} {params.title} 2> {log}"
