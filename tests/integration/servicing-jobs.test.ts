import { and, eq, inArray, isNull, lte, ne, or } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { lateFeeCents } from "~/domain/loan-servicing";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getConfig } from "~/server/platform/config.server";
import { approvedLoans, auditLog, emailOutbox, loanFees, servicingNotices } from "~/server/platform/db/schema.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { recordPayment } from "~/server/loans/payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { updateNotificationPreferences } from "~/server/accounts/notifications.server";
import { activeLoan, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { withoutUuids } from "../helpers/without-uuids";

/**
 * The servicing job (issue 21): a late fee once per installment even with two runs at once, the late
 * notice once, the payment reminder once (N days before), nothing for a loan paid in full, and
 * e-mails with the amount and due date but no account numbers.
 */

const dataDir = setUpTestConfig("servicing-jobs", { APP_SECRET: "j".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const at = (day: string) => new Date(`${day}T12:00:00.000Z`);

describe("servicing job on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let admin: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), "jobs-admin");
  });

  const feesOf = (loanId: string) => db().select().from(loanFees).where(eq(loanFees.loanId, loanId));
  const noticesOf = (loanId: string, kind: "reminder" | "late_notice") =>
    db()
      .select()
      .from(servicingNotices)
      .where(and(eq(servicingNotices.loanId, loanId), eq(servicingNotices.kind, kind)));
  const mailTo = (email: string) => db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));

  it("assesses a late fee once per installment with two runs at once, sends one late notice, and the loan shows Late", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10"), account: "000555666777", routing: "021000021" });
    const { loan: row, state: before } = (await loadLedger(loan.loanId, db(), "2026-02-26"))!;
    expect(row.startDate).toBe("2026-01-10");
    expect(before.installments[0]!.dueDate).toBe("2026-02-10");

    // 15 grace days: day 15 after the due date is still in grace.
    await runServicingJobs(db(), at("2026-02-25"));
    expect(await feesOf(loan.loanId)).toHaveLength(0);
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(0);

    const runs = await Promise.all([runServicingJobs(db(), at("2026-02-26")), runServicingJobs(db(), at("2026-02-26"))]);
    expect(runs.some((r) => r.ran)).toBe(true);
    const fees = await feesOf(loan.loanId);
    expect(fees).toHaveLength(1);
    const expected = lateFeeCents(before.installments[0]!.paymentCents, getConfig().lateFeePolicy);
    expect(fees[0]).toMatchObject({ kind: "late_fee", installmentNumber: 1, amountCents: expected, assessedOn: "2026-02-26" });
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(1);

    // Later runs: installment 1 is never charged again; installment 2 gets its own fee after its grace.
    await runServicingJobs(db(), at("2026-03-01"));
    expect(await feesOf(loan.loanId)).toHaveLength(1);
    await runServicingJobs(db(), at("2026-03-26"));
    expect((await feesOf(loan.loanId)).map((f) => f.installmentNumber).sort()).toEqual([1, 2]);
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(2);

    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "fee.assess"));
    const mine = audits.filter((a) => (a.details as { loanId?: string }).loanId === loan.loanId);
    expect(mine).toHaveLength(2);
    expect(mine.every((a) => a.actorId === null)).toBe(true);

    const ledger = (await loadLedger(loan.loanId, db(), "2026-03-26"))!;
    expect(ledger.state.status).toBe("late");
    expect(ledger.state.feesDueCents).toBe(2 * expected);

    const mails = (await mailTo(loan.owner.email)).filter((m) => m.template === "late-notice");
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      const all = `${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`;
      expect(all).toContain(`https://loans.example.com/dashboard/loans/${loan.loanId}`);
      expect(all).not.toContain("000555666777");
      expect(withoutUuids(all)).not.toContain("6777");
      expect(all).not.toContain("021000021");
    }
    expect(mails[0]!.textBody).toContain("Feb 10, 2026");
  });

  it("sends the payment reminder once, N days before the due date, for the next unpaid installment", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-04-10"), account: "000111222333" });
    const days = getConfig().paymentReminderDays;
    expect(days).toBe(5);
    await runServicingJobs(db(), at("2026-05-04")); // 6 days before 2026-05-10
    expect(await noticesOf(loan.loanId, "reminder")).toHaveLength(0);
    await Promise.all([runServicingJobs(db(), at("2026-05-05")), runServicingJobs(db(), at("2026-05-05"))]);
    await runServicingJobs(db(), at("2026-05-08"));
    const reminders = await noticesOf(loan.loanId, "reminder");
    expect(reminders.map((r) => r.installmentNumber)).toEqual([1]);
    const mails = (await mailTo(loan.owner.email)).filter((m) => m.template === "payment-reminder");
    expect(mails).toHaveLength(1);
    const { state } = (await loadLedger(loan.loanId, db(), "2026-05-05"))!;
    const amount = `$${(state.nextInstallment!.amountDueCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    expect(mails[0]!.textBody).toContain(amount);
    expect(mails[0]!.textBody).toContain("May 10, 2026");
    expect(mails[0]!.textBody).toContain(`/dashboard/loans/${loan.loanId}`);
    expect(`${mails[0]!.textBody}${mails[0]!.htmlBody}`).not.toContain("000111222333");
    expect(withoutUuids(`${mails[0]!.textBody}${mails[0]!.htmlBody}`)).not.toContain("2333");

    // Installment 1 paid: the next reminder is for installment 2.
    await recordPayment(loan.loanId, { amountCents: state.nextInstallment!.amountDueCents, receivedOn: "2026-05-09", method: "check", reference: "CHK-1001" }, { actor: admin, request: {} }, db(), "2026-05-09");
    await runServicingJobs(db(), at("2026-06-06"));
    expect((await noticesOf(loan.loanId, "reminder")).map((r) => r.installmentNumber).sort()).toEqual([1, 2]);
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(0);
  });

  it("respects a borrower who turned payment reminders off (issue 23): no reminder, late notices still go; turned back on in time, the reminder goes", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-07-10") });
    const reminders = async () => (await mailTo(loan.owner.email)).filter((m) => m.template === "payment-reminder");
    const set = (paymentReminders: boolean) => updateNotificationPreferences(db(), { intent: "update-notifications", paymentReminders, productNews: false }, { actor: loan.owner, request: {} });
    await set(false);
    await runServicingJobs(db(), at("2026-08-06")); // 4 days before 2026-08-10
    expect(await noticesOf(loan.loanId, "reminder")).toHaveLength(0);
    expect(await reminders()).toHaveLength(0);
    // Turned back on before the due date: the reminder was not used up while it was off.
    await set(true);
    await runServicingJobs(db(), at("2026-08-07"));
    expect((await noticesOf(loan.loanId, "reminder")).map((r) => r.installmentNumber)).toEqual([1]);
    expect(await reminders()).toHaveLength(1);
    // Off again, past the grace days: the late notice is transactional and goes whatever the preference.
    await set(false);
    await runServicingJobs(db(), at("2026-08-26"));
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(1);
    expect((await mailTo(loan.owner.email)).filter((m) => m.template === "late-notice")).toHaveLength(1);
    expect(await reminders()).toHaveLength(1);
  });

  it("does nothing for a loan paid in full", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
    await recordPayment(loan.loanId, { amountCents: 1_100_000, receivedOn: "2026-01-20", method: "wire", reference: "WIRE-PAYOFF" }, { actor: admin, request: {} }, db(), "2026-01-20");
    const [row] = await db().select().from(approvedLoans).where(eq(approvedLoans.id, loan.loanId));
    expect(row!.status).toBe("paid_off");
    const before = (await mailTo(loan.owner.email)).length;
    await runServicingJobs(db(), at("2026-02-06"));
    await runServicingJobs(db(), at("2026-06-30"));
    expect(await feesOf(loan.loanId)).toHaveLength(0);
    expect(await noticesOf(loan.loanId, "reminder")).toHaveLength(0);
    expect(await noticesOf(loan.loanId, "late_notice")).toHaveLength(0);
    expect(await mailTo(loan.owner.email)).toHaveLength(before);
  });
  it("reads only the loans that may owe something today, at most once a day each, in batches, and again after a posting", async () => {
    // Signed 2027-01-10: installment 1 falls due 2027-02-10. Far from it, the loan is not even read.
    const quiet = await activeLoan(db(), dataDir, admin, { signedAt: at("2027-01-10") });
    const behind = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-11-10") });
    const soon = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-12-08") });
    const servicedOn = async (loanId: string) => (await db().select({ on: approvedLoans.servicedOn }).from(approvedLoans).where(eq(approvedLoans.id, loanId)))[0]!.on;

    // 2027-01-05: `behind` is past due since 2026-12-10, `soon` falls due 2027-01-08 (3 days).
    const first = await runServicingJobs(db(), at("2027-01-05"), { batchSize: 1 });
    expect(first.ran).toBe(true);
    expect(await servicedOn(quiet.loanId)).toBeNull();
    expect(await servicedOn(behind.loanId)).toBe("2027-01-05");
    expect(await servicedOn(soon.loanId)).toBe("2027-01-05");
    expect(await noticesOf(behind.loanId, "late_notice")).toHaveLength(1);
    expect(await noticesOf(soon.loanId, "reminder")).toHaveLength(1);
    expect(await feesOf(behind.loanId)).toHaveLength(1);

    // The same day again: nothing is read, however many loans the lender holds.
    const again = await runServicingJobs(db(), at("2027-01-05"));
    expect(again).toMatchObject({ ran: true, loans: 0 });

    // A posting changes the ledger: the job looks at that loan again the same day, and only at it.
    const { state } = (await loadLedger(behind.loanId, db(), "2027-01-05"))!;
    await recordPayment(behind.loanId, { amountCents: state.nextInstallment!.amountDueCents, receivedOn: "2027-01-05", method: "check", reference: "CHK-2027" }, { actor: admin, request: {} }, db(), "2027-01-05");
    expect(await servicedOn(behind.loanId)).toBeNull();
    expect(await runServicingJobs(db(), at("2027-01-05"))).toMatchObject({ loans: 1 });
    expect(await feesOf(behind.loanId)).toHaveLength(1);

    // A stopping server: a run told to stop before its next batch reads nothing more.
    const stopped = new AbortController();
    stopped.abort();
    expect(await runServicingJobs(db(), at("2027-02-09"), { signal: stopped.signal })).toMatchObject({ ran: false, loans: 0 });
    expect(await servicedOn(quiet.loanId)).toBeNull();
    // By 2027-02-06 the quiet loan's first installment (2027-02-10) is within the reminder window: now it is read.
    await runServicingJobs(db(), at("2027-02-06"), { batchSize: 2 });
    expect(await servicedOn(quiet.loanId)).toBe("2027-02-06");
    expect(await noticesOf(quiet.loanId, "reminder")).toHaveLength(1);
  });

  it("a run over several batches services every candidate exactly once: no due date, due soon, looked at yesterday, and with two runs at once", async () => {
    // Due 2027-08-08 (within five days of 2027-08-05); two with no due date known (a candidate every
    // day); one due 2027-09-02, not a candidate. Plus whatever the tests above left active and behind.
    const soon = [];
    for (let i = 0; i < 3; i++) soon.push(await activeLoan(db(), dataDir, admin, { signedAt: at("2027-07-08") }));
    const undated = [await activeLoan(db(), dataDir, admin, { signedAt: at("2027-07-20") }), await activeLoan(db(), dataDir, admin, { signedAt: at("2027-07-20") })];
    const later = await activeLoan(db(), dataDir, admin, { signedAt: at("2027-08-02") });
    await db()
      .update(approvedLoans)
      .set({ nextDueDate: null })
      .where(inArray(approvedLoans.id, undated.map((l) => l.loanId)));
    // What the job must look at on `day`, by the rule itself (decision 0053), read directly.
    const candidates = async (day: string) =>
      (
        await db()
          .select({ id: approvedLoans.id })
          .from(approvedLoans)
          .where(
            and(
              inArray(approvedLoans.status, ["active", "approved"]),
              or(isNull(approvedLoans.nextDueDate), lte(approvedLoans.nextDueDate, addDaysIso(day, getConfig().paymentReminderDays))),
              or(isNull(approvedLoans.servicedOn), ne(approvedLoans.servicedOn, day)),
            ),
          )
      )
        .map((r) => r.id)
        .sort();
    const servicedOn = async (day: string) => (await db().select({ id: approvedLoans.id }).from(approvedLoans).where(eq(approvedLoans.servicedOn, day))).map((r) => r.id).sort();

    const first = await candidates("2027-08-05");
    expect(first).toEqual(expect.arrayContaining([...soon, ...undated].map((l) => l.loanId)));
    expect(first).not.toContain(later.loanId);
    expect(first.length).toBeGreaterThanOrEqual(5); // several batches of 2
    const run = await runServicingJobs(db(), at("2027-08-05"), { batchSize: 2 });
    // Counted once per loan looked at: a loan read twice would count twice.
    expect(run.loans).toBe(first.length);
    expect(await servicedOn("2027-08-05")).toEqual(first);
    for (const loan of soon) expect(await noticesOf(loan.loanId, "reminder")).toHaveLength(1);
    expect(await candidates("2027-08-05")).toEqual([]);
    expect(await runServicingJobs(db(), at("2027-08-05"), { batchSize: 2 })).toMatchObject({ ran: true, loans: 0 });

    // The next day every one of them was looked at yesterday (their own range of the index), one was
    // stamped a day ahead (a clock set back), and two runs go at once: together they look at each once.
    await db().update(approvedLoans).set({ servicedOn: "2027-08-07" }).where(eq(approvedLoans.id, undated[0]!.loanId));
    const second = await candidates("2027-08-06");
    expect(second).toEqual(first);
    const both = await Promise.all([runServicingJobs(db(), at("2027-08-06"), { batchSize: 1 }), runServicingJobs(db(), at("2027-08-06"), { batchSize: 3 })]);
    expect(both[0].loans + both[1].loans).toBe(second.length);
    expect(await servicedOn("2027-08-06")).toEqual(second);
    expect(await servicedOn("2027-08-07")).toEqual([]);
    expect(await runServicingJobs(db(), at("2027-08-06"))).toMatchObject({ ran: true, loans: 0 });
  });
});

function addDaysIso(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
