"""The project's own files agree with each other: dependencies, commands, layout."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def split(req: str) -> tuple[str, str]:
    """'ipywidgets>=8,<9' -> ('ipywidgets', '<9,>=8'): a name and its sorted specifiers.

    Extras are dropped: conda-forge's `psycopg` is what pip's `psycopg[binary]` installs.
    """
    m = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*(.*)$", req)
    assert m, req
    name = re.sub(r"[-_.]+", "-", m.group(1)).lower()
    specs = ",".join(sorted(s.strip() for s in m.group(2).split(",") if s.strip()))
    return name, specs


def pyproject_requirements() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        reqs += [r for r in extra if not r.startswith("henkit")]  # self-references are extras
    return dict(split(r) for r in reqs)


def environment_requirements() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert env["channels"] == ["conda-forge"]
    reqs: list[str] = []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            reqs += [r for r in dep["pip"] if not r.startswith("-e")]
        elif not dep.startswith(("python", "pip")) or dep.startswith("python-"):
            reqs.append(dep)
    return dict(split(r) for r in reqs)


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    assert environment_requirements() == pyproject_requirements()


def test_environment_python_matches_requires_python():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert f"python{project['requires-python']}" in env["dependencies"]


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks, "the README shows its commands in code blocks"
    # The first block holds exactly the two commands (a comment may say what each does).
    commands = [line.split("#")[0].strip() for line in blocks[0].splitlines() if line.strip()]
    assert commands == ["make serve", "make test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, flags=re.MULTILINE)


def test_engines_import_nothing_from_the_ui_stack():
    banned = re.compile(r"^\s*(from|import)\s+(ipywidgets|plotly|IPython|jupyter|voila|anywidget)",
                        flags=re.MULTILINE)
    for pkg in ("henpen", "hens", "classpool"):
        for path in (ROOT / "henkit" / pkg).rglob("*.py"):
            assert not banned.search(path.read_text()), f"{path} imports the UI stack"
    for name in ("core.py", "results.py"):
        assert not banned.search((ROOT / "henkit" / name).read_text())


def test_every_python_example_in_the_readme_runs(capsys):
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own documentation
    assert "take the" in capsys.readouterr().out  # the Henpen example prints its advice


def locked_versions() -> dict[str, str]:
    """requirements.lock: every package's exact version (the lock holds one per package)."""
    found: dict[str, str] = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if m:
            name = re.sub(r"[-_.]+", "-", m.group(1)).lower()
            assert found.setdefault(name, m.group(2)) == m.group(2), f"{name} locked twice"
    return found


def test_every_dependency_is_locked_within_its_range_and_the_environment_agrees():
    from packaging.specifiers import SpecifierSet

    locked = locked_versions()
    for source, reqs in (("pyproject.toml", pyproject_requirements()),
                         ("environment.yml", environment_requirements())):
        for name, specs in reqs.items():
            assert name in locked, f"{name} ({source}) is not in requirements.lock"
            assert locked[name] in SpecifierSet(specs), (
                f"{name}: the lock's {locked[name]} is outside {source}'s {specs}")


def test_both_readme_commands_install_from_the_lock_and_the_readme_names_voila():
    makefile = (ROOT / "Makefile").read_text()
    installs = re.findall(r"pip install --quiet (.*)", makefile)
    kit_installs = [i for i in installs if '-e "' in i]
    assert len(kit_installs) == 3 and all("-c requirements.lock" in i for i in kit_installs)
    readme = (ROOT / "README.md").read_text()
    assert f"Voilà\n{locked_versions()['voila']}" in readme or \
        f"Voilà {locked_versions()['voila']}" in readme
