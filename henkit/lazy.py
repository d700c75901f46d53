"""Packages whose public names are imported from their modules when first asked for (PEP 562).

A dashboard kernel's import time is part of how long its page takes to open: a lesson that
imports one module of a package should not pay for importing the others. `henkit.henpen`,
`henkit.hens` and `henkit.widgets` list each public name's module and hand the list to
`lazy_package`, which gives them the module-level `__getattr__` and `__dir__` that import it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import Any

__all__ = ["lazy_package"]


def lazy_package(package: str, homes: Mapping[str, str], *, submodules: bool = False
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The `__getattr__` and `__dir__` of the (loaded) package `package` whose public names are
    imported on first use, each from its module (`homes`: name -> submodule); with
    `submodules`, other submodules are reachable as attributes too."""
    module = sys.modules.get(package) if isinstance(package, str) else None
    if module is None or not hasattr(module, "__path__"):
        raise ValueError(f"lazy_package needs the name of a loaded package, not {package!r}"[:200])
    if not isinstance(homes, Mapping) or not all(
            isinstance(k, str) and k.isidentifier() and isinstance(v, str) and v.isidentifier()
            for k, v in homes.items()):
        raise ValueError("homes must map each public name to the name of its submodule")
    homes = dict(homes)
    namespace = vars(module)

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is not None:
            value = getattr(import_module(f"{package}.{home}"), name)
        elif (submodules and isinstance(name, str) and name.isidentifier()
              and not name.startswith("_") and find_spec(f"{package}.{name}") is not None):
            value = import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        namespace[name] = value  # later lookups find it without this call
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *homes})

    # Importing a submodule binds it to its package's attribute of the same name (Python's
    # import system does that). An eager package then overwrote it with the public name it
    # imported from there (`henkit.henpen.simulate`, the function); a lazy one does not import
    # it, so the binding of a public name's submodule is refused here instead.
    class LazyPackage(ModuleType):
        def __setattr__(self, name: str, value: Any) -> None:
            if name in homes and isinstance(value, ModuleType):
                return
            super().__setattr__(name, value)

    module.__class__ = LazyPackage
    return __getattr__, __dir__
