/**
 * Money and interest rates, in the one unit each has everywhere: an amount of money is an integer
 * number of cents (`Cents`), a rate an integer number of thousandths of a percent (`RateMilli`: 8.125 %
 * is 8125). Columns, server code, the domain's arithmetic and the forms' parsed values all use them;
 * dollars and percents exist only as text, parsed here from a form and formatted here for people.
 *
 * This is the only module that multiplies or divides money by 100 (a unit test greps for it): binary
 * fractions of dollars drift (0.1 + 0.2), integers of cents do not, up to 2^53 cents (about 90 trillion
 * dollars). Pure, no I/O, safe in the browser and on the server.
 */

/** An amount of money in integer cents. */
export type Cents = number;
/** An annual rate in integer thousandths of a percent (8.5 % → 8500). */
export type RateMilli = number;

const CENTS_PER_DOLLAR = 100;
export const MILLI_PER_PERCENT = 1000;

// ---------------------------------------------------------------------------------------------
// Conversions at the edges (a number of dollars from a setting, a slider or a constant)
// ---------------------------------------------------------------------------------------------

/**
 * Dollars with at most two decimals (as a form or a constant gives them) to integer cents, exactly;
 * RangeError otherwise. The double nearest to "d.cc" is compared against itself rounded to two
 * decimals, not against dollars × 100, whose product carries the binary error of large amounts.
 */
export function centsFromDollars(dollars: number): Cents {
  if (!Number.isFinite(dollars) || Math.abs(dollars) > 1e12 || Number(dollars.toFixed(2)) !== dollars) throw new RangeError(`not dollars and cents: ${dollars}`);
  return Math.round(dollars * CENTS_PER_DOLLAR);
}

/**
 * Any number of dollars to the nearest cent (half away from zero on the shortest decimal form): for
 * figures a person typed into a free input such as the calculator's, which may carry more decimals.
 */
export function roundToCents(dollars: number): Cents {
  return Math.sign(dollars) * Math.round((Math.abs(dollars) + Number.EPSILON) * CENTS_PER_DOLLAR);
}

/** Cents as a number of dollars, for a control that holds dollars (a slider, a chart's axis). Never for arithmetic. */
export function dollarsOf(cents: Cents): number {
  return cents / CENTS_PER_DOLLAR;
}

/** Whether an amount has cents (12345.67), as opposed to whole dollars (12345). */
export function hasCents(amount: number): boolean {
  return Number.isFinite(amount) && !Number.isInteger(amount);
}

/** Whether an amount is whole dollars (loans are made in whole dollars). */
export function isWholeDollars(cents: Cents): boolean {
  return cents % CENTS_PER_DOLLAR === 0;
}

/** Cents in whole dollars, rounded down (an amount's dollars part, for a whole-dollar field). */
export function wholeDollarsOf(cents: Cents): number {
  return Math.trunc(cents / CENTS_PER_DOLLAR);
}

// ---------------------------------------------------------------------------------------------
// Parsing a form's text
// ---------------------------------------------------------------------------------------------

/**
 * A form's amount as cents: "$", spaces and thousands separators are ignored ("12,345.67", "$250"),
 * at most two decimals ("250.5" is 25050); null for anything else (no digits, two points, a sign, more
 * than `maxDigits` digits before the point). Callers turn null into their own field's message.
 */
