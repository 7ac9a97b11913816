#!/usr/bin/env bash
# The GitHub Action's step (action.yml): install kafka-advisor into a venv of its own, lint the
# given paths with workflow-command annotations on stdout and a SARIF file beside them, and exit
# as lint does (0 clean, 1 findings at --fail-on or above, 2 an input error). Inputs come as
# INPUT_* variables; the runner's GITHUB_ACTION_PATH, RUNNER_TEMP and GITHUB_OUTPUT are used.
set -euo pipefail

python="${INPUT_PYTHON:-python3}"
venv="${RUNNER_TEMP:-/tmp}/kafka-advisor-venv"
sarif="${INPUT_SARIF_FILE:-kafka-advisor.sarif}"

if [[ ! -x "$venv/bin/kafka-advisor" ]]; then
  "$python" -m venv "$venv"
  if [[ -n "${INPUT_VERSION:-}" ]]; then
    "$venv/bin/pip" install --disable-pip-version-check -q "kafka-advisor==${INPUT_VERSION}"
  else
    "$venv/bin/pip" install --disable-pip-version-check -q "${GITHUB_ACTION_PATH:?the runner sets it}"
  fi
fi

mkdir -p "$(dirname "$sarif")"
read -r -a paths <<< "${INPUT_PATHS:-.}"
args=(lint "${paths[@]}" --ignore-unknown --output-format github -o "sarif=$sarif" --fail-on "${INPUT_FAIL_ON:-warning}")
if [[ -n "${INPUT_CONFIG:-}" ]]; then
  args+=(--config "$INPUT_CONFIG")
fi

status=0
"$venv/bin/kafka-advisor" "${args[@]}" || status=$?
if [[ -n "${GITHUB_OUTPUT:-}" && -f "$sarif" ]]; then
  echo "sarif-file=$sarif" >> "$GITHUB_OUTPUT"
fi
exit "$status"
