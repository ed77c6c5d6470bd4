# Multi-grained scanning as a step of its own: one job per scan (config.jobs.scan_name), run
# from the spec of the first job that reads it, before the split's DF, WDF and WDF-oob jobs.
# It writes the scan into the content-keyed scan store outside the work tree
# ($FORESTREPRO_CACHE/scans, by default ~/.cache/forestrepro/scans; cascade/scan_cache.py),
# in pieces that a stopped or later run resumes from, and a small record of it here; the
# cascade jobs then read the
# store, so none of them holds its cores while another scans. A job whose scan is not in the
# store (removed by hand) scans it itself, under the store's lock.


rule scan:
    input:
        data=lambda wc: data_of(SCAN_JOBS[wc.scan].dataset),
    output:
        f"{RESULTS}/runs/{TAG}/scans/{{scan}}.json",
    log:
        f"{RESULTS}/logs/{TAG}/scan/{{scan}}.log",
    benchmark:
        f"{RESULTS}/benchmarks/{TAG}/scan/{{scan}}.tsv"
    params:  # the scan's name holds the digest of what it depends on (config.jobs.scan_name)
        cli=FORESTREPRO,
        spec=lambda wc: f"{RESULTS}/runs/{TAG}/specs/{SCAN_JOBS[wc.scan].path}.json",
    threads: lambda wc: method_threads(SCAN_JOBS[wc.scan].method)
    resources:
        mem_mb=lambda wc: method_resources(SCAN_JOBS[wc.scan].method, "mem_mb", 2000),
        runtime=lambda wc: method_resources(SCAN_JOBS[wc.scan].method, "runtime_min", 60),
    conda:
        CONDA_ENV
    shell:
        "{params.cli} scan --spec {params.spec} --data {input.data} --out {output} --threads {threads} 2> {log}"
