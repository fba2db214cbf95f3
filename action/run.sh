#!/usr/bin/env bash
# The GitHub Action's step: leaselint in a venv of its own, findings as workflow annotations,
# optionally a SARIF report too. Inputs come as LEASELINT_* variables (see action.yml).
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/leaselint-action-venv"
python="${LEASELINT_PYTHON:-python3}"
version="${LEASELINT_VERSION:-local}"

if [ ! -x "$venv/bin/leaselint" ]; then
  "$python" -m venv "$venv"
  if [ "$version" = "local" ]; then
    "$venv/bin/pip" install -q "$action_path"
  elif [[ "$version" =~ ^[0-9] ]]; then
    "$venv/bin/pip" install -q "leaselint==$version"
  else
    "$venv/bin/pip" install -q "leaselint$version"
  fi
fi

# shellcheck disable=SC2206  # the arguments are split as a shell would split a command line
args=(${LEASELINT_ARGS:-.})

if [ -n "${LEASELINT_SARIF:-}" ]; then
  "$venv/bin/leaselint" --output-format sarif --output-file "$LEASELINT_SARIF" --exit-zero "${args[@]}"
fi

status=0
"$venv/bin/leaselint" --output-format github "${args[@]}" || status=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$status" >> "$GITHUB_OUTPUT"
fi
exit "$status"
