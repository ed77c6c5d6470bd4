# Regenerated tables: mean ± std per cell beside the published value, ranks, Friedman test,
# Nemenyi critical difference. CSV, Markdown and LaTeX (booktabs).


rule table:
    input:
        runs=lambda wc: runs_of_table(wc.paper, wc.table),
    output:
        csv=report(
            f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}.csv",
            caption="../report/table.rst",
            category="Tables",
            subcategory="{paper}",
        ),
        md=f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}.md",
        tex=f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}.tex",
        ranks=f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}_ranks.json",
    log:
        f"{RESULTS}/logs/{TAG}/tables/{{paper}}_{{table}}.log",
    params:
        cli=FORESTREPRO,
        spec=f"{RESULTS}/runs/{TAG}/specs/{{paper}}/{{table}}.table.json",
        spec_sha256=lambda wc: spec_sha256(f"{RESULTS}/runs/{TAG}/specs/{wc.paper}/{wc.table}.table.json"),
        stem=f"{RESULTS}/tables/{TAG}/{{paper}}_{{table}}",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} table --spec {params.spec} --runs {input.runs} --out-stem {params.stem} 2> {log}"
