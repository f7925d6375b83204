import { nextBankingDay } from "./banking-days";

/**
 * The day a loan signed on `signedOn` is expected to be funded, which its disclosure and schedule
 * assume: the first banking day after signing, the earliest day an ACH credit sent that day can settle.
 * A credit settles on its file's effective entry date, never earlier, so interest (which starts at
 * settlement) never starts before the day the figures assume: a later funding only lowers the cost.
 */
export function expectedFundingDate(signedOn: string): string {
  return nextBankingDay(signedOn);
}
