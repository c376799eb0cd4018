#!/usr/bin/env bash
# Lints the OpenAPI documents both public listeners serve (redocly.yaml: recommended-strict and RFC 9457
# problem details), built with illustrative public server URLs as a deployment would have. The linter is
# fetched on demand (npx, pinned): only this check needs it, so installing the project does not download it.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
PONTE_PRODUCTION_URL="${PONTE_PRODUCTION_URL:-https://api.ponte.example}" \
PONTE_SANDBOX_URL="${PONTE_SANDBOX_URL:-https://sandbox.api.ponte.example}" \
  npx tsx scripts/openapi-document.ts sandbox "$out/sandbox.json" production "$out/production.json"
npx --yes @redocly/cli@2.77.0 lint --format=stylish "$out/sandbox.json" "$out/production.json"
