"""ensembles."""
