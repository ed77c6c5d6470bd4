"""The workflow planning's error, raised before any job runs."""


class PlanError(ValueError):
    """A run the workflow refuses to plan; the message names the jobs or setting and the fix."""
