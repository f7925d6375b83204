import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { maskedAccount } from "~/domain/views/borrower-loan";
import { bankAccountsByIds } from "~/server/applications/index.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanPayments } from "~/server/platform/db/schema.server";
import { installmentsWithAutopayDebit, planAutopayDebit } from "./autopay-plan.server";
import { activeAutopays, type AutopayRow } from "./autopay-records.server";
import type { LoanRow } from "./ledger.server";
import type { AutopayReminder } from "./servicing-notice-emails.server";

/**
 * What a payment reminder says when autopay is on: the queued debit of the installment (its amount,
 * day and account), else the one autopay plans. Read for a whole batch of loans at once.
 */

type QueuedForReminder = { loanId: string; installmentNumber: number | null; amountCents: number; scheduledOn: string | null; bankAccountId: string | null };

export type AutopayReminders = { autopays: Map<string, AutopayRow>; queued: QueuedForReminder[]; accounts: Map<string, string> };

/** The batch's active autopays, their pending autopay debits and their accounts' labels (three reads). */
export async function autopayRemindersOf(tx: DbOrTx, loanIds: readonly string[]): Promise<AutopayReminders> {
  const autopays = await activeAutopays(loanIds, tx);
  if (autopays.size === 0) return { autopays, queued: [], accounts: new Map() };
  const queued = await tx
    .select({ loanId: loanPayments.loanId, installmentNumber: loanPayments.installmentNumber, amountCents: loanPayments.amountCents, scheduledOn: loanPayments.scheduledOn, bankAccountId: loanPayments.bankAccountId })
    .from(loanPayments)
    .where(and(inArray(loanPayments.loanId, [...autopays.keys()]), eq(loanPayments.status, "pending"), isNotNull(loanPayments.autopayAuthorizationId), isNull(loanPayments.retryOf)));
  const records = await bankAccountsByIds([...[...autopays.values()].map((a) => a.bankAccountId), ...queued.map((q) => q.bankAccountId)], tx);
  const accounts = new Map([...records].map(([id, r]) => [id, maskedAccount(r.accountType, r.last4)]));
  return { autopays, queued, accounts };
}

/** The reminder's autopay line for installment `number`, or null when autopay is off or debits nothing for it. */
export async function autopayReminder(tx: DbOrTx, loan: LoanRow, reminders: AutopayReminders, number: number, today: string): Promise<AutopayReminder | null> {
  const auth = reminders.autopays.get(loan.id);
  if (!auth) return null;
  const queued = reminders.queued.find((q) => q.loanId === loan.id && q.installmentNumber === number);
  if (queued?.scheduledOn) return { amountCents: queued.amountCents, debitOn: queued.scheduledOn, account: reminders.accounts.get(queued.bankAccountId ?? "") ?? "your bank account on file" };
  const plan = await planAutopayDebit(tx, loan, auth, today, { taken: await installmentsWithAutopayDebit(tx, loan.id) });
  if (!plan.debit || plan.debit.installment.number !== number) return null;
  return { amountCents: plan.debit.amountCents, debitOn: plan.debit.debitDay, account: reminders.accounts.get(auth.bankAccountId) ?? "your bank account on file" };
}
