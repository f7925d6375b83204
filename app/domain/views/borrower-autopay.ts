import type { AutopayAmountKind } from "~/domain/servicing-enums";

/**
 * The Autopay section of the borrower's loan page and its Upcoming debits, as the server hands them
 * to the browser: integer cents, 'yyyy-MM-dd' days, accounts as "Checking ••••1234" only.
 */

export type AutopayNextDebit = {
  on: string;
  amountCents: number;
  account: string;
  /** Queued (a pending debit) rather than only planned. */
  queued: boolean;
  /** Past its cancel cutoff or in an ACH file: Cancel or Change Autopay no longer stops it. */
  stillGoes: boolean;
};

export type BorrowerAutopay = {
  /** Whether the loan can take autopay at all (funded, not paid off, closed or cancelled). */
  available: boolean;
  on: boolean;
  /** When on: the authorisation's terms. */
  terms: { bankAccountId: string; account: string; amountKind: AutopayAmountKind; fixedAmountCents: number | null; /** The fixed amount as the form's field shows it ("250.00"), formatted on the server. */ fixedAmountText: string | null; daysBeforeDue: number; textVersion: string; authorizedAt: string } | null;
  next: AutopayNextDebit | null;
  /** Accounts autopay may debit: the borrower's, validated, not restricted. */
  usableAccountIds: string[];
};

export type UpcomingDebitKind = "autopay" | "retry" | "one_time";

export const UPCOMING_DEBIT_LABELS: Record<UpcomingDebitKind, string> = { autopay: "Autopay", retry: "Retry", one_time: "One-time" };

export type UpcomingDebit = {
  id: string;
  /** The day it is to settle, or null: it goes in the next ACH file. */
  on: string | null;
  amountCents: number;
  account: string | null;
  kind: UpcomingDebitKind;
  reference: string;
};
