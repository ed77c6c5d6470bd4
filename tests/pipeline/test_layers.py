"""The package's floors (docs/pages/architecture.md): every import points down or across, never
up. Read from the source with ``ast``, so an import inside a function counts too."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "forestrepro"

# each top-level module or package of forestrepro and its floor (the architecture note's)
FLOORS = {
    **dict.fromkeys(["__init__", "_lazy", "_validation", "resources", "io", "checkpoint"], 1),
    **dict.fromkeys(["trees", "ensembles", "cascade", "c2rf", "kernel_svm", "stats", "data"], 2),
    **dict.fromkeys(["methods", "evaluation", "extensions"], 3),
    **dict.fromkeys(["runner", "record", "report", "progress"], 4),
    **dict.fromkeys(["config", "workflow", "cli"], 5),
}
# The one import up a floor: runner.scan names config.errors' ConfigError (a module that imports
# nothing). runner.py is in every record's code digest, so moving the import would make every
# committed record stale for a change that cannot change a number.
ALLOWED = {("runner.py", "config.errors")}


def imports(path: Path) -> list[str]:
    """The ``forestrepro`` modules ``path`` imports, relative to the package (``config.jobs``)."""
    relative = path.relative_to(PACKAGE).with_suffix("").parts
    package = list(relative[:-1]) if relative[-1] != "__init__" else list(relative[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            if node.module:
                found.append(".".join([*base, node.module]))
            else:
                found += [".".join([*base, alias.name]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("forestrepro."):
            found.append(node.module.removeprefix("forestrepro."))
        elif isinstance(node, ast.Import):
            found += [
                a.name.removeprefix("forestrepro.") for a in node.names if a.name.startswith("forestrepro.")
            ]
    return [name for name in found if name]


def floor(module: str) -> int:
    top = module.split(".")[0].split("/")[0].removesuffix(".py")
    if top not in FLOORS:
        raise AssertionError(f"{module}: not on any floor; add it to FLOORS and the architecture note")
    return FLOORS[top]


def upward_imports() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.relative_to(PACKAGE).as_posix()
        for module in imports(path):
            if floor(module) > floor(source) and (source, module) not in ALLOWED:
                found.append(f"{source} imports {module}")
    return found


def test_every_import_points_down_or_across():
    assert upward_imports() == []


def test_an_import_up_a_floor_is_found(tmp_path, monkeypatch):
    # the check can fail: record/ importing config.jobs (as record/reuse.py once did) is found
    fake = tmp_path / "forestrepro"
    (fake / "record").mkdir(parents=True)
    (fake / "record" / "reuse.py").write_text("def f():\n    from ..config.jobs import job_spec_path\n")
    (fake / "config").mkdir()
    (fake / "config" / "jobs.py").write_text("")
    monkeypatch.setitem(globals(), "PACKAGE", fake)
    assert upward_imports() == ["record/reuse.py imports config.jobs"]


def test_every_module_has_a_floor():
    code = {p.name.removesuffix(".py") for p in PACKAGE.glob("*.py")}
    code |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert sorted(code - set(FLOORS)) == []
