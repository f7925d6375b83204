/**
 * The US bank routing number (ABA routing transit number) rule: the wizard, drafts, the ACH export and
 * the start-up check of the lender's own bank (ACH_IMMEDIATE_DESTINATION) all use this one rule.
 * Pure, no I/O, safe in the browser.
 *
 * A routing number is nine digits:
 * - its first two digits are a Federal Reserve routing symbol: 01–12 (the twelve Federal Reserve
 *   districts), 21–32 (thrift institutions of those districts), 61–72 (electronic transactions of
 *   those districts) or 80 (traveler's checks). Anything else (00, 13–20, 33–60, 73–79, 81–99) is no
 *   bank an ACH debit can reach;
 * - its ninth digit is the check digit: 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 is a
 *   multiple of ten.
 */

/** What is wrong with a routing number, most basic first; null when it is a valid one. */
export type RoutingNumberProblem = "format" | "routingSymbol" | "checkDigit";

/** The first two digits of a routing number that are a Federal Reserve routing symbol. */
export function isFederalReserveRoutingSymbol(firstTwo: string): boolean {
  if (!/^\d{2}$/.test(firstTwo)) return false;
  const n = Number(firstTwo);
  return (n >= 1 && n <= 12) || (n >= 21 && n <= 32) || (n >= 61 && n <= 72) || n === 80;
}

/** The ABA check digit: the weighted sum (3, 7, 1 repeating) of the nine digits is a multiple of ten. */
function checkDigitOk(nineDigits: string): boolean {
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  return [...nineDigits].reduce((sum, digit, i) => sum + Number(digit) * weights[i]!, 0) % 10 === 0;
}

export function routingNumberProblem(value: string): RoutingNumberProblem | null {
  if (!/^\d{9}$/.test(value)) return "format";
  if (!isFederalReserveRoutingSymbol(value.slice(0, 2))) return "routingSymbol";
  if (!checkDigitOk(value)) return "checkDigit";
  return null;
}

/** Nine digits, a Federal Reserve routing symbol first and a valid check digit last. */
export function isValidRoutingNumber(value: string): boolean {
  return routingNumberProblem(value) === null;
}
