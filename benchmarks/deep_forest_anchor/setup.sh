#!/usr/bin/env bash
# Make the anchor's own virtualenv: benchmarks/deep_forest_anchor/.venv with deep-forest-py310
# (the maintained fork of LAMDA's deep-forest; PyPI ships it as an sdist, so it is compiled here
# with Cython and the system C compiler). It needs scikit-learn < 1.6, so it never goes into the
# project's .venv. Usage: bash benchmarks/deep_forest_anchor/setup.sh [python3.11]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3.11}"
if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -m pip install --quiet --upgrade pip
"$here/.venv/bin/python" -m pip install --quiet -r "$here/requirements.txt"
"$here/.venv/bin/python" -c "import deepforest, sklearn; print('deep-forest anchor ready: sklearn', sklearn.__version__)"
