import type { ProtectionKind } from "~/domain/collections-enums";

/**
 * What the staff loan page's Charge-off and Protections panels show, as plain data (money in integer
 * cents, days 'yyyy-MM-dd', instants ISO). Built by app/server/loans/charge-off.server.ts and
 * app/server/loans/loan-protections.server.ts.
 */

export type ChargeOffPanelData = {
  /** The loan is active and past due: Charge Off may be used (the reason says why, also before the proposal day). */
  eligible: boolean;
  daysPastDue: number;
  /** The days past due at which the collections queue proposes a charge-off (CHARGE_OFF_DAYS). */
  chargeOffDays: number;
  /** What the loan owes today: principal, interest and fees (the amount a charge-off moves). */
  owedCents: number;
  /** The amount at or above which a second admin approves the charge-off. */
  fourEyesThresholdCents: number;
  /** A charge-off awaiting another admin's approval. */
  pending: { id: string; amountCents: number; reason: string; requestedBy: string; requestedByViewer: boolean; createdAt: string } | null;
  chargedOff: { on: string; amountCents: number; reason: string; by: string; principalCents: number; interestCents: number; feesCents: number } | null;
  /** What payments after the charge-off have recovered. */
  recoveredCents: number;
  settled: { on: string; forgivenCents: number; by: string } | null;
  /** Record Settlement may be used: an active or charged-off loan, not settled. */
  settleable: boolean;
};

export type ProtectionView = {
  id: string;
  kind: ProtectionKind;
  kindLabel: string;
  startsOn: string;
  endsOn: string | null;
  reference: string;
  note: string | null;
  recordedBy: string;
  recordedAt: string;
  active: boolean;
  endedAt: string | null;
};

export type ProtectionsPanelData = {
  protections: ProtectionView[];
  /** An active bankruptcy: the automatic stay (the page's banner). */
  stay: { startsOn: string; reference: string } | null;
  /** The SCRA cap in force or past: how much interest it removed to today (ledger with and without it). */
  scra: { capRatePercent: string; noteRatePercent: string; capApplies: boolean; interestRemovedCents: number } | null;
  /** Protections are recorded on a loan being serviced (active or charged off). */
  recordable: boolean;
};
