# One job per (paper, experiment, method, data set); its folds, repeats, inner model selection
# and sweep values run inside. Under a protocol with job_per_repeat, one job per repeat
# (<paper>/<experiment>/<method>/<dataset>/repeat<k>), so a cell of long splits is computed and
# committed split by split. It writes the job's run record (CSV + provenance JSON,
# forestrepro.record), which is committed for the tags of the committed reports.
# Seeds derive from (root seed, paper, method, data set, fold), so neither job order nor
# --cores changes a number. A job on a scanned data set (WDF's SEMG and MNIST) waits for its
# scan step (rules/scan.smk) and reads the scan from the scan store outside the work tree
# ($FORESTREPRO_CACHE/scans, by default ~/.cache/forestrepro/scans: cascade/scan_cache.py).
# A job whose record is current is finished: this rule does not match its record's path
# (PENDING_JOBS, common.smk), so nothing reruns it; delete a record to recompute it.
# A job that fails leaves a failure note beside where its record would be
# (<job>.failed.txt: the error's last line and the exit status), which a partial report
# shows and which can be committed like a record; its next attempt removes it.


# Compute records without building the report: `snakemake records`, or a subset of the jobs
# with --config only='rcrf/main/*' (a glob over job paths). A record that is current is an
# input like any source file, so asking again does nothing.
rule records:
    input:
        [record_of(job) for job in ONLY_JOBS],
        stale_markers(ONLY_JOBS),


rule train:
    input:
        unpack(train_inputs),
    output:
        runs=f"{RESULTS}/runs/{TAG}/{{job}}.csv",
        provenance=f"{RESULTS}/runs/{TAG}/{{job}}.provenance.json",
    log:
        f"{RESULTS}/logs/{TAG}/train/{{job}}.log",
    # Snakemake's measurement of the job (wall and CPU seconds, peak memory): what it used of
    # what it reserved (benchmarks/README.md); missing, it reruns nothing
    benchmark:
        f"{RESULTS}/benchmarks/{TAG}/train/{{job}}.tsv"
    wildcard_constraints:
        job=PENDING_JOBS,
    params:
        cli=FORESTREPRO,
        tag=TAG,
    threads: train_threads
    resources:
        mem_mb=lambda wc: method_resources(JOB_BY_PATH[wc.job].method, "mem_mb", 2000),
        runtime=lambda wc: method_resources(JOB_BY_PATH[wc.job].method, "runtime_min", 60),
    conda:
        CONDA_ENV
    # One attempt at the job (forestrepro train --job, record/attempt.py): its committed pieces
    # (forestrepro pieces keep) go into results/cache/ first, so that it resumes from what a session
    # elsewhere finished; it trains, writing down the library files it imports and the cascade
    # parts it keeps (its piece log, for forestrepro pieces keep); once its record is written its
    # pieces go. A failure or a stop (TERM, INT) writes its failure note and keeps its pieces.
    # Its log gets the restore's lines and its stderr; its stdout, left to Snakemake's terminal,
    # gets its progress lines ("fold 3 of 10 done · ... elapsed · about ... left", progress.py)
    shell:
        "{params.cli} train --tag {params.tag} --job {wildcards.job} --data {input.data} --threads {threads} --log {log}"


# A job with a record of the same content under another tag (REUSABLE, common.smk;
# forestrepro.record.reuse) copies it instead of training: the rows byte for byte, the
# provenance with this job's spec and the donor's path.
rule reuse:
    input:
        unpack(reuse_inputs),
    output:
        runs=f"{RESULTS}/runs/{TAG}/{{job}}.csv",
        provenance=f"{RESULTS}/runs/{TAG}/{{job}}.provenance.json",
    log:
        f"{RESULTS}/logs/{TAG}/reuse/{{job}}.log",
    wildcard_constraints:
        job=REUSED_JOBS,
    params:
        cli=FORESTREPRO,
        spec=lambda wc: f"{RESULTS}/runs/{TAG}/specs/{wc.job}.json",
    threads: 1
    resources:
        mem_mb=200,
        runtime=1,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} reuse --record {input.runs} --spec {params.spec} --out {output.runs} 2> {log}"


# Why a stale record reruns: a note that exists only while its job runs (temp), so the next
# change makes a new one.
rule stale_record:
    output:
        temp(f"{RESULTS}/logs/{TAG}/stale/{{job}}.txt"),
    log:
        f"{RESULTS}/logs/{TAG}/stale/{{job}}.log",
    params:
        reason=lambda wc: RECORDS[wc.job].reason,
    message:
        "record of {wildcards.job} is stale: {params.reason}"
    wildcard_constraints:
        job="[A-Za-z0-9_]+/[A-Za-z0-9_]+/[A-Za-z0-9_]+/[A-Za-z0-9_]+(/repeat[0-9]+)?",
    threads: 1
    resources:
        mem_mb=100,
        runtime=1,
    conda:
        CONDA_ENV
    shell:
        "echo 'record of {wildcards.job} is stale:' {params.reason:q} > {output} 2> {log}"


# The record of a job outside --config only= is never trained (only= bounds the jobs a run
# trains, whatever the target): a target that needs one is refused while Snakemake plans, before
# any job runs, naming the job (its input function raises; its command never runs).
rule outside_only:
    input:
        refuse_outside_only,
    output:
        runs=f"{RESULTS}/runs/{TAG}/{{job}}.csv",
        provenance=f"{RESULTS}/runs/{TAG}/{{job}}.provenance.json",
    log:
        f"{RESULTS}/logs/{TAG}/outside_only/{{job}}.log",
    wildcard_constraints:
        job=OUTSIDE_ONLY_JOBS,
    threads: 1
    resources:
        mem_mb=100,
        runtime=1,
    conda:
        CONDA_ENV
    shell:
        "echo '{wildcards.job} is outside --config only=' > {log}; exit 1"


# A table or figure that only= leaves without a finished cell is not in this run's report: asked
# for as a target, it is refused while Snakemake plans, naming only= and the experiment whose jobs
# it needs (its input function raises: LEFT_OUT_BY_ONLY, common.smk), rather than Snakemake's
# "No rule to produce".
rule outside_only_report:
    input:
        refuse_left_out_by_only,
    output:
        "{path}",
    log:
        f"{RESULTS}/logs/{TAG}/outside_only/{{path}}.log",
    wildcard_constraints:
        path=LEFT_OUT_BY_ONLY_PATHS,
    threads: 1
    resources:
        mem_mb=100,
        runtime=1,
    conda:
        CONDA_ENV
    shell:
        "echo '{output} is outside --config only=' > {log}; exit 1"