export function parseMoney(text: string, { maxDigits = 12, grouping = "loose" }: { maxDigits?: number; grouping?: "loose" | "strict" } = {}): Cents | null {
  const trimmed = text.trim();
  let whole: string;
  let fraction: string;
  if (grouping === "strict") {
    // Commas only where thousands separators belong ("1,234.5", not "12,34").
    const m = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(trimmed);
    if (!m) return null;
    whole = m[1]!.replace(/,/g, "");
    fraction = m[2] ?? "";
  } else {
    const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(trimmed.replace(/[$,\s]/g, ""));
    if (!m) return null;
    whole = m[1]!;
    fraction = m[2] ?? "";
  }
  if (whole.length > maxDigits) return null;
  const cents = Number(whole + fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * What an amount input holds while typing, in dollars ("50,000" → 50000, "12,345.67" → 12345.67, "12."
 * → 12); 0 when it holds no digits, NaN when it holds something else than one amount (two points).
 */
export function parseAmountInput(value: string): number {
  const text = value.replace(/[$,\s]/g, "");
  if (!/\d/.test(text)) return 0;
  return /^\d*(\.\d*)?$/.test(text) ? Number(text.endsWith(".") ? text.slice(0, -1) : text) : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Arithmetic
// ---------------------------------------------------------------------------------------------

function assertCents(value: Cents): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not integer cents: ${value}`);
  return value;
}

/** The sum of amounts in cents (RangeError on a value that is not integer cents). */
export function addMoney(...values: Cents[]): Cents {
  return sumMoney(values);
}

/** The sum of amounts in cents (RangeError on a value that is not integer cents, or a sum beyond 2^53). */
export function sumMoney(values: Iterable<Cents>): Cents {
  let total = 0;
  for (const value of values) total += assertCents(value);
  return assertCents(total);
}

/** -1, 0 or 1 as a is less than, equal to or more than b (for sort). */
export function compareMoney(a: Cents, b: Cents): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * `total` split in proportion to `weights` without losing or inventing a cent: each share is rounded
 * down, and the cents left over go one each to the shares with the largest remainders (the earliest
 * first on a tie). `allocateMoney(100, [1, 1, 1])` → [34, 33, 33].
 */
export function allocateMoney(total: Cents, weights: readonly number[]): Cents[] {
  assertCents(total);
  if (weights.length === 0 || weights.some((w) => !Number.isFinite(w) || w < 0)) throw new RangeError("weights must be one or more numbers, none negative");
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum === 0) throw new RangeError("weights must not all be zero");
  const sign = total < 0 ? -1 : 1;
  const abs = Math.abs(total);
  const exact = weights.map((w) => (abs * w) / sum);
  const shares = exact.map(Math.floor);
  let left = abs - shares.reduce((a, s) => a + s, 0);
  const order = exact.map((e, i) => ({ i, rest: e - Math.floor(e) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares.map((s) => s * sign);
}

// ---------------------------------------------------------------------------------------------
// Formatting (the one money formatter)
// ---------------------------------------------------------------------------------------------

/**
 * US dollars in en-US form ("-$1,234.50", "$5,000") without Intl: the first Intl formatter a page
 * builds loads ICU's locale data, about 25 ms of main thread on a desktop and four times that on a
 * slow phone, in the middle of the page's start-up, and dollar amounts were the only Intl use on the
 * public pages. Same output as `Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })`
 * with that many fraction digits (tests/unit/formats.test.ts compares the two): like V8's Intl it
 * rounds the shortest decimal form of the number half away from zero (0.015 → "$0.02").
 */
export function formatDollarAmount(value: number, fractionDigits: 0 | 2): string {
  const abs = Math.abs(value);
  if (!(abs < 1e21)) {
    // Exponent form from String() (and Infinity, NaN): rare enough for Intl.
    const digits = { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };
    return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", ...digits }).format(value);
  }
  // String() is the shortest decimal form; below 1e-6 it has an exponent, and such amounts round to 0.
  const [int = "0", frac = ""] = abs < 1e-6 ? ["0"] : String(abs).split(".");
  const roundUp = (frac[fractionDigits] ?? "0") >= "5";
  const scaled = (BigInt(int + frac.slice(0, fractionDigits).padEnd(fractionDigits, "0")) + (roundUp ? 1n : 0n))
    .toString()
    .padStart(fractionDigits + 1, "0");
  const whole = scaled.slice(0, scaled.length - fractionDigits);
  const fraction = fractionDigits ? `.${scaled.slice(-fractionDigits)}` : "";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction}`;
}

/**
 * Integer cents as people read dollars: `formatMoney(102583)` → "$1,025.83"; `{ cents: false }` →
 * "$50,000" (rounded half away from zero to dollars); `{ cents: "auto" }` shows cents only when there
 * are any ("$250,000", "$1,025.83"). RangeError when given anything but integer cents.
 */
