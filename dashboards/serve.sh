#!/usr/bin/env bash
# Serve the henkit dashboards with Voilà: the notebooks linked from dashboards/site/.
#   HOST (default 127.0.0.1; 0.0.0.0 for a class network), PORT (default 8866), POOL (kernels
#   kept preheated per dashboard, default 1) and SITE (the folder of notebook links to serve,
#   default dashboards/site) come from the environment; extra arguments go to Voilà. Every other
#   setting is in dashboards/voila.json, which Voilà reads from its working directory.
# `exec` keeps one process: whoever starts this script can stop Voilà by its pid.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${HENKIT_PYTHON:-$here/../.venv/bin/python}"
# The page template (dashboards/jupyter/voila/templates/henkit) is found on JUPYTER_PATH.
export JUPYTER_PATH="$here/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
cd "$here"
exec "$python" -m voila "${SITE:-site}" \
    --Voila.ip="${HOST:-127.0.0.1}" --port="${PORT:-8866}" \
    --VoilaConfiguration.default_pool_size="${POOL:-1}" "$@"
