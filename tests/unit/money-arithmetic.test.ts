import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Money is integer cents everywhere (app/domain/money.ts, decision 0078): dollars exist only as text a
 * person typed or reads. Multiplying or dividing by 100 outside the money module is how a second unit
 * creeps back in, so every `* 100` or `/ 100` in app/, server/ and scripts/ must be on this list, with
 * the reason it is not money.
 */
const ROOTS = ["app", "server", "scripts"];
const MONEY_MODULE = "app/domain/money.ts";
const PATTERN = /\* ?100\b|\/ ?100\b/;

/** file → the lines' text (trimmed) allowed there, each with why it is not money arithmetic. */
const ALLOWED: Record<string, Record<string, string>> = {
  "app/components/admin/application-page/sanctions-panel.tsx": {
    "return formatPercent(score * 100);": "a sanctions name similarity (0 to 1) shown as a percent, not money",
  },
  "app/components/apply/progress.tsx": {
    "const percent = Math.round((step / STEP_COUNT) * 100);": "the wizard's progress bar, a percent of steps",
  },
  "app/components/apply/submit-with-progress.ts": {
    "if (event.lengthComputable && event.total > 0) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));":
      "an upload's progress, a percent of bytes",
  },
  "app/components/calculator/amortization-chart.tsx": {
    "return whole > 0 ? Math.round((part / whole) * 100) : 0;": "the share of a year's payments that is interest, a percent of a ratio",
  },
  "app/domain/truth-in-lending.ts": {
    "let high = 1; // 100 % a month; doubled until the payments are worth less than the amount financed.": "a comment",
    "return ((low + high) / 2) * 12 * 100;": "the APR search's monthly rate as an annual percent (a rate, not money)",
    "return Math.round((percent + 1e-9) * 100) / 100;": "the disclosed APR rounded to two decimals of a percent (a rate, not money)",
  },
};

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [full] : [];
  });
}

describe("money arithmetic stays in the money module", () => {
  it("finds no * 100 or / 100 outside app/domain/money.ts except the listed non-money uses", () => {
    const found: string[] = [];
    const seen = new Set<string>();
    for (const file of ROOTS.flatMap(sourceFiles)) {
      const relative = file.split(path.sep).join("/");
      if (relative === MONEY_MODULE) continue;
      for (const line of fs.readFileSync(file, "utf8").split("\n")) {
        if (!PATTERN.test(line)) continue;
        const text = line.trim();
        if (ALLOWED[relative]?.[text] !== undefined) seen.add(`${relative}: ${text}`);
        else found.push(`${relative}: ${text}`);
      }
    }
    expect(found, "convert with ~/domain/money (centsFromDollars, dollarsOf, formatMoney…) or list the line with its reason").toEqual([]);
    // A listed line that no longer exists is a stale exception: remove it.
    const listed = Object.entries(ALLOWED).flatMap(([file, lines]) => Object.keys(lines).map((text) => `${file}: ${text}`));
    expect(listed.filter((entry) => !seen.has(entry))).toEqual([]);
  });
});
