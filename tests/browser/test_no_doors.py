"""No door outwards (issue 39: a class network is not a trusted network): on every dashboard,
once its charts are drawn, no chart's mode bar offers plotly's "Share chart..." (an upload of the
chart's data to Plotly Cloud), a Chart Studio link or the plotly logo (a link to plotly.com),
and no element of the page leads or posts off the server.

What is checked is what the browser has: plotly.js's own config of each drawn chart, the mode
bar a student sees when hovering a chart, and every address in the page's elements. A chart drawn
in the same page with plotly's defaults is the control: the same checks find its doors.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from .browsing import (
    VoilaServer,
    dashboards,
    open_dashboard_page,
    show_whole_lesson,
    wait_for_widgets,
)

pytestmark = pytest.mark.browser

DOOR_WORDS = re.compile(r"share|cloud|chart studio|plotly", re.IGNORECASE)
# Every chart an Output holds is drawn (plotly.js loads after the widgets are usable).
CHARTS_DRAWN = """() => [...document.querySelectorAll('.henkit-chart')]
    .every(c => c.querySelector('.main-svg'))"""

# The config plotly.js applied to each drawn chart (its _context), not the one henkit sent.
CONTEXTS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(el => ({
    showSendToCloud: el._context.showSendToCloud, displaylogo: el._context.displaylogo,
    watermark: el._context.watermark, plotlyServerURL: el._context.plotlyServerURL}))"""
NO_DOORS = {"showSendToCloud": False, "displaylogo": False, "watermark": False,
            "plotlyServerURL": ""}

# The buttons and links of a chart's mode bar (every chart's when `el` is the page's body),
# with what a viewer or a screen reader is told about each, and whether it shows.
MODE_BAR = """el => [...el.querySelectorAll('.modebar-btn, .modebar a, .modebar button')].map(b => ({
    tag: b.tagName.toLowerCase(), title: b.getAttribute('data-title') || '',
    label: b.getAttribute('aria-label') || '', tip: b.getAttribute('title') || '',
    href: b.getAttribute('href') || '', cls: b.getAttribute('class') || '',
    opacity: getComputedStyle(b.closest('.modebar-group') || b).opacity}))"""

# Every address in the page's elements that leads or posts off the server: any attribute that
# names a place to go, load from or send to (href and xlink:href, src, action, formaction,
# srcset, poster, background, ping, an object's data) and url(...) in style attributes and
# style sheets. Allowed: this server's origin, a fragment, javascript:void, data: and blob:.
LINKS = r"""() => {
  const here = location.origin;
  const NAMES = new Set(['href', 'src', 'action', 'formaction', 'srcset', 'poster', 'background',
                         'ping']);
  const leaves = (raw) => {
    const v = raw.trim();
    if (v === '' || v.startsWith('#') || /^javascript:\s*void\b/i.test(v) || /^(data|blob):/i.test(v))
      return false;
    try { return new URL(v, document.baseURI).origin !== here; } catch (e) { return true; }
  };
  const urls = (css) => [...css.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/g)].map(m => m[2]);
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    const tag = el.tagName.toLowerCase();
    for (const a of el.attributes) {
      const name = a.localName.toLowerCase();
      if (!(NAMES.has(name) || (name === 'data' && tag === 'object'))) continue;
      const values = name === 'srcset' || name === 'ping'
        ? a.value.split(name === 'ping' ? /\s+/ : ',').map(s => s.trim().split(/\s+/)[0])
        : [a.value];
      for (const v of values) if (leaves(v)) found.push(`<${tag} ${a.name}="${v}">`);
    }
    for (const v of urls(el.getAttribute('style') || '')) {
      if (leaves(v)) found.push(`<${tag} style="url(${v})">`);
    }
    if (tag === 'style') {
      for (const v of urls(el.textContent)) if (leaves(v)) found.push(`<style> url(${v})`);
    }
  }
  return found;
}"""

# A mode bar shows when its first group is fully opaque (plotly fades it in on hover).
MODE_BAR_SHOWN = """el => { const g = el.querySelector('.modebar-group');
    return g !== null && getComputedStyle(g).opacity === '1'; }"""


def open_drawn(page: Page, voila: VoilaServer, name: str) -> None:
    """Open a dashboard and wait until its widgets show and every chart is drawn."""
    open_dashboard_page(page, voila, name)
    wait_for_widgets(page, timeout=120_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)


