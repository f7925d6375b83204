import type { SanctionsList, SanctionsMatch, SanctionsMatchStatus, SanctionsScreeningTrigger } from "~/domain/sanctions";

/**
 * The Sanctions Screening section of the staff application page, as plain data: the application's
 * state, its last screening (when, why, against which publications) and every potential match found,
 * each with the list entry and what helps staff decide (dates of birth and countries beside the
 * applicant's). Open matches are decided with Clear Match or Confirm Match.
 */

export type SanctionsState = "not_screened" | "clear" | "potential_match" | "confirmed";

export type SanctionsScreeningView = {
  screenedAt: string;
  trigger: SanctionsScreeningTrigger;
  /** The publications compared against; empty when no list was loaded then. */
  lists: { list: SanctionsList; publishedOn: string }[];
  matchCount: number;
};

export type SanctionsMatchView = {
  id: string;
  status: SanctionsMatchStatus;
  match: SanctionsMatch;
  foundAt: string;
  decidedByName: string | null;
  decidedAt: string | null;
  reason: string | null;
};

export type SanctionsPanelView = {
  state: SanctionsState;
  lastScreening: SanctionsScreeningView | null;
  /** Open first, then decided, newest first. */
  matches: SanctionsMatchView[];
};

/** How the section's heading reads in each state: with an open match, exactly "Sanctions Screening: Potential Match". */
export const SANCTIONS_HEADINGS: Record<SanctionsState, string> = {
  not_screened: "Sanctions Screening: Not Screened",
  clear: "Sanctions Screening: Clear",
  potential_match: "Sanctions Screening: Potential Match",
  confirmed: "Sanctions Screening: Match Confirmed",
};

export const SANCTIONS_TRIGGER_LABELS: Record<SanctionsScreeningTrigger, string> = {
  submission: "at submission",
  funding: "at Fund Loan",
  list_load: "after a list load",
};
