import { expect } from "vitest";

/**
 * Checks `fn(input)` against each row's expected value (Object.is, as toBe), so a rule's cases read as
 * a table of input and result; a failing row names its input.
 */
export function expectResults<I, O>(fn: (input: I) => O, rows: readonly (readonly [I, O])[]): void {
  for (const [input, expected] of rows) expect(fn(input), `${fn.name}(${JSON.stringify(input)})`).toBe(expected);
}
