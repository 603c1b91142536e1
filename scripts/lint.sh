#!/usr/bin/env bash
# `npm run lint`: one lint + format check (Biome), the import boundaries between the parts
# (docs/architecture.md) and the type checks of every part.
set -euo pipefail
cd "$(dirname "$0")/.."
npx biome check .
npx tsx scripts/aliases/generate.ts --check
npx tsx scripts/check-imports.ts
npx tsc -p tsconfig.json --noEmit
npx tsc -p web/tsconfig.json --noEmit
shopt -s nullglob
functions=(supabase/functions/*/index.ts supabase/functions/*/*.test.ts supabase/functions/_shared/*.ts supabase/functions/_shared/domain/*.ts supabase/functions/_shared/schemas/*.ts stack/gateway/test/fixtures/functions/*/index.ts)
if [ ${#functions[@]} -gt 0 ]; then
  npx deno check --quiet "${functions[@]}"
fi
echo "lint: ok"
