#!/usr/bin/env bash
# Serve the henkit dashboards with Voilà: the notebooks linked from dashboards/site/.
#   HOST (default 127.0.0.1; 0.0.0.0 for a class network), PORT (default 8866), POOL (kernels
#   kept preheated per dashboard, default 1), FILL_DELAY (seconds before a used preheated kernel
#   is replaced, default 5, or 120 for a lesson) and SITE (the folder of notebook links to serve,
#   default dashboards/site) come from the environment; extra arguments go to Voilà. Every other
#   setting is in dashboards/voila.json, which Voilà reads from its working directory.
# A lesson: LESSON=01_rolling_dice CLASS=30 keeps CLASS preheated kernels for that dashboard (the
#   others keep POOL), so a whole class opening it at once finds a kernel each; the used ones are
#   replaced FILL_DELAY seconds later (120 s unless given: after the rush, not during it).
# The class pool: HENKIT_CLASS_DB when set (a file path or a postgresql:// URL), else
#   class.sqlite3 in DATA (default: henkit's data folder, $XDG_DATA_HOME/henkit or
#   ~/.local/share/henkit). It is created (with a class session) before Voilà starts, its place
#   is logged, and the kernels get it as HENKIT_CLASS_DB. A pool file inside a folder the server
#   serves (dashboards/, SITE) is refused: viewers must never be able to fetch it.
# Who may use a kernel (dashboards/page_guard.py): each kernel answers only the viewer its page was
#   served to. KERNELS caps the kernels in all (default: what 3/4 of the memory holds), PER_DEVICE
#   the pages one client address holds (default 6); a page beyond either gets a "server is full"
#   page at once. CERT and KEY (PEM files) serve over HTTPS.
# Bad settings stop here at once (exit 2) with a message saying what is expected; a pool's
#   password is never printed.
# voila.json also gives Voilà's notebook runs 60 s (not 4) to collect a cell's last outputs
# after its reply: with 30 viewers at once on 2 cores, 64 cells' outputs came later than 4 s
# (nbclient then moves on without them) and 2 of 30 pages never became usable; with 60 s, none
# and 30 of 30. It also switches off the JupyterLab extensions of plotly (4.8 MB of JavaScript
# before the first widget) and anywidget (unused): henkit.display draws the charts instead; and
# jupyterlab_pygments (code highlighting: the sources are stripped). JupyterLab's widget manager
# stays: without it the Output widgets, and so the charts, stay empty.
# Its VoilaExporter setting checks a page's notebook against the notebook format once, after
# nbconvert's preprocessors, not after each of them (12 checks of a whole lesson per page).
# Its tornado_settings make pages lighter: gzip on every text response and permessage-deflate on
# the kernel's websocket (a first visit to a dashboard moved 10 MB, now under 3 MB; a second
# dashboard in the same browser 0.24 MB, now 0.03 MB: tests/browser/test_page_weight.py).
# voila_server.py runs Voilà as `python -m voila` would, guarded against a lost ZeroMQ wake-up
# that left a page loading forever, with those settings applied when Tornado is set up, static
# files compressed once and kept, and the widget manager's versioned files cached by browsers
# (see that file). `exec` keeps one process: whoever starts
# this script can stop Voilà by its pid.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd -P)"
python="${HENKIT_PYTHON:-$here/../.venv/bin/python}"

fail() { echo "serve.sh: error: $*" >&2; exit 2; }
# A pool address as it may be shown: a PostgreSQL URL's password never leaves the server.
redact() { sed -E 's#^([A-Za-z][A-Za-z0-9+.-]*://[^/:@]*):[^/@]*@#\1:***@#' <<<"$1"; }
whole() { [[ "$1" =~ ^[0-9]+$ ]] && [ "${#1}" -le 4 ]; }

# --- Settings, checked before anything starts ---------------------------------------------------
site="$(cd "$here" && realpath -m -- "${SITE:-site}")"
[ -d "$site" ] || fail "SITE=${SITE:-site}: no such folder ($site)"
pool="${POOL:-1}"
whole "$pool" && [ "$pool" -le 200 ] ||
    fail "POOL=$pool: the preheated kernels per dashboard are a whole number from 0 to 200"
