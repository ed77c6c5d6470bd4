"""ensembles."""

from forestrepro.ensembles.forest import PluggableForestClassifier  # noqa: F401
