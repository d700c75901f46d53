"""henkit.hens, henkit.henpen and henkit.widgets import their modules when a name is first asked
for (issue 14: a dashboard's kernel imports only what its lesson uses). Every public name must
still be the object its module defines, and submodules must still be reachable."""

import importlib
import subprocess
import sys
from types import ModuleType

import pytest

PACKAGES = ["henkit.hens", "henkit.henpen", "henkit.widgets"]


@pytest.mark.parametrize("name", PACKAGES)
def test_every_public_name_is_the_object_its_module_defines(name):
    package = importlib.import_module(name)
    for public in package.__all__:
        value = getattr(package, public)
        home = importlib.import_module(f"{name}.{package._HOME[public]}")
        assert value is getattr(home, public), public
        assert public in dir(package)
    star: dict = {}
    exec(f"from {name} import *", star)  # noqa: S102 - a fixed import statement
    assert {k for k in star if not k.startswith("__")} == set(package.__all__)


@pytest.mark.parametrize("name", ["henkit.hens", "henkit.henpen"])
def test_simulate_stays_the_function_after_its_module_is_imported(name):
    importlib.import_module(f"{name}.simulate")
    package = importlib.import_module(name)
    assert callable(package.simulate) and not isinstance(package.simulate, ModuleType)
    assert package.odds is importlib.import_module(f"{name}.odds")  # a submodule by attribute


@pytest.mark.parametrize("name", PACKAGES)
def test_an_unknown_name_raises_attribute_error(name):
    package = importlib.import_module(name)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        package.no_such_name  # noqa: B018 - the lookup itself is tested
    with pytest.raises(ImportError):
        exec(f"from {name} import no_such_name", {})  # noqa: S102


def loaded_after(code: str) -> set[str]:
    """The henkit modules a fresh interpreter has loaded after running `code`."""
    out = subprocess.run(
        [sys.executable, "-c", code + "\nimport sys\nprint(' '.join(m for m in sys.modules "
         "if m.startswith('henkit')))"], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_a_henpen_lesson_does_not_import_the_hens_bots_and_a_hens_one_not_the_henpen_bots():
    dice = loaded_after("from henkit.widgets import DiceTray\nfrom henkit.henpen.dice import WORM")
    assert "henkit.widgets.dice_tray" in dice
    assert not {"henkit.hens.bots", "henkit.hens.odds", "henkit.widgets.arena"} & dice
    cards = loaded_after("from henkit.hens import card\ncard('Pa3')")
    assert "henkit.hens.cards" in cards
    assert not {"henkit.hens.bots", "henkit.hens.state", "henkit.henpen.bots"} & cards


def test_lazy_package_refuses_what_is_not_a_loaded_package_or_a_name_map():
    from henkit.lazy import lazy_package

    for bad in ("henkit.no_such_package", "henkit.checks", 3, None):
        with pytest.raises(ValueError, match="loaded package"):
            lazy_package(bad, {})  # type: ignore[arg-type]
    throwaway = ModuleType("henkit_lazy_test_pkg")
    throwaway.__path__ = []  # type: ignore[attr-defined]
    sys.modules[throwaway.__name__] = throwaway
    try:
        for bad_homes in ([("a", "b")], {"a": 1}, {1: "b"}, {"a b": "c"}, {"a": "b.c"}):
            with pytest.raises(ValueError, match="homes"):
                lazy_package(throwaway.__name__, bad_homes)  # type: ignore[arg-type]
        # The package is left as it was by a refused call.
        assert type(throwaway) is ModuleType
        get, listing = lazy_package(throwaway.__name__, {"dumps": "json_like"})
        assert "dumps" in listing()
        with pytest.raises(AttributeError, match="no attribute 'missing'"):
            get("missing")
    finally:
        del sys.modules[throwaway.__name__]
