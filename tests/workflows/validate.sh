#!/usr/bin/env bash
# Checks the GitHub workflow files against GitHub's workflow schema, offline,
# with action-validator (npm's @action-validator/cli, pinned in
# package-lock.json here): unknown or missing keys, wrong types and values,
# `needs` naming no job, YAML syntax. A workflow only ever runs on GitHub,
# so a mistake in one would otherwise show only after a push (release.yml:
# only after a tag). It does not parse `${{ }}` expressions.
#
#   tests/workflows/validate.sh             every .github/workflows/*.yml, *.yaml
#   tests/workflows/validate.sh FILE...     those files
#
# Installs node_modules with `npm ci` when missing (as tests/bindings/run.sh).
# Exits non-zero when any file is invalid or none was found.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ ! -d "$here/node_modules" ]; then
  echo "== npm ci (tests/workflows)"
  (cd "$here" && npm ci --no-audit --no-fund) || { echo "npm ci failed" >&2; exit 1; }
fi

if [ $# -gt 0 ]; then
  files=()
  for f in "$@"; do  # relative to the caller's directory (the validator runs from here)
    case "$f" in /*) files+=("$f") ;; *) files+=("$PWD/$f") ;; esac
  done
else
  shopt -s nullglob
  files=("$root"/.github/workflows/*.yml "$root"/.github/workflows/*.yaml)
  shopt -u nullglob
fi
[ ${#files[@]} -gt 0 ] || { echo "validate.sh: no workflow files found" >&2; exit 1; }

version=$(node -p "require('$here/node_modules/@action-validator/cli/package.json').version")
invalid=0
for f in "${files[@]}"; do
  # The validator prints nothing for a valid file and a JSON list of errors
  # (exit 1) for an invalid one. npx --no-install: only the pinned copy.
  if (cd "$here" && npx --no-install action-validator "$f"); then
    echo "ok       ${f#"$root"/}"
  else
    echo "INVALID  ${f#"$root"/}"
    invalid=$((invalid + 1))
  fi
done
echo "workflows: ${#files[@]} checked, $invalid invalid (action-validator $version)"
[ "$invalid" -eq 0 ]
