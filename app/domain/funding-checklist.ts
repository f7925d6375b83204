import { ACH_RETURN_CODES, type AccountValidationMethod, type OriginationFeeHandling } from "./servicing-enums";
import { ACCOUNT_VALIDATION_METHOD_LABELS } from "./servicing-enums";
import { formatMoney } from "./money";

/**
 * The Funding Checklist of a signed loan: what must hold before its proceeds are sent, each item with
 * who satisfied it and when. Fund Loan is allowed only when every item is met; the checklist as it
 * stood is kept with the credit. Pure rules: the server gathers the facts (funding-checklist.server.ts).
 */

export const FUNDING_CHECKLIST_KEYS = ["agreement_signed", "origination_fee", "sanctions_clear", "identity_document", "bank_account_validated"] as const;
export type FundingChecklistKey = (typeof FUNDING_CHECKLIST_KEYS)[number];

export const FUNDING_CHECKLIST_LABELS: Record<FundingChecklistKey, string> = {
  agreement_signed: "Agreement signed",
  origination_fee: "Loan Origination Fee Compliance",
  sanctions_clear: "Sanctions screening clear",
  identity_document: "Identity document accepted",
  bank_account_validated: "Bank account validated",
};

/** One item: `when` is an ISO instant (or null when not met or unknown). */
export type FundingChecklistItem = { key: FundingChecklistKey; label: string; met: boolean; who: string | null; when: string | null; detail: string };

/** The facts the checklist is decided from (names already resolved; instants as ISO strings). */
export type FundingFacts = {
  /** The signed agreement of the loan's offer, or null (a loan without one). */
  agreement: { signerName: string; signedAt: string } | null;
  fee: {
    handling: OriginationFeeHandling;
    amountCents: number;
    feeCents: number;
    collectedBy: string | null;
    collectedAt: string | null;
    reference: string | null;
  };
  sanctions: { state: "not_screened" | "clear" | "potential_match" | "confirmed"; screenedAt: string | null; openMatches: number };
  /** The application's ID documents: the accepted one (if any) and how many await acceptance. */
  idDocument: { accepted: { fileName: string; acceptedBy: string | null; acceptedAt: string } | null; waiting: number };
  /** The loan's current payment account and its live validation. */
  bankAccount: {
    label: string | null;
    validation: { status: string; statusLabel: string; method: AccountValidationMethod; validatedAt: string | null; recordedBy: string | null; reference: string | null } | null;
  };
};

/** The net proceeds the credit sends: the amount financed (amount less the fee) when the fee is deducted, the whole amount when it was collected. */
export function netProceedsCents(amountCents: number, feeCents: number, handling: OriginationFeeHandling): number {
  return handling === "deducted" ? amountCents - feeCents : amountCents;
}

export function fundingChecklist(facts: FundingFacts): FundingChecklistItem[] {
  const item = (key: FundingChecklistKey, met: boolean, who: string | null, when: string | null, detail: string): FundingChecklistItem => ({
    key,
    label: FUNDING_CHECKLIST_LABELS[key],
    met,
    who: met ? who : null,
    when: met ? when : null,
    detail,
  });
  const { agreement, fee, sanctions, idDocument, bankAccount } = facts;
  const net = formatMoney(netProceedsCents(fee.amountCents, fee.feeCents, fee.handling));
  const feeItem =
    fee.handling === "collected"
      ? item("origination_fee", fee.collectedAt !== null && !!fee.reference, fee.collectedBy, fee.collectedAt, `${formatMoney(fee.feeCents)} collected (reference ${fee.reference ?? "—"}); net proceeds ${net}.`)
      : // The default: the fee comes out of the proceeds, which the borrower agreed to by signing.
        item("origination_fee", agreement !== null, agreement?.signerName ?? null, agreement?.signedAt ?? null, `${formatMoney(fee.feeCents)} deducted from the proceeds; net proceeds ${net}.`);
  const sanctionsDetail = {
    clear: "No open potential match.",
    not_screened: "Not screened yet.",
    potential_match: `Potential match: ${sanctions.openMatches} open ${sanctions.openMatches === 1 ? "match" : "matches"} to clear or confirm.`,
    confirmed: "Confirmed match: the application is denied and frozen.",
  }[sanctions.state];
  const v = bankAccount.validation;
  const accountDetail =
    bankAccount.label === null
      ? "No bank account on file."
      : v === null
        ? `${bankAccount.label}: not validated yet.`
        : v.status === "validated"
          ? `${bankAccount.label}: validated by ${ACCOUNT_VALIDATION_METHOD_LABELS[v.method]}${v.reference ? ` (reference ${v.reference})` : ""}.`
          : `${bankAccount.label}: ${v.statusLabel}.`;
  return [
    item("agreement_signed", agreement !== null, agreement?.signerName ?? null, agreement?.signedAt ?? null, agreement ? "Signed by the borrower." : "No signed agreement on file."),
    feeItem,
    item("sanctions_clear", sanctions.state === "clear", "Screening", sanctions.screenedAt, sanctionsDetail),
    item(
      "identity_document",
      idDocument.accepted !== null,
      idDocument.accepted?.acceptedBy ?? null,
      idDocument.accepted?.acceptedAt ?? null,
      idDocument.accepted ? `${idDocument.accepted.fileName} accepted.` : idDocument.waiting > 0 ? "An ID document awaits acceptance." : "No ID document on the application.",
    ),
    item(
      "bank_account_validated",
      v?.status === "validated",
      v?.method === "prenote" ? "Prenote" : (v?.recordedBy ?? null),
      v?.validatedAt ?? null,
      accountDetail,
    ),
  ];
}

