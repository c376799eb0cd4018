#!/usr/bin/env bash
# The SDK's copy of the sandbox OpenAPI document and the types openapi-typescript generates from it.
#   npm run sdk:generate   rewrites packages/sdk/openapi.json and packages/sdk/src/generated/openapi.ts
#   npm run sdk:check      fails when the committed ones differ from what the routes produce now
set -euo pipefail
cd "$(dirname "$0")/.."
sdk=packages/sdk
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
PONTE_PRODUCTION_URL=https://api.ponte.example PONTE_SANDBOX_URL=https://sandbox.api.ponte.example npx tsx scripts/openapi-document.ts sandbox "$out/openapi.json"
npx openapi-typescript "$out/openapi.json" -o "$out/openapi.ts" >/dev/null

if [ "${1:-}" = "--check" ]; then
  stale=0
  cmp -s "$out/openapi.json" "$sdk/openapi.json" || stale=1
  cmp -s "$out/openapi.ts" "$sdk/src/generated/openapi.ts" || stale=1
  if [ "$stale" = 1 ]; then
    diff -u "$sdk/openapi.json" "$out/openapi.json" | head -40 || true
    echo
    echo "The SDK's OpenAPI document or generated types are stale: the routes changed since they were generated."
    echo "Regenerate and commit them:  npm run sdk:generate && git add packages/sdk/openapi.json packages/sdk/src/generated"
    exit 1
  fi
  echo "SDK types are current."
else
  mkdir -p "$sdk/src/generated"
  cp "$out/openapi.json" "$sdk/openapi.json"
  cp "$out/openapi.ts" "$sdk/src/generated/openapi.ts"
  echo "wrote $sdk/openapi.json and $sdk/src/generated/openapi.ts"
fi
