/**
 * Independent checks of the disclosure's APR for the tests: Appendix J's general equation for a single
 * advance and monthly payments, the unit period a month and payment k due k whole months after it.
 */

/**
 * The APR written independently of the module: Newton's method on f(i) = Σ Pₖ(1 + i)^−k − A, each term
 * by Math.pow (the module bisects and uses Horner's rule). f falls and is convex in i, so Newton from
 * i = 0, where f ≥ 0, climbs to the root without overshooting.
 */
export function newtonAprPercent(amountFinancedCents: number, payments: readonly number[]): number {
  let i = 0;
  for (let step = 0; step < 100; step++) {
    let f = -amountFinancedCents;
    let slope = 0;
    payments.forEach((p, index) => {
      const k = index + 1;
      f += p * Math.pow(1 + i, -k);
      slope -= k * p * Math.pow(1 + i, -k - 1);
    });
    const next = i - f / slope;
    if (Math.abs(next - i) < 1e-15) return next * 1200;
    i = next;
  }
  return i * 1200;
}
