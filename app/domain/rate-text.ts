import { MILLI_PER_PERCENT, type RateMilli } from "./money";

// The rate parser lives beside money.ts rather than in it: the forms that take a rate load it, while
// the pages that only compute and show rates (the home page's calculator) do not ship it, which keeps
// the home page inside its JavaScript budget.

/**
 * A form's percent as thousandths ("8.5" → 8500, "8.125" → 8125 with `decimals: 3`); null for anything
 * else than digits with at most `decimals` decimals.
 */
export function parseRate(text: string, { decimals = 2, maxWholeDigits = 3 }: { decimals?: 2 | 3; maxWholeDigits?: number } = {}): RateMilli | null {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m || m[1]!.length > maxWholeDigits || (m[2] !== undefined && m[2].length > decimals)) return null;
  return Number(m[1]!) * MILLI_PER_PERCENT + Number((m[2] ?? "").padEnd(3, "0"));
}
