/**
 * A bankruptcy's automatic stay (11 U.S.C. 362) as the servicing job reads it: from the filing day
 * through the day it ended (dismissal or discharge), or still in force. While a stay lasts the lender
 * may not add to what the borrower owes: no late fee is assessed on a day a stay covers, and none is
 * assessed later for those days either (the fee belongs to its day).
 */
export type StayPeriod = { from: string; through: string | null };

/** Whether `day` (YYYY-MM-DD) falls within any of the stays. */
export function stayCovers(day: string, stays: readonly StayPeriod[]): boolean {
  return stays.some((s) => s.from <= day && (s.through === null || day <= s.through));
}
