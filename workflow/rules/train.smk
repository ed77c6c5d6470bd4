# One job per (paper, experiment, method, data set); its folds, repeats, inner model selection
# and sweep values run inside.
# Seeds derive from (root seed, paper, method, data set, fold), so neither job order nor
# --cores changes a number. Scanned splits (WDF's SEMG and MNIST) are stored under
# results/cache/scans, keyed by content, and shared by the methods (ensembles/scan_cache.py).


rule train:
    input:
        spec=f"{RESULTS}/runs/{TAG}/specs/{{paper}}/{{experiment}}/{{method}}/{{dataset}}.json",
        data=f"{RESULTS}/data/{{dataset}}.parquet",
    output:
        runs=f"{RESULTS}/runs/{TAG}/{{paper}}/{{experiment}}/{{method}}/{{dataset}}.parquet",
        provenance=f"{RESULTS}/runs/{TAG}/{{paper}}/{{experiment}}/{{method}}/{{dataset}}.provenance.json",
    log:
        f"{RESULTS}/logs/{TAG}/train/{{paper}}/{{experiment}}/{{method}}/{{dataset}}.log",
    threads: 4
    resources:
        mem_mb=lambda wc: method_resources(wc.method, "mem_mb", 2000),
        runtime=lambda wc: method_resources(wc.method, "runtime_min", 60),
    shell:
        "{FORESTREPRO} train --spec {input.spec} --data {input.data} --out {output.runs}"
        " --threads {threads} 2> {log}"