/** What the fingerprint is computed from: each item's key and whether it is met, in checklist order. */
export function checklistState(items: readonly Pick<FundingChecklistItem, "key" | "met">[]): string {
  return items.map((i) => `${i.key}=${i.met ? 1 : 0}`).join(";");
}

/** Every state a checklist of these keys can be in (2^n; n is 5): the server finds the one a fingerprint was made from. */
export function possibleChecklistStates(keys: readonly FundingChecklistKey[] = FUNDING_CHECKLIST_KEYS): { key: FundingChecklistKey; met: boolean }[][] {
  const out: { key: FundingChecklistKey; met: boolean }[][] = [];
  for (let mask = 0; mask < 1 << keys.length; mask++) out.push(keys.map((key, i) => ({ key, met: (mask & (1 << i)) !== 0 })));
  return out;
}

/**
 * The sentence naming what changed between the checklist staff saw (`before`, null when unknown) and
 * the one now: "The checklist changed since the page was loaded: Bank account validated is no longer met."
 */
export function checklistChangeMessage(before: readonly { key: FundingChecklistKey; met: boolean }[] | null, now: readonly FundingChecklistItem[]): string {
  const lead = "The checklist changed since the page was loaded";
  if (!before) return `${lead}. Reload the page and check it again.`;
  const was = new Map(before.map((b) => [b.key, b.met]));
  const parts = now.flatMap((i) => (was.get(i.key) === i.met ? [] : [`${i.label} ${i.met ? "is now met" : "is no longer met"}`]));
  return parts.length === 0 ? `${lead}. Reload the page and check it again.` : `${lead}: ${parts.join("; ")}.`;
}

/** The unmet items, named: "Fund Loan needs every checklist item met: Sanctions screening clear, Bank account validated." */
export function unmetMessage(items: readonly FundingChecklistItem[]): string | null {
  const unmet = items.filter((i) => !i.met).map((i) => i.label);
  return unmet.length === 0 ? null : `Fund Loan needs every checklist item met. Not met: ${unmet.join(", ")}.`;
}

/** "R03 No Account/Unable to Locate Account". */
export function returnCodeText(code: string): string {
  const known = ACH_RETURN_CODES.find((c) => c.code === code);
  return known ? `${known.code} ${known.label}` : code;
}

/** What the borrower reads when their bank sent the proceeds back. */
export function fundsReturnedMessage(code: string): string {
  return `Your bank returned the loan funds (${returnCodeText(code)}). Add another account below so we can send them again.`;
}

export const AWAITING_FUNDING_MESSAGE = "Awaiting Funding: we send the funds once the last checks are complete.";

/** "Funds sent on Dec 8, 2026 to account ••••1234". `day` is already formatted. */
export function fundsSentMessage(day: string, last4: string): string {
  return `Funds sent on ${day} to account ••••${last4}`;
}

/**
 * Why a loan takes no payment in its stored status, or null when it does: nothing debits, charges or
 * posts to a loan whose proceeds were not sent (awaiting funding) or that was cancelled unfunded.
 * A paid-off loan has its own refusal where payments are taken.
 */
export function unfundedPaymentRefusal(status: string): string | null {
  if (status === "awaiting_funding") return "This loan is not funded yet: payments start after the funds are sent.";
  if (status === "cancelled") return "This loan was cancelled before funding: its agreement is void and it takes no payments.";
  if (status === "closed") return "This loan is closed: it takes no more payments.";
  if (status === "settled") return "This loan was settled: it takes no more payments.";
  return null;
}
