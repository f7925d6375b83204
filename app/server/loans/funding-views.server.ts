import { LIVE_FUNDING_STATUSES } from "~/domain/servicing-enums";
import { desc, eq, inArray } from "drizzle-orm";
import { fundsReturnedMessage, returnCodeText } from "~/domain/funding-checklist";
import { todayUtc } from "~/domain/dates";
import { approvedLoanStatusLabel } from "~/domain/labels";
import { FUNDING_STATUS_LABELS } from "~/domain/servicing-enums";
import type { LoanFundingNotice } from "~/domain/views/borrower-loan";
import { maskedAccount } from "~/domain/views/borrower-loan";
import type { StaffLoanFunding } from "~/domain/views/staff-loans";
import { getConfig } from "~/server/platform/config.server";
import { getDb, type DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, approvedLoans, loanFundings } from "~/server/platform/db/schema.server";
import { peopleByIds } from "~/server/accounts/index.server";
import { bankAccountsByIds } from "~/server/applications/index.server";
import { loanChecklist } from "./funding-checklist.server";
import { cancellableFrom } from "./funding.server";
import type { LoanRow } from "./ledger.server";

/**
 * What the staff and borrower pages show of a loan's funding. The latest credit of each loan (the
 * live one: at most one is live, and it is the newest) with its file's effective date; staff also get
 * the checklist and what they may do; borrowers a notice.
 */

type CreditRow = typeof loanFundings.$inferSelect & { effectiveDate: string | null };

/** Each loan's newest credit, with its ACH file's effective date. */
async function latestCredits(loanIds: readonly string[], db: DbOrTx): Promise<Map<string, CreditRow>> {
  if (loanIds.length === 0) return new Map();
  const rows = await db
    .select({ credit: loanFundings, effectiveDate: achBatches.effectiveDate })
    .from(loanFundings)
    .leftJoin(achBatches, eq(achBatches.id, loanFundings.achBatchId))
    .where(inArray(loanFundings.loanId, [...new Set(loanIds)]))
    .orderBy(desc(loanFundings.preparedAt), desc(loanFundings.id));
  const out = new Map<string, CreditRow>();
  for (const r of rows) if (!out.has(r.credit.loanId)) out.set(r.credit.loanId, { ...r.credit, effectiveDate: r.effectiveDate });
  return out;
}

const personName = (p: { name: string; profileName: string | null } | undefined) => (p ? p.profileName?.trim() || p.name : null);

/** The staff loan page's funding section, as `viewerId` may act on it. */
export async function staffLoanFunding(loan: LoanRow, viewerId: string, db: DbOrTx = getDb(), today: string = todayUtc()): Promise<StaffLoanFunding> {
  const [checklist, credits, from] = await Promise.all([loanChecklist(loan, db), latestCredits([loan.id], db), cancellableFrom(loan, db)]);
  const credit = credits.get(loan.id) ?? null;
  const [people, accounts] = await Promise.all([peopleByIds([credit?.preparedBy, credit?.releasedBy, loan.cancelledBy], db), bankAccountsByIds([credit?.bankAccountId ?? null], db)]);
  const account = credit ? accounts.get(credit.bankAccountId) : undefined;
  const awaiting = loan.status === "awaiting_funding";
  const live = credit !== null && (LIVE_FUNDING_STATUSES as readonly string[]).includes(credit.status);
  return {
    loanStatus: loan.status,
    loanStatusLabel: approvedLoanStatusLabel(loan.status),
    checklist: checklist.items,
    fingerprint: checklist.fingerprint,
    allMet: checklist.allMet,
    feeCents: checklist.feeCents,
    feeHandling: loan.originationFeeHandling,
    netProceedsCents: checklist.netProceedsCents,
    fourEyes: checklist.netProceedsCents >= getConfig().fourEyesThresholdCents,
    credit: credit
      ? {
          id: credit.id,
          status: credit.status,
          statusLabel: FUNDING_STATUS_LABELS[credit.status],
          amountCents: credit.amountCents,
          secCode: credit.secCode,
          account: account ? maskedAccount(account.accountType, account.last4) : "—",
          preparedBy: personName(people.get(credit.preparedBy ?? "")),
          preparedAt: credit.preparedAt.toISOString(),
          releasedBy: personName(people.get(credit.releasedBy ?? "")),
          releasedAt: credit.releasedAt?.toISOString() ?? null,
          effectiveDate: credit.effectiveDate,
          settledOn: credit.settledOn,
          returnedOn: credit.returnedOn,
          returnText: credit.returnCode ? returnCodeText(credit.returnCode) : null,
        }
      : null,
    canFund: awaiting && !live && checklist.allMet,
    canRelease: credit?.status === "prepared" && credit.preparedBy !== viewerId,
    canCancelFunding: credit !== null && (credit.status === "prepared" || credit.status === "released") && credit.achBatchId === null,
    canMarkSettledOrReturned: credit?.status === "sent",
    cancellableFrom: from,
    canCancelLoan: awaiting && !(credit && (credit.status === "sent" || credit.status === "settled")) && today >= from,
    canRecordFee: awaiting && !live && loan.originationFeeHandling === "deducted",
    idDocuments: checklist.idDocuments.map((d) => ({ id: d.id, label: d.label, fileName: d.fileName, accepted: d.acceptedAt !== null })),
    fundedOn: loan.fundedOn,
    cancelled: loan.cancelledAt ? { at: loan.cancelledAt.toISOString(), by: personName(people.get(loan.cancelledBy ?? "")), reason: loan.cancelReason ?? "" } : null,
  };
}

/**
 * The borrowers' funding notices of these loans: cancelled (void, with the reason); the funds sent
 * (the file's effective date, the account's last four digits), also once settled; returned (what to
 * do); awaiting funding. None for a loan funded before funding was recorded.
 */
export async function fundingNoticesOf(loanIds: readonly string[], db: DbOrTx = getDb()): Promise<Map<string, LoanFundingNotice>> {
  const out = new Map<string, LoanFundingNotice>();
  if (loanIds.length === 0) return out;
  const [loans, credits] = await Promise.all([
    db
      .select({ id: approvedLoans.id, status: approvedLoans.status, cancelledAt: approvedLoans.cancelledAt, cancelReason: approvedLoans.cancelReason })
      .from(approvedLoans)
      .where(inArray(approvedLoans.id, [...new Set(loanIds)])),
    latestCredits(loanIds, db),
  ]);
  const accounts = await bankAccountsByIds([...credits.values()].map((c) => c.bankAccountId), db);
  for (const loan of loans) {
    const credit = credits.get(loan.id);
    if (loan.status === "cancelled") {
      out.set(loan.id, { kind: "cancelled", cancelledOn: todayUtc(loan.cancelledAt ?? new Date()), reason: loan.cancelReason ?? "" });
    } else if (credit && (credit.status === "sent" || credit.status === "settled") && credit.effectiveDate) {
      out.set(loan.id, { kind: "sent", sentOn: credit.effectiveDate, last4: accounts.get(credit.bankAccountId)?.last4 ?? "" });
    } else if (loan.status === "awaiting_funding" && credit?.status === "returned" && credit.returnCode) {
      out.set(loan.id, { kind: "returned", returnCode: credit.returnCode, message: fundsReturnedMessage(credit.returnCode) });
    } else if (loan.status === "awaiting_funding") {
      out.set(loan.id, { kind: "awaiting" });
    }
  }
  return out;
}
