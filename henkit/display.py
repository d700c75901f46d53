"""How henkit shows a plotly figure: plotly's own mimetype in JupyterLab, a chart drawn by a
locally served plotly.js on a Voilà dashboard.

Why not plotly's renderers:
- `plotly.io.renderers` imports nbformat, which imports jsonschema and its IRI grammar checker:
  1.1 s of CPU in every fresh kernel before the first chart (measured here). henkit builds the
  same bundle from `plotly.io.to_json`, which needs none of that.
- On a dashboard, plotly's JupyterLab extension loads all of plotly.js (4.8 MB) before the page
  draws its first widget: about 0.9 s of every page load (benchmarks/bench_dashboards.py). The
  dashboards switch that extension off (dashboards/voila.json) and draw each chart with an HTML
  output whose script loads plotly.js once, after the widgets are usable, from the dashboards'
  own server (dashboards/serve.sh copies plotly's bundled copy into the page template's static
  folder). Nothing comes from a CDN.

No door outwards (a class network is not a trusted network). plotly.js 4 (plotly 7's
bundle, in JupyterLab's extension and on the dashboards alike) puts in every chart's mode bar a
"Share chart..." button (`sendChartToCloud`, shown unless `showSendToCloud` is false: on by
default in plotly.js 4) whose dialog uploads the chart's data to Plotly Cloud
(`plotlyServerURL`, https://cloud.plotly.com/newchart), and a plotly logo linking to plotly.com
(`displaylogo`, and `watermark`). Every figure henkit shows carries `chart_config()`, which turns
all of them off, in both paths: `figure_json` adds it, and both bundles are made from
`figure_json`. (plotly.js 4 has no Chart Studio link any more: `showLink`, `linkText`,
`showEditInChartStudio` and `sendData` are gone from its config and plotly 7 warns about them,
so they are not set; tests/test_display.py reads the bundle's own lists to keep this true.)
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

PLOTLY_MIME = "application/vnd.plotly.v1+json"
# Voilà sets this in every kernel it starts; JupyterLab and nbval kernels do not have it.
DASHBOARD_ENV = "VOILA_BASE_URL"
# Where the dashboards' server publishes plotly.js, relative to the server's base URL.
PLOTLY_JS = "voila/templates/henkit/static/plotly.min.js"
DEFAULT_HEIGHT = 450  # plotly.js's own default, for figures that do not set a height
# The mode bar buttons that lead off the server (plotly.js 4's names): removed by name as well as
# by their switch, so that a plotly.js that forgets the switch still leaves them out.
CLOUD_BUTTONS = ("sendChartToCloud",)

# Each chart's element gets the next id: ids stay unique within a kernel (one viewer's page)
# and the same notebook run gives the same ids (no random uuid).
_chart_ids = itertools.count(1)

# Runs in the page for every chart: load plotly.js once per page (a shared promise), draw this
# chart into the element just before the script, and purge charts whose element has left the
# page (a redrawn Output) so plotly's resize listeners do not keep them alive.
_DRAW = """(() => {
  const here = document.currentScript;
  const el = (here && here.previousElementSibling) || document.getElementById(%(id)s);
  const figure = %(figure)s;
  const w = window;
  if (!w.henkitPlotly) {
    const page = document.getElementById("jupyter-config-data");
    const base = page ? JSON.parse(page.textContent).baseUrl || "/" : "/";
    w.henkitPlotly = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = base + %(src)s;
      s.onload = () => resolve(w.Plotly);
      s.onerror = () => { w.henkitPlotly = undefined; reject(new Error("no plotly.js at " + s.src)); };
      document.head.appendChild(s);
    });
    w.henkitCharts = new Set();
  }
  w.henkitPlotly.then((Plotly) => {
    for (const old of w.henkitCharts) {
      if (!old.isConnected) { Plotly.purge(old); w.henkitCharts.delete(old); }
    }
    if (!el || !el.isConnected) return;
    w.henkitCharts.add(el);
    Plotly.newPlot(el, figure.data, figure.layout, figure.config);
  });
})();"""


def on_dashboard() -> bool:
    """True in a kernel Voilà started (a published dashboard), False in JupyterLab or a test."""
    return DASHBOARD_ENV in os.environ


def check_figure(fig: object) -> Any:
    """`fig` if it is a plotly figure (go.Figure); ValueError otherwise."""
    from plotly.basedatatypes import BaseFigure

    if not isinstance(fig, BaseFigure):
        raise ValueError(f"fig must be a plotly figure (plotly.graph_objects.Figure), not {fig!r}")
    return fig


def chart_config() -> dict[str, Any]:
    """The plotly.js config of every chart henkit shows: no share, cloud or logo door off the
    server (a new dict each call: a caller may add to it)."""
    return {
        "showSendToCloud": False,  # the "Share chart..." button and its upload dialog
        "modeBarButtonsToRemove": list(CLOUD_BUTTONS),
        # Nowhere to upload to even if a share button came back: plotly.js refuses an empty
        # address (it would otherwise post the chart to https://cloud.plotly.com/newchart).
        "plotlyServerURL": "",
        "displaylogo": False,  # the plotly logo: a link to https://plotly.com/
        "watermark": False,  # the same logo, shown even without a mode bar
    }


def figure_json(fig: Any) -> dict[str, Any]:
    """The figure as JSON-ready data, layout and henkit's chart config: what plotly's mimetype
    renderer sends when given `chart_config()`."""
    import plotly.io as pio

    figure = json.loads(pio.to_json(check_figure(fig), validate=False, remove_uids=False))
    figure["config"] = chart_config()
    return figure


def mimetype_bundle(fig: Any) -> dict[str, Any]:
    """The plotly mimetype bundle JupyterLab draws offline (and nbval compares as JSON)."""
    return {PLOTLY_MIME: figure_json(fig)}


def dashboard_bundle(fig: Any) -> dict[str, Any]:
    """An HTML bundle drawing the figure with the dashboards' own plotly.js (see module doc)."""
    import plotly

    figure = figure_json(fig)
    figure["config"]["responsive"] = True  # the chart follows its Output's width
    chart_id = f"henkit-chart-{next(_chart_ids)}"
    height = figure.get("layout", {}).get("height") or DEFAULT_HEIGHT
    # "</" would end the script early if a title held "</script>": JSON allows "<\/" instead.
    script = _DRAW % {
        "id": json.dumps(chart_id),
        "figure": json.dumps(figure).replace("</", "<\\/"),
        # The version makes the address cacheable for good (Tornado's static files): a viewer's
        # second dashboard reuses the browser's copy and its compiled code.
        "src": json.dumps(f"{PLOTLY_JS}?v={plotly.__version__}"),
    }
    return {
        "text/html": (
            f'<div id="{chart_id}" class="henkit-chart" '
            f'style="width: 100%; height: {int(height)}px"></div>'
            f"<script>{script}</script>"
        )
    }


def figure_bundle(fig: Any, alt: str = "") -> dict[str, Any]:
    """The bundle that shows `fig` where this kernel runs, with `alt` as its plain text."""
    if not isinstance(alt, str):
        raise ValueError(f"alt must be text (what the figure shows, in words), not {alt!r}")
    bundle = dashboard_bundle(fig) if on_dashboard() else mimetype_bundle(fig)
    bundle["text/plain"] = alt or figure_title(fig)
    return bundle


def figure_title(fig: Any) -> str:
    """'Chart: <title>' (or 'Chart'): the text a figure is read as where it cannot be drawn."""
    title = getattr(getattr(check_figure(fig).layout, "title", None), "text", None)
    return f"Chart: {title}" if title else "Chart"