def doors_in(buttons: list[dict]) -> list[dict]:
    """The mode bar entries whose title, label, tip, class or address speaks of sharing, the
    cloud, Chart Studio or plotly (the logo), or that lead off the page (a link)."""
    return [b for b in buttons
            if DOOR_WORDS.search(" ".join((b["title"], b["label"], b["tip"], b["cls"], b["href"])))
            or b["href"]]


def hover_mode_bar(page: Page, chart) -> list[dict]:
    """Hover a chart until its mode bar shows; its buttons and links as a viewer sees them."""
    chart.scroll_into_view_if_needed()
    chart.hover()
    page.wait_for_function(MODE_BAR_SHOWN, arg=chart.element_handle(), timeout=10_000)
    return chart.evaluate(MODE_BAR)


@pytest.mark.parametrize("name", dashboards())
def test_no_chart_or_element_of_a_dashboard_leads_off_the_server(
    page: Page, voila: VoilaServer, name: str
) -> None:
    open_drawn(page, voila, name)
    charts = page.locator(".js-plotly-plot")
    assert charts.count() >= 1
    # Every chart drawn on the page, shown or not, runs with the doors shut.
    contexts = page.evaluate(CONTEXTS)
    assert contexts and all(c == NO_DOORS for c in contexts), contexts

    # Show what a student can open: the answers of the page's Predict boxes and the part of
    # the lesson after its "Going further" button (pressed as a student would).
    show_whole_lesson(page)
    hovered = 0
    for i in range(charts.count()):
        chart = charts.nth(i)
        if not chart.is_visible():  # in a widget's box not opened yet: checked below, unhovered
            continue
        buttons = hover_mode_bar(page, chart)
        titles = [b["title"] for b in buttons]
        # The mode bar read is the real one (a viewer's tools are there) and shows.
        assert "Download plot as a PNG" in titles, titles
        assert all(b["opacity"] == "1" for b in buttons), buttons
        assert doors_in(buttons) == [], (name, i, doors_in(buttons))
        hovered += 1
    assert hovered >= 1, f"no chart of {name} could be hovered"

    # Mode bars of charts not hovered (hidden boxes) hold no door either, and nothing opened
    # plotly's share dialog.
    everything = page.locator("body").evaluate(MODE_BAR)
    assert len(everything) >= hovered and doors_in(everything) == []
    assert page.locator(".plotly-cloud-dialog").count() == 0
    assert page.evaluate(LINKS) == []
    assert page.log.problems() == {}


def test_the_checks_find_the_doors_of_a_chart_drawn_with_plotlys_defaults(
    page: Page, voila: VoilaServer
) -> None:
    """The control: a chart drawn in a dashboard page with plotly.js's default config (what a
    notebook showing a figure through plotly itself would get) has the share button, its
    dialog's link to Plotly Cloud and the logo's link to plotly.com, and the checks above see
    each of them."""
    open_drawn(page, voila, "01_rolling_dice.ipynb")
    assert page.evaluate(LINKS) == []
    page.evaluate("""async () => {
        const d = document.createElement('div');
        d.id = 'plotly-defaults';
        // On top of the page wherever it has scrolled to (the page's own layout may clip).
        d.style.cssText = 'position: fixed; top: 20px; left: 20px; width: 500px; '
            + 'height: 300px; z-index: 10000; background: white';
        document.body.appendChild(d);
        const Plotly = await window.henkitPlotly;  // the dashboard's own plotly.js
        await Plotly.newPlot(d, [{type: 'bar', y: [1, 2]}], {});
    }""")
    control = page.locator("#plotly-defaults")
    assert control.evaluate("el => el._context.showSendToCloud && el._context.displaylogo")
    buttons = hover_mode_bar(page, control)
    doors = doors_in(buttons)
    assert {b["title"] for b in doors} == {"Share chart...", "Produced with Plotly.js (v4.1.1)"}
    assert [b["href"] for b in doors if b["href"]] == ["https://plotly.com/"]
    assert page.evaluate(LINKS) == ['<a href="https://plotly.com/">']

    # Its share button opens plotly's dialog, which offers to upload the chart to Plotly Cloud.
    control.locator(".modebar-btn[data-title='Share chart...']").click()
    dialog = page.locator(".plotly-cloud-dialog")
    dialog.wait_for(timeout=5_000)
    assert "uploaded to Plotly Cloud" in dialog.inner_text()
    assert sorted(page.evaluate(LINKS)) == ['<a href="https://cloud.plotly.com">',
                                            '<a href="https://plotly.com/">']
    dialog.get_by_role("button", name="Cancel").click()  # nothing is sent
    assert page.log.problems() == {}
