"""forestrepro: regenerate the tables and figures of a family of random-forest papers.

The library is importable without Snakemake or Hydra: every algorithm takes numpy arrays and
plain arguments. ``forestrepro.cli`` turns a composed configuration into those arguments.
"""

__version__ = "0.1.0"
