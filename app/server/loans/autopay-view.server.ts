import { formatMoneyDecimal } from "~/domain/money";
import { and, asc, eq } from "drizzle-orm";
import { canStopAutopayDebit, nextAutopayInstallment } from "~/domain/autopay";
import { isValidated } from "~/domain/views/account-validation";
import type { BorrowerAutopay, UpcomingDebit } from "~/domain/views/borrower-autopay";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { bankAccountsByIds } from "~/server/applications/index.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { accountRestrictions } from "./account-restrictions.server";
import { accountValidations } from "./account-validations.server";
import { installmentsWithAutopayDebit, planAutopayDebit } from "./autopay-plan.server";
import { activeAutopays } from "./autopay-records.server";
import type { LoanRow } from "./ledger.server";

/**
 * The loan page's Autopay section and Upcoming debits: the active authorisation, its next debit (the
 * queued one, else the one planned from today's ledger), the accounts autopay may use, and every
 * pending borrower debit with its day (or "next ACH file") and kind.
 */
export async function autopayPageData(
  loan: LoanRow,
  accountIds: readonly string[],
  db: DbOrTx,
  today: string,
): Promise<{ autopay: BorrowerAutopay; upcomingDebits: UpcomingDebit[]; pendingBlocksPayment: boolean }> {
  const [autopays, validations, restrictions, pending] = await Promise.all([
    activeAutopays([loan.id], db),
    accountValidations(accountIds, db),
    accountRestrictions(accountIds, db),
    db
      .select({
        id: loanPayments.id,
        amountCents: loanPayments.amountCents,
        scheduledOn: loanPayments.scheduledOn,
        bankAccountId: loanPayments.bankAccountId,
        autopayAuthorizationId: loanPayments.autopayAuthorizationId,
        retryOf: loanPayments.retryOf,
        achBatchId: loanPayments.achBatchId,
        installmentNumber: loanPayments.installmentNumber,
        reference: loanPayments.reference,
      })
      .from(loanPayments)
      .where(and(eq(loanPayments.loanId, loan.id), eq(loanPayments.status, "pending"), eq(loanPayments.source, "borrower")))
      .orderBy(asc(loanPayments.scheduledOn), asc(loanPayments.createdAt)),
  ]);
  const auth = autopays.get(loan.id) ?? null;
  const records = await bankAccountsByIds([...pending.map((p) => p.bankAccountId), auth?.bankAccountId ?? null], db);
  const label = (id: string | null) => {
    const r = id ? records.get(id) : undefined;
    return r ? maskedAccount(r.accountType, r.last4) : null;
  };
  const upcomingDebits: UpcomingDebit[] = pending.map((p) => ({
    id: p.id,
    on: p.scheduledOn,
    amountCents: p.amountCents,
    account: label(p.bankAccountId),
    kind: p.retryOf ? "retry" : p.autopayAuthorizationId ? "autopay" : "one_time",
    reference: p.reference,
  }));
  // Make a Payment replaces a system debit not yet in a file; any other pending debit makes it wait.
  const pendingBlocksPayment = pending.some((p) => !(p.achBatchId === null && (p.autopayAuthorizationId !== null || p.retryOf !== null)));
  const usableAccountIds = accountIds.filter((id) => isValidated(validations.get(id)) && !restrictions.has(id));
  const available = loan.status === "active" || loan.status === "approved";
  if (!auth) return { autopay: { available, on: false, terms: null, next: null, usableAccountIds }, upcomingDebits, pendingBlocksPayment };

  const account = label(auth.bankAccountId) ?? "your bank account";
  const queued = pending.find((p) => p.autopayAuthorizationId !== null && p.retryOf === null && p.scheduledOn !== null);
  let next: BorrowerAutopay["next"] = null;
  if (queued?.scheduledOn) {
    next = { on: queued.scheduledOn, amountCents: queued.amountCents, account: label(queued.bankAccountId) ?? account, queued: true, stillGoes: !canStopAutopayDebit(queued.scheduledOn, today, queued.achBatchId !== null) };
  } else if (available) {
    const plan = await planAutopayDebit(db, loan, auth, today, { taken: await installmentsWithAutopayDebit(db, loan.id) });
    if (plan.debit && nextAutopayInstallment(plan.state.installments, auth.daysBeforeDue, today)) next = { on: plan.debit.debitDay, amountCents: plan.debit.amountCents, account, queued: false, stillGoes: false };
  }
  return {
    autopay: {
      available,
      on: true,
      terms: { bankAccountId: auth.bankAccountId, account, amountKind: auth.amountKind, fixedAmountCents: auth.fixedAmountCents, fixedAmountText: auth.fixedAmountCents === null ? null : formatMoneyDecimal(auth.fixedAmountCents), daysBeforeDue: auth.daysBeforeDue, textVersion: auth.textVersion, authorizedAt: auth.authorizedAt.toISOString() },
      next,
      usableAccountIds,
    },
    upcomingDebits,
    pendingBlocksPayment,
  };
}
