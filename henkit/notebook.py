"""One call at the top of every notebook: charts render offline and the same way everywhere."""

from __future__ import annotations

from typing import Any

from henkit.display import figure_bundle, on_dashboard


def setup() -> None:
    """Show every plotly figure through `henkit.display`: offline, deterministic, fast.

    In JupyterLab (and under nbval) a figure is plotly's mimetype bundle, the figure's JSON,
    which nbval can compare. On a Voilà dashboard it goes inside an ipywidgets Output, as the
    widgets' charts do, so that it is drawn with the widgets, after the page is usable; the
    Output is kept alive (a dropped widget closes its model while the page shows it).
    IPython's display hook for figures is set directly, not plotly's renderer (see
    henkit.display for why); plotly's figures display themselves through that hook. Outside
    IPython (a script running a notebook's code) there is no hook to set: nothing happens.
    """
    from IPython import get_ipython
    from plotly.basedatatypes import BaseFigure

    shell = get_ipython()
    if shell is None:
        return
    shell.display_formatter.ipython_display_formatter.for_type(BaseFigure, _show)


def _show(fig: Any) -> None:
    from IPython.display import display

    if not on_dashboard():
        display(figure_bundle(fig), raw=True)
        return
    import ipywidgets as w

    from henkit.widgets.common import keep_alive

    out = w.Output()
    out.outputs = ({"output_type": "display_data", "data": figure_bundle(fig), "metadata": {}},)
    keep_alive(out)
    display(out)
