# One job per (paper, experiment, method, data set); its folds, repeats, inner model selection
# and sweep values run inside.
# Seeds derive from (root seed, paper, method, data set, fold), so neither job order nor
# --cores changes a number. A job on a scanned data set (WDF's SEMG and MNIST) waits for its
# scan step (rules/scan.smk) and reads the scan from results/cache/scans. The scan's record
# is ancient(): a scan step run on its own after the jobs finished (it finds the scan stored)
# does not make them rerun.


rule train:
    input:
        spec=f"{RESULTS}/runs/{TAG}/specs/{{paper}}/{{experiment}}/{{method}}/{{dataset}}.json",
        data=f"{RESULTS}/data/{{dataset}}.parquet",
        scan=scan_of_job,
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