pool=$((10#$pool))
fill_delay="${FILL_DELAY:-}"
if [ -n "$fill_delay" ]; then
    [[ "$fill_delay" =~ ^[0-9]+(\.[0-9]+)?$ ]] ||
        fail "FILL_DELAY=$fill_delay: seconds before a used kernel is replaced, a number >= 0"
fi
# The kernel budget (dashboards/page_guard.py): KERNELS in all (default: what 3/4 of the memory
# holds), PER_DEVICE pages one client address may hold (default 6; 0: no cap).
guard=()
if [ -n "${KERNELS:-}" ]; then
    whole "$KERNELS" || fail "KERNELS=$KERNELS: the most kernels the server runs, a whole number (0: from its memory)"
    guard+=("--HenkitVoila.max_kernels=$((10#$KERNELS))")
fi
if [ -n "${PER_DEVICE:-}" ]; then
    whole "$PER_DEVICE" || fail "PER_DEVICE=$PER_DEVICE: the most pages one device may hold open, a whole number (0: no cap)"
    guard+=("--HenkitVoila.kernels_per_address=$((10#$PER_DEVICE))")
fi
# HTTPS: CERT (a PEM certificate) and KEY (its private key), both given or neither.
if [ -n "${CERT:-}${KEY:-}" ]; then
    [ -n "${CERT:-}" ] && [ -n "${KEY:-}" ] ||
        fail "CERT and KEY go together: CERT=<certificate.pem> KEY=<private-key.pem>"
    [ -r "$CERT" ] || fail "CERT=$CERT: no such readable file"
    [ -r "$KEY" ] || fail "KEY=$KEY: no such readable file"
    "$python" -c 'import ssl, sys; ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(sys.argv[1], sys.argv[2])' \
        "$CERT" "$KEY" 2>/dev/null ||
        fail "CERT=$CERT and KEY=$KEY are not a PEM certificate and its private key"
    guard+=("--HenkitVoila.certfile=$(realpath -- "$CERT")" "--HenkitVoila.keyfile=$(realpath -- "$KEY")")
fi
# PLAIN=1: Voilà as it is, with henkit's settings, template, page guard and teacher's page only
# (none of voila_server.py's changes to Voilà's workings): the way out if a Voilà upgrade breaks
# one of them.
case "${PLAIN:-}" in
    ""|0) ;;
    1) guard+=("--HenkitVoila.plain=True"); export HENKIT_PLAIN=1 ;;
    *) fail "PLAIN=$PLAIN: 1 serves with stock Voilà's workings, 0 (or nothing) with henkit's" ;;
esac
pools=()
if [ -n "${LESSON:-}" ]; then
    lesson="${LESSON%.ipynb}"
    if [[ ! "$lesson" =~ ^[A-Za-z0-9_.-]+$ ]] || [ ! -f "$site/$lesson.ipynb" ]; then
        names="$(cd "$site" && ls -1 -- *.ipynb 2>/dev/null | sed 's/\.ipynb$//' | paste -sd ' ')"
        fail "LESSON=$LESSON: no such dashboard in $site; the dashboards are: ${names:-none}"
    fi
    class="${CLASS:-30}"
    whole "$class" && [ "$class" -ge 1 ] && [ "$class" -le 200 ] ||
        fail "CLASS=$class: the number of students, a whole number from 1 to 200"
    class=$((10#$class))
    fill_delay="${fill_delay:-120}"
    # Voilà 0.5's per-notebook pools, set up by voila_server.py (which logs when they are ready).
    pools=("--HenkitVoila.lesson=$lesson.ipynb" "--HenkitVoila.class_size=$class")
    echo "serve.sh: lesson $lesson: $class preheated kernels (the other dashboards $pool each), used ones replaced after ${fill_delay} s"
elif [ -n "${CLASS:-}" ]; then
    fail "CLASS=$CLASS needs LESSON=<dashboard> (the dashboard the class opens), e.g. LESSON=01_rolling_dice"
fi
fill_delay="${fill_delay:-5}"

# --- The class pool -------------------------------------------------------------------------------
db="${HENKIT_CLASS_DB:-}"
if [ -z "$db" ]; then
    data="${DATA:-$("$python" -c 'from henkit.classpool.stores import default_data_dir; print(default_data_dir())')}"
    db="$data/class.sqlite3"
fi
if [[ ! "$db" =~ ^[A-Za-z][A-Za-z0-9+.-]*:// ]]; then
    db="$(realpath -m -- "$db")"
    for served in "$here" "$site"; do
        case "$db/" in
            "$served"/*) fail "the class pool $db is inside $served, which the server serves: put it elsewhere (DATA=<folder> or HENKIT_CLASS_DB=<file>)" ;;
        esac
    done
fi
export HENKIT_CLASS_DB="$db"
if [ -n "${data:-}" ]; then
    mkdir -p -- "$data" || fail "DATA=$data: cannot create the class pool's folder"
fi
# Creates the file, its schema and a first class session when missing, and says where it is.
"$python" -m henkit class status --db "$db" ||
    fail "the class pool $(redact "$HENKIT_CLASS_DB") cannot be used (above); set DATA or HENKIT_CLASS_DB to another place"

# The page template (dashboards/jupyter/voila/templates/henkit) is found on JUPYTER_PATH.
export JUPYTER_PATH="$here/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
# The charts load plotly.js from the template's static folder (henkit/display.py): a copy of the
# one that ships with the installed plotly package, so page and kernel use the same version
# (a copy, not a link: Tornado serves no symlink that leaves the static folder).
static="$here/jupyter/voila/templates/henkit/static"
plotly_js="$("$python" -c 'import plotly, pathlib; print(pathlib.Path(plotly.__file__).parent / "package_data" / "plotly.min.js")')"
mkdir -p "$static"
cmp -s "$plotly_js" "$static/plotly.min.js" || cp "$plotly_js" "$static/plotly.min.js"
# Every kernel imports henkit: compile it once here, so that no kernel compiles its modules from
# source (where PYTHONDONTWRITEBYTECODE=1 is set, each kernel would: lesson 7's henkit imports
# take 0.25 s of CPU from source, 0.10 s compiled). Python checks each .pyc against its source.
"$python" -m compileall -q "$here/../henkit" >/dev/null ||
    echo "serve.sh: henkit could not be compiled ahead; kernels will compile it" >&2
cd "$here"
exec "$python" "$here/voila_server.py" "$site" \
    --Voila.ip="${HOST:-127.0.0.1}" --port="${PORT:-8866}" \
    --VoilaConfiguration.default_pool_size="$pool" \
    --VoilaKernelManager.fill_delay="$fill_delay" "${pools[@]}" "${guard[@]}" "$@"
