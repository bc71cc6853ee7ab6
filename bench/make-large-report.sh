#!/usr/bin/env bash
# Generates a large Allure 2 report (~1,000 failing tests, plus some passing ones) for benchmarks.
#
#   bash bench/make-large-report.sh [OUTPUT_DIR] [FAILING_TESTS]
#
# OUTPUT_DIR defaults to a new temp dir (printed at the end); FAILING_TESTS defaults to 1000.
# It writes a generated vitest suite into a temp copy of test/fixtures/build/projects/shop-vitest
# (reusing that project's node_modules through a symlink), runs it with allure-vitest, and runs
# allure-commandline 2.46.1 `generate` on the results. Nothing is written inside the repository
# except shop-vitest/node_modules when it is missing (npm ci). The failures are real: every test
# runs and fails on its own (assertions, node:assert, thrown errors from the shop code, timeouts).
# With SOURCES_OUT=DIR, the sources the run was made from (src/, test/, package.json) are kept
# there, so a benchmark can diagnose the report against them.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SHOP="$ROOT/test/fixtures/build/projects/shop-vitest"
ALLURE2="$ROOT/node_modules/allure-commandline/dist/bin/allure"
OUTPUT="${1:-$(mktemp -d -t large-allure2-XXXXXX)}"
FAILING="${2:-1000}"
export NO_COLOR=1 FORCE_COLOR=0

t_start=$EPOCHREALTIME
elapsed() { awk -v a="$t_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }

[ -x "$ALLURE2" ] || { echo "run npm ci at the repository root first" >&2; exit 1; }
if [ ! -f "$SHOP/node_modules/.package-lock.json" ]; then
  (cd "$SHOP" && npm ci --no-audit --no-fund --loglevel=error)
fi

WORK="$(mktemp -d -t large-vitest-XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
cp -r "$SHOP/src" "$SHOP/package.json" "$WORK/"
ln -s "$SHOP/node_modules" "$WORK/node_modules"
mkdir -p "$WORK/test"
cat >"$WORK/vitest.config.ts" <<'EOF'
import AllureVitestReporter from "allure-vitest/reporter";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    reporters: ["dot", new AllureVitestReporter({ resultsDir: "allure-results" })],
  },
});
EOF

# 20 files x 50 failing tests (+ 2 passing per file); each test fails in one of 8 ways.
node - "$WORK/test" "$FAILING" <<'EOF'
const fs = require("node:fs");
const path = require("node:path");
const [dir, failingArg] = process.argv.slice(2);
const failing = Number(failingArg);
const files = 20;
const perFile = Math.ceil(failing / files);
const areas = ["cart", "checkout", "payment", "shipping", "inventory", "search", "profile", "orders", "invoices", "coupons"];
let n = 0;
for (let f = 0; f < files && n < failing; f++) {
  const area = areas[f % areas.length];
  const lines = [
    'import assert from "node:assert/strict";',
    'import { describe, expect, it } from "vitest";',
    'import { Cart } from "../src/cart.js";',
    'import { checkout } from "../src/checkout.js";',
    'import { Ledger } from "../src/ledger.js";',
    'import { findProduct } from "../src/catalog.js";',
    "",
    `describe("${area} (part ${f + 1})", () => {`,
    `  it("${area} smoke test ${f + 1}", () => { expect(new Cart().add("MUG-001").subtotal()).toBe(1299); });`,
    `  it("${area} catalog lookup ${f + 1}", () => { expect(findProduct("TEE-042").price).toBe(2450); });`,
  ];
  for (let i = 0; i < perFile && n < failing; i++, n++) {
    const kind = n % 8;
    const title = `${area} case ${String(n + 1).padStart(4, "0")}`;
    switch (kind) {
      case 0: // vitest assertion, values differ per test
        lines.push(`  it("${title}: subtotal", () => { expect(new Cart().add("MUG-001", ${(n % 7) + 1}).subtotal()).toBe(${1299 * ((n % 7) + 1) + 1}); });`);
        break;
      case 1: // deep-equality assertion
        lines.push(`  it("${title}: line items", () => { expect(new Cart().add("TEE-042", ${(n % 3) + 1}).lines.map((l) => l.quantity)).toEqual([${(n % 3) + 2}]); });`);
        break;
      case 2: // node:assert thrown deep in src/ (ledger mismatch)
        lines.push(`  it("${title}: ledger", () => { const c = new Cart().add("MUG-001").add("BAG-007", ${(n % 4) + 1}); c.discountCode = "WELCOME10"; checkout(c, { id: "c", email: "c@x", address: { street: "s", city: "c", country: "DE" } }, new Ledger()); });`);
        break;
      case 3: // TypeError from src/ (guest without address)
        lines.push(`  it("${title}: guest shipping", () => { checkout(new Cart().add("TEE-042", ${(n % 5) + 1}), { id: "guest-${n}", email: "g@x" }, new Ledger()); });`);
        break;
      case 4: // unknown SKU Error from src/
        lines.push(`  it("${title}: unknown sku", () => { new Cart().add("SKU-${1000 + n}"); });`);
        break;
      case 5: // infrastructure-looking error
        lines.push(`  it("${title}: remote call", async () => { await Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:${5400 + (n % 50)}"), { code: "ECONNREFUSED" })); });`);
        break;
      case 6: // node:assert in the test itself
        lines.push(`  it("${title}: status", () => { assert.equal("${n % 2 ? "pending" : "failed"}", "shipped", "order ${n} status"); });`);
        break;
      default: // timeout (short, so the run stays fast)
        lines.push(`  it("${title}: slow warehouse", { timeout: 20 }, async () => { await new Promise((r) => setTimeout(r, 200)); });`);
    }
  }
  lines.push("});", "");
  fs.writeFileSync(path.join(dir, `generated-${String(f + 1).padStart(2, "0")}.test.ts`), lines.join("\n"));
}
console.error(`generated ${n} failing tests in ${files} files`);
EOF

echo "running vitest ... ($(elapsed) s)" >&2
rc=0
(cd "$WORK" && ./node_modules/.bin/vitest run >"$WORK/vitest.log" 2>&1) || rc=$?
if [ "$rc" -gt 1 ]; then
  tail -40 "$WORK/vitest.log" >&2
  exit "$rc"
fi
grep -E "Tests +" "$WORK/vitest.log" >&2 || true
cp "$ROOT/test/fixtures/build/categories.json" "$WORK/allure-results/categories.json" # + "Infrastructure problems"
results=$(find "$WORK/allure-results" -name '*-result.json' | wc -l)
echo "vitest done: $results allure results ($(elapsed) s)" >&2
if [ -n "${SOURCES_OUT:-}" ]; then
  mkdir -p "$SOURCES_OUT"
  cp -r "$WORK/src" "$WORK/test" "$WORK/package.json" "$SOURCES_OUT/"
fi

"$ALLURE2" generate "$WORK/allure-results" -o "$OUTPUT" --clean >&2
echo "report: $OUTPUT ($(du -sh "$OUTPUT" | cut -f1), $(ls "$OUTPUT/data/test-cases" | wc -l) test cases) in $(elapsed) s" >&2
echo "$OUTPUT"
