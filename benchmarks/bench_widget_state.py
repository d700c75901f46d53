"""Widget models and widget state per dashboard (issues 11 and 14): what a page's kernel, server
and browser carry for every viewer before a student has clicked anything.

Every dashboard notebook (notebooks/NN_*.ipynb) runs in a fresh kernel (nbclient), as Voilà
runs it; then a last cell counts the kernel's live widget models and measures their state as
Voilà's page asks for it (the widget manager's `request_states`: one JSON message holding every
model's name and full state, defaults included). Each model costs the kernel a comm and its
serialisation, the server the relaying of its JSON on the websocket, and the browser a model in
its widget manager; the bytes are what one viewer's page receives before it shows a widget.

The figures are counts and bytes, not times: they do not move with the machine's load. The
notebooks run in notebook mode (their own seeds, so the same figures every run); on a dashboard
each viewer's fresh seed changes a few digits, not the models. `--against REV` measures the same
notebooks with the widgets of a git revision (a worktree on the kernel's PYTHONPATH) beside
this tree's: the before and after of one run, even while the notebooks change (a notebook that
needs widgets REV does not have is reported as not run). HENKIT_BENCH_DASHBOARDS=a.ipynb,b.ipynb
measures only some. The browser tests' probe page (one button, one label, one chart: the floor
of issue 14) is measured first, for scale.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

from benchmarks.harness import Result

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
PROBE = REPO / "tests" / "browser" / "probe.ipynb"
CELL_TIMEOUT_S = 300

# The last cell: the models as Voilà's request_states reply holds them (ipywidgets'
# Widget._handle_control_comm_msg), measured as the kernel's JSON packer writes them.
STATS_CELL = """
import collections as _hk_c, json as _hk_j
import henkit as _hk_h
from ipywidgets.widgets.widget import _instances as _hk_i, _remove_buffers as _hk_rb
_hk_full, _hk_kinds, _hk_bytes = {}, _hk_c.Counter(), _hk_c.Counter()
for _hk_w in list(_hk_i.values()):
    _hk_s = {'model_name': _hk_w._model_name, 'model_module': _hk_w._model_module,
             'model_module_version': _hk_w._model_module_version,
             'state': _hk_w.get_state(drop_defaults=False)}
    _hk_full[_hk_w.model_id] = _hk_s
    _hk_kinds[type(_hk_w).__name__] += 1
    _hk_bytes[type(_hk_w).__name__] += len(_hk_j.dumps(_hk_rb(_hk_s)[0], ensure_ascii=False).encode())
_hk_msg = {'method': 'update_states', 'states': _hk_rb(_hk_full)[0]}
print('HENKIT-STATS ' + _hk_j.dumps({
    'models': len(_hk_full), 'bytes': len(_hk_j.dumps(_hk_msg, ensure_ascii=False).encode()),
    'kinds': dict(_hk_kinds), 'kind_bytes': dict(_hk_bytes), 'henkit': _hk_h.__file__}))
"""


def dashboard_notebooks() -> list[Path]:
    """The dashboard notebooks, notebooks/NN_name.ipynb sorted by name (those named in
    HENKIT_BENCH_DASHBOARDS when it is set)."""
    found = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    wanted = os.environ.get("HENKIT_BENCH_DASHBOARDS")
    return [p for p in found if p.name in wanted.split(",")] if wanted else found


def measure(notebook: Path, tree: Path | None = None) -> dict:
    """Run `notebook` in a fresh kernel (henkit from `tree` when given) and return its widget
    figures: models, bytes, models and bytes by kind, and the henkit that ran."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(notebook, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(STATS_CELL))
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="henkit-widget-state-") as tmp:
        # A class pool of its own: the benchmark's rolls and draws go to no real class.
        os.environ["HENKIT_CLASS_DB"] = str(Path(tmp) / "class.sqlite3")
        os.environ.pop("VOILA_BASE_URL", None)  # notebook mode: the notebooks' own seeds
        if tree is not None:
            os.environ["PYTHONPATH"] = str(tree)
        try:
            NotebookClient(nb, timeout=CELL_TIMEOUT_S, kernel_name="python3",
                           extra_arguments=["--log-level=ERROR"],  # no TCP warning per kernel
                           resources={"metadata": {"path": str(notebook.parent)}}).execute()
        finally:
            os.environ.clear()
            os.environ.update(saved)
    for out in nb.cells[-1].outputs:
        for line in out.get("text", "").splitlines():
            if line.startswith("HENKIT-STATS "):
                return json.loads(line.removeprefix("HENKIT-STATS "))
    raise ValueError(f"{notebook.name}: the stats cell printed nothing")


def _kinds(stats: dict, most: int = 6) -> str:
    kinds = sorted(stats["kinds"].items(), key=lambda kv: -stats["kind_bytes"][kv[0]])
    return ", ".join(f"{n} {k} ({stats['kind_bytes'][k] / 1e3:.1f} kB)" for k, n in kinds[:most])


def run(against: str | None = None) -> list[Result]:
    """Widget models and state kB of every dashboard (and of REV's widgets with `against`)."""
    sides: list[tuple[str, Path | None]] = [("", None)]
    if against:
        from benchmarks.bench_engines import worktree

        sides.insert(0, (f" [{against}]", worktree(against)))
    results = []
    for notebook in [PROBE, *dashboard_notebooks()]:
        for label, tree in sides if notebook != PROBE else [("", None)]:
            name = ("probe page (the floor)" if notebook == PROBE else notebook.stem[:34]) + label
            try:
                stats = measure(notebook, tree)
            except Exception as e:  # noqa: BLE001 - a notebook that fails is reported, not fatal
                # A cell's error ends with its last line (e.g. "ModuleNotFoundError: ...").
                text = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # the traceback's colours
                why = ([x for x in text.splitlines() if x.strip()] or [type(e).__name__])[-1]
                results.append(Result(f"{name}: widget models", float("nan"), "models",
                                      note=f"did not run: {why[:200]}"))
                continue
            where = "" if tree is None or stats["henkit"].startswith(str(tree)) else \
                f"; CAUTION: henkit came from {stats['henkit']}, not the worktree"
            results.append(Result(f"{name}: widget models", stats["models"], "models", None,
                                  False, _kinds(stats) + where))
            results.append(Result(f"{name}: widget state", stats["bytes"] / 1e3, "kB", None,
                                  False, "the request_states reply a viewer's page receives"))
    return results
