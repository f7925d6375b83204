import { parseMoney, type Cents, type RateMilli } from "~/domain/money";
import { parseRate } from "~/domain/rate-text";
import { z } from "./zod";

/**
 * The form fields that hold a figure: an amount of money, a rate, a whole number. Each reads the text
 * a form posts (or a number a caller passes) and outputs the figure in its one unit: money as integer
 * cents, a rate as thousandths of a percent (decision 0078), so the server receives what it stores and
 * never converts. Anything else, or a figure out of range, is one issue with the field's own message;
 * a form's messages quote dollars and percents, so the limits are given here in cents and thousandths
 * beside them.
 */

/** The characters a person may type around an amount: "$", thousands separators, spaces. */
const DECORATION = /[$,\s]/g;

/**
 * The figure `read` finds in the text (trimmed, `strip` removed; a number as written by String), or
 * the message when it finds none. Out of range is the message too, as a check that keeps the figure,
 * so an object's own rules still see it (the wizard's loan type range adds its message after).
 */
function figureField<T extends number>(message: string, read: (raw: string) => T | null, inRange: (value: T) => boolean, strip: RegExp | null = DECORATION) {
  return z
    .union([z.string(), z.number()], { error: message })
    .transform((value) => (typeof value === "number" ? String(value) : strip ? value.trim().replace(strip, "") : value.trim()))
    .refine((raw) => read(raw) !== null, message)
    .transform((raw) => read(raw)!)
    .refine(inRange, message);
}

/**
 * Dollars typed with or without "$" and thousands separators, at most two decimals and
 * `maxWholeDigits` digits before the point ("50,000", "250.5"), as integer cents from `minCents` to
 * `maxCents`. Sub-cent input is refused, never rounded.
 */
export function moneyField(message: string, { maxWholeDigits, minCents, maxCents }: { maxWholeDigits: number; minCents: Cents; maxCents: Cents }) {
  const amount = new RegExp(`^\\d{1,${maxWholeDigits}}(\\.\\d{1,2})?$`);
  // Digits beyond what cents can count exactly are an amount out of any range, not a malformed one.
  const read = (raw: string) => (amount.test(raw) ? (parseMoney(raw, { maxDigits: maxWholeDigits }) ?? Number.POSITIVE_INFINITY) : null);
  return figureField<Cents>(message, read, (cents) => cents >= minCents && cents <= maxCents);
}

/**
 * A percent with at most two decimals and `maxWholeDigits` digits before the point ("8.5"), as
 * thousandths of a percent from `minMilli` to `maxMilli`. `strip: null` reads the text as typed (the
 * wizard refuses "8 .5"); by default "$", commas and spaces are dropped first, as the staff dialogs did.
 */
export function rateField(message: string, { maxWholeDigits, minMilli, maxMilli, strip }: { maxWholeDigits: number; minMilli: RateMilli; maxMilli: RateMilli; strip?: null }) {
  return figureField<RateMilli>(message, (raw) => parseRate(raw, { decimals: 2, maxWholeDigits }), (milli) => milli >= minMilli && milli <= maxMilli, strip);
}

/**
 * The same field behind a text rule that has already read the form's string (the wizard's
 * `required(...).pipe(...)`): a field that accepts text or a number accepts the text.
 */
export function fromText<T>(field: z.ZodType<T, string | number>): z.ZodType<T, string> {
  return field as z.ZodType<T, string>;
}

/** A whole number of at most `maxDigits` digits from `min` to `max` (a term in months). */
export function wholeNumberField(message: string, { maxDigits, min, max }: { maxDigits: number; min: number; max: number }) {
  const digits = new RegExp(`^\\d{1,${maxDigits}}$`);
  return figureField(message, (raw) => (digits.test(raw) ? Number(raw) : null), (n) => n >= min && n <= max);
}
