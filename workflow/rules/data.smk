# Load each data set from the configured sources (local mirror, OpenML) into a parquet file
# with its provenance (source, file, sha256, shape, versions). Checksums and shapes are checked.
# The files are named <data set>-<digest of its configuration> (config.jobs.data_key), so a
# changed configuration makes new files and leaves the old ones alone; the sources, the
# mirror's path and the OpenML cache come from the environment (common.smk), not params, so
# reading the same files from elsewhere (or offline) reruns nothing, and a failed fetch can
# never delete a good file.


rule fetch:
    output:
        data=f"{RESULTS}/data/{{data}}.parquet",
        provenance=f"{RESULTS}/data/{{data}}.provenance.json",
    log:
        f"{RESULTS}/logs/data/{{data}}.log",
    params:
        cli=FORESTREPRO,
        spec=f"{RESULTS}/data/specs/{{data}}.json",
        spec_sha256=lambda wc: spec_sha256(f"{RESULTS}/data/specs/{wc.data}.json"),
    threads: 1
    resources:
        mem_mb=4000,
        runtime=15,
    conda:
        CONDA_ENV
    shell:
        "{params.cli} fetch --spec {params.spec} --out {output.data} --provenance {output.provenance}"
        ' --sources $FORESTREPRO_DATA_SOURCES --mirror-dir "$FORESTREPRO_MIRROR_DIR"'
        ' --openml-cache "$FORESTREPRO_OPENML_CACHE"'
        " 2> {log}"