export function formatMoney(cents: Cents, options: { cents?: boolean | "auto" } = {}): string {
  assertCents(cents);
  const show = options.cents ?? true;
  const digits = show === "auto" ? (isWholeDollars(cents) ? 0 : 2) : show ? 2 : 0;
  // cents / 100 is the double nearest to "d.cc", whose shortest decimal form is exactly "d.cc".
  return formatDollarAmount(cents === 0 ? 0 : cents / CENTS_PER_DOLLAR, digits);
}

/**
 * A number of dollars (the calculator's and the wizard's typed figures) as US dollars: formatUsd(1025.83) → "$1,025.83"; `{ cents: false }` → "$50,000" (rounded to dollars).
 * Accepts numeric strings (PostgreSQL numeric arrives as a string); anything not finite gives "$0.00".
 */
export function formatDollarNumber(amount: number | string, options: { cents?: boolean } = {}): string {
  const n = typeof amount === "number" ? amount : Number(amount);
  const value = Number.isFinite(n) ? n : 0;
  // Avoid "-$0.00" for tiny negative rounding leftovers.
  const clean = Object.is(Math.round(value * CENTS_PER_DOLLAR), -0) ? 0 : value;
  return formatDollarAmount(clean, options.cents === false ? 0 : 2);
}

/** Whole dollars when the amount has no cents ("$50,000"), otherwise with cents ("$1,025.83"). */
export function formatAmount(amount: number | string): string {
  const n = Number(amount);
  return formatDollarNumber(amount, { cents: !Number.isInteger(n) });
}

/** Cents as plain dollars with two decimals, no sign, symbol or separators ("1234.50"): for CSV files. */
export function formatMoneyDecimal(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / CENTS_PER_DOLLAR)}.${String(abs % CENTS_PER_DOLLAR).padStart(2, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------------------------

/** Thousandths of a percent from a percent given with at most three decimals (8.125 → 8125); RangeError otherwise. */
export function rateFromPercent(percent: number): RateMilli {
  if (!Number.isFinite(percent) || Math.abs(percent) > 1e9 || Number(percent.toFixed(3)) !== percent) throw new RangeError(`not a percent with at most three decimals: ${percent}`);
  return Math.round(percent * MILLI_PER_PERCENT);
}

/** Any percent to the nearest thousandth (a figure typed into the calculator may carry more decimals). */
export function roundToRate(percent: number): RateMilli {
  return Math.round(percent * MILLI_PER_PERCENT);
}

/** A rate as a number of percent (8125 → 8.125), for arithmetic in floating point (an APR search) or a control. */
export function percentOf(rate: RateMilli): number {
  return rate / MILLI_PER_PERCENT;
}

/**
 * The one rate formatter. `fixed` (the default): at least two decimals, a third only when it is not zero
 * (8125 → "8.125", 8500 → "8.50"), as offers and agreements show a note rate. `short`: at most two
 * decimals, trailing zeros dropped (8500 → "8.5", 5990 → "5.99"), as the wizard and the calculator show a
 * rate. Neither adds the "%" sign.
 */
export function formatRate(rate: RateMilli, { style = "fixed" }: { style?: "fixed" | "short" } = {}): string {
  if (!Number.isSafeInteger(rate)) throw new RangeError(`not thousandths of a percent: ${rate}`);
  const sign = rate < 0 ? "-" : "";
  const abs = Math.abs(rate);
  const whole = Math.floor(abs / MILLI_PER_PERCENT);
  const fraction = String(abs % MILLI_PER_PERCENT).padStart(3, "0");
  if (style === "short") {
    // Two decimals, half away from zero on the third, then trailing zeros dropped.
    const hundredths = Math.round(abs / 10);
    const w = Math.floor(hundredths / 100);
    const f = String(hundredths % 100).padStart(2, "0").replace(/0+$/, "");
    return `${sign}${w}${f ? `.${f}` : ""}`;
  }
  return `${sign}${whole}.${fraction.endsWith("0") ? fraction.slice(0, 2) : fraction}`;
}
