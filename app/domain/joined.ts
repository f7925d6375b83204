/**
 * Two constant lists as one, types kept. A call marked pure is dropped by the bundler wherever its result
 * is unused (a bare array spread is kept for its possible side effects), so a module of such lists costs
 * a page nothing it does not read.
 */
export function joined<A extends readonly string[], B extends readonly string[]>(a: A, b: B): readonly [...A, ...B] {
  return [...a, ...b] as const;
}
