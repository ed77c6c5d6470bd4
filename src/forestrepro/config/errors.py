"""The configuration layer's error, importable without Hydra (``cli.known_errors``, ``runner.scan``)."""


class ConfigError(ValueError):
    """A configuration or override the pipeline cannot use; the message says how to fix it."""
