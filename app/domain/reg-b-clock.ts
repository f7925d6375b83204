/**
 * The Reg B clock. 12 CFR 1002.9(a)(1)(i): the notice of action taken is due within 30 days
 * after a completed application. Staff see an application flagged once it has been complete for
 * REG_B_FLAG_DAYS with no decision, leaving five days to decide and notify.
 *
 * Complete: nothing the lender asked for is outstanding (no request item still 'requested' or
 * 'rejected'); complete since the later of the submission and the last answer received.
 */
export const REG_B_FLAG_DAYS = 25;
export const REG_B_DUE_DAYS = 30;

/** Days between two instants, whole days elapsed (floor). */
export function daysBetween(from: Date, to: Date): number {
  return Math.floor((to.getTime() - from.getTime()) / 86_400_000);
}
