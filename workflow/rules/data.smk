# Load each data set from the configured sources (local mirror, OpenML) into a parquet file
# with its provenance (source, file, sha256, shape, versions). Checksums and shapes are checked.


rule fetch:
    output:
        data=f"{RESULTS}/data/{{dataset}}.parquet",
        provenance=f"{RESULTS}/data/{{dataset}}.provenance.json",
    log:
        f"{RESULTS}/logs/data/{{dataset}}.log",
    params:
        spec=f"{RESULTS}/data/specs/{{dataset}}.json",
        spec_sha256=lambda wc: spec_sha256(f"{RESULTS}/data/specs/{wc.dataset}.json"),
        sources=" ".join(CFG["data"]["sources"]),
        mirror=CFG["data"]["mirror_dir"],
        cache=CFG["data"]["openml_cache"],
    threads: 1
    resources:
        mem_mb=4000,
        runtime=15,
    shell:
        "{FORESTREPRO} fetch --spec {params.spec} --out {output.data} --provenance {output.provenance}"
        " --sources {params.sources} --mirror-dir {params.mirror} --openml-cache {params.cache}"
        " 2> {log}"
