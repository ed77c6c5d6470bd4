# Figures (critical-difference diagrams) and the report of the tag: published vs regenerated.


rule plot_cd:
    input:
        ranks=f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}_ranks.json",
    output:
        png=report(
            f"{FIGURES}/{TAG}/{{paper}}_{{table}}_cd.png",
            caption="../report/cd_diagram.rst",
            category="Figures",
            subcategory="{paper}",
        ),
        pdf=f"{FIGURES}/{TAG}/{{paper}}_{{table}}_cd.pdf",
    log:
        f"{RESULTS}/logs/{TAG}/figures/{{paper}}_{{table}}_cd.log",
    params:
        cli=FORESTREPRO,
        stem=f"{FIGURES}/{TAG}/{{paper}}_{{table}}_cd",
        title=lambda wc: f"{wc.paper.upper()} {wc.table}",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} plot --ranks {input.ranks} --title '{params.title}' --out-stem {params.stem} 2> {log}"


rule paper_figure:
    input:
        runs=lambda wc: runs_of_figure(wc.paper, wc.figure),
    output:
        png=report(
            f"{FIGURES}/{TAG}/{{paper}}_{{figure}}.png",
            caption="../report/paper_figure.rst",
            category="Figures",
            subcategory="{paper}",
        ),
        pdf=f"{FIGURES}/{TAG}/{{paper}}_{{figure}}.pdf",
        claims=f"{FIGURES}/{TAG}/{{paper}}_{{figure}}.claims.json",
    log:
        f"{RESULTS}/logs/{TAG}/figures/{{paper}}_{{figure}}.log",
    params:
        cli=FORESTREPRO,
        spec=f"{RESULTS}/runs/{TAG}/specs/{{paper}}/{{figure}}.figure.json",
        spec_sha256=lambda wc: spec_sha256(f"{RESULTS}/runs/{TAG}/specs/{wc.paper}/{wc.figure}.figure.json"),
        stem=f"{FIGURES}/{TAG}/{{paper}}_{{figure}}",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} figure --spec {params.spec} --runs {input.runs} --out-stem {params.stem} 2> {log}"


REPORT_SPECS = {
    "tables": [f"{RESULTS}/runs/{TAG}/specs/{p}/{t}.table.json" for p, t in TABLES],
    "figures": [f"{RESULTS}/runs/{TAG}/specs/{p}/{f}.figure.json" for p, f in PAPER_FIGURES],
    "datasets": [f"{RESULTS}/data/specs/{DATA_KEY[d]}.json" for d in DATASETS],
    "partial": [PARTIAL_SPEC] if PARTIAL else [],
}


rule report:
    input:
        tables=[f"{RESULTS}/tables/{TAG}/{p}_{t}.csv" for p, t in TABLES],
        figures=[f"{FIGURES}/{TAG}/{p}_{t}_cd.png" for p, t in RANKED_TABLES],
        paper_figures=[f"{FIGURES}/{TAG}/{p}_{f}.png" for p, f in PAPER_FIGURES],
        figure_claims=[f"{FIGURES}/{TAG}/{p}_{f}.claims.json" for p, f in PAPER_FIGURES],
        records=[provenance_of(run) for run in REPORTED_RUNS],
    output:
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
        table_specs=REPORT_SPECS["tables"],
        figure_specs=REPORT_SPECS["figures"],
        dataset_specs=REPORT_SPECS["datasets"],
        spec_sha256=spec_sha256(*(path for paths in REPORT_SPECS.values() for path in paths)),
        stems=[f"{RESULTS}/tables/{TAG}/{p}_{t}" for p, t in TABLES],
        jobs=len(REPORTED_JOBS),
        partial=f"--partial {PARTIAL_SPEC}" if PARTIAL else "",
        committed="--committed" if COMMITTED_REPORT else "",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} report --tag {params.tag} --tables {params.stems} --table-specs {params.table_specs}"
        " --cd-figures {input.figures} --paper-figures {input.paper_figures} --figure-specs {params.figure_specs}"
        " --dataset-specs {params.dataset_specs} --records {input.records} --jobs {params.jobs}"
        " --out-dir {params.out_dir} --embedded-html {output.embedded} {params.partial} {params.committed} 2> {log}"
