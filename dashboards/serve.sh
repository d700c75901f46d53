#!/usr/bin/env bash
# Serve the henkit dashboards with Voilà: the notebooks linked from dashboards/site/.
#   HOST (default 127.0.0.1; 0.0.0.0 for a class network), PORT (default 8866), POOL (kernels
#   kept preheated per dashboard, default 1), FILL_DELAY (seconds before a used preheated kernel
#   is replaced, default 5; see the README for a class arriving at once) and SITE (the folder of
#   notebook links to serve, default dashboards/site) come from the environment; extra arguments
#   go to Voilà. Every other setting is in dashboards/voila.json, which Voilà reads from its
#   working directory.
# voila.json also gives Voilà's notebook runs 60 s (not 4) to collect a cell's last outputs
# after its reply: with 30 viewers at once on 2 cores, 64 cells' outputs came later than 4 s
# (nbclient then moves on without them) and 2 of 30 pages never became usable; with 60 s, none
# and 30 of 30. It also switches off the JupyterLab extensions of plotly (4.8 MB of JavaScript
# before the first widget) and anywidget (unused): henkit.display draws the charts instead.
# Its tornado_settings make pages lighter: gzip on every text response and permessage-deflate on
# the kernel's websocket (a first visit to a dashboard moved 10 MB, now under 3 MB; a second
# dashboard in the same browser 0.24 MB, now 0.03 MB: tests/browser/test_page_weight.py).
# voila_server.py runs Voilà as `python -m voila` would, guarded against a lost ZeroMQ wake-up
# that left a page loading forever, with those settings applied when Tornado is set up, static
# files compressed once and kept, and the widget manager's versioned files cached by browsers
# (see that file). `exec` keeps one process: whoever starts
# this script can stop Voilà by its pid.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${HENKIT_PYTHON:-$here/../.venv/bin/python}"
# The page template (dashboards/jupyter/voila/templates/henkit) is found on JUPYTER_PATH.
export JUPYTER_PATH="$here/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
# The charts load plotly.js from the template's static folder (henkit/display.py): a copy of the
# one that ships with the installed plotly package, so page and kernel use the same version
# (a copy, not a link: Tornado serves no symlink that leaves the static folder).
static="$here/jupyter/voila/templates/henkit/static"
plotly_js="$("$python" -c 'import plotly, pathlib; print(pathlib.Path(plotly.__file__).parent / "package_data" / "plotly.min.js")')"
mkdir -p "$static"
cmp -s "$plotly_js" "$static/plotly.min.js" || cp "$plotly_js" "$static/plotly.min.js"
cd "$here"
exec "$python" "$here/voila_server.py" "${SITE:-site}" \
    --Voila.ip="${HOST:-127.0.0.1}" --port="${PORT:-8866}" \
    --VoilaConfiguration.default_pool_size="${POOL:-1}" \
    --VoilaKernelManager.fill_delay="${FILL_DELAY:-5}" "$@"
