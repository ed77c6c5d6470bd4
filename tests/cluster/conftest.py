"""The tests that run the workflow through Slurm run only when asked for by their marker, so that
`make test` (`pytest tests`) never spends minutes on a cluster it happens to find:

    pytest -m slurm_smoke tests/cluster    # a handful of jobs, at most 3 minutes (.ci/run)
    pytest -m slurm_full tests/cluster     # the tiny configuration's every job (about 15 minutes)

Asked for or not, each is skipped where there is no Slurm (test_slurm.require_slurm)."""

import re

import pytest

BY_MARKER = {
    "slurm_smoke": "a handful of quick jobs through Slurm (run only with -m slurm_smoke)",
    "slurm_full": "every job of the tiny configuration through Slurm (run only with -m slurm_full)",
}


def pytest_configure(config):
    for name, text in BY_MARKER.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def pytest_collection_modifyitems(config, items):
    asked = set(re.findall(r"\w+", config.getoption("markexpr") or ""))
    for item in items:
        for name in BY_MARKER:
            if item.get_closest_marker(name) and name not in asked:
                item.add_marker(
                    pytest.mark.skip(reason=f"runs only when asked for: pytest -m {name} tests/cluster")
                )
