import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { approvedLoans, auditLog, emailOutbox, loanFlags, loanProtections, paymentPromises, profiles, servicingNotices, userRoles } from "~/server/platform/db/schema.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { settleLoan } from "~/server/loans/charge-off.server";
import { payoffQuote } from "~/domain/loan-servicing";
import { recordPayment, reversePayment } from "~/server/loans/payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { assignLoanToMe, collectionsAction, logContact, promiseToPay } from "~/server/loans/collections.server";
import { collectionsQueuePage } from "~/server/loans/collections-queue.server";
import { localClock, timeZoneOfState, withinContactHours } from "~/domain/contact-hours";
import { activeLoan, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { seedStaff } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { withoutUuids } from "../helpers/without-uuids";

/**
 * Collections: the queue (order, filters, markers), Assign to Me between two officers at once, contact
 * hours by the borrower's state, promises kept when the payment posts and broken the day after with a
 * flag, two promises at once, the 15/30/60-day notices once each, and protected loans left alone.
 */

const dataDir = setUpTestConfig("collections", { APP_SECRET: "c".repeat(48), PUBLIC_URL: "https://loans.example.com" });

const at = (iso: string) => new Date(iso.length === 10 ? `${iso}T16:00:00.000Z` : iso);
const caller = (actor: AuditActor) => ({ actor, request: {} });

describe("collections on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let admin: AuditActor;
  let officerA: AuditActor;
  let officerB: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), "collections-admin");
    const a = await seedStaff(db(), { id: "officer-a", name: "Olive Officer", email: "olive@example.com", role: "loan_officer" });
    const b = await seedStaff(db(), { id: "officer-b", name: "Owen Officer", email: "owen@example.com", role: "loan_officer" });
    officerA = { id: a.id, name: a.name, email: a.email };
    officerB = { id: b.id, name: b.name, email: b.email };
  });

  const inState = async (loan: ActiveLoan, state: string) => db().update(profiles).set({ state }).where(eq(profiles.id, loan.owner.id));
  const protect = (loan: ActiveLoan, kind: "servicemember" | "bankruptcy") =>
    db().insert(loanProtections).values({ loanId: loan.loanId, kind, startsOn: "2026-01-01", reference: "Case 26-10001", recordedBy: admin.id });

  it("maps states to zones (split states by their most populous zone) and keeps 8:00–20:59 local, edges included", () => {
    expect(timeZoneOfState("NY")).toBe("America/New_York");
    expect(timeZoneOfState(" tn ")).toBe("America/Chicago");
    expect(timeZoneOfState("ZZ")).toBeNull();
    expect(timeZoneOfState("constructor")).toBeNull();
    // New York in winter is UTC-5: 20:59 is in, 21:00 out, 7:59 out, 8:00 in.
    expect(withinContactHours(new Date("2026-12-08T01:59:00Z"), "America/New_York")).toBe(true);
    expect(withinContactHours(new Date("2026-12-08T02:00:00Z"), "America/New_York")).toBe(false);
    expect(withinContactHours(new Date("2026-12-07T12:59:00Z"), "America/New_York")).toBe(false);
    expect(withinContactHours(new Date("2026-12-07T13:00:00Z"), "America/New_York")).toBe(true);
    // Daylight time moves the edge an hour: 8:00 EDT is 12:00 UTC.
    expect(localClock(new Date("2026-07-07T12:00:00Z"), "America/New_York").hour).toBe(8);
    // Arizona keeps no daylight time: 7:30 MST in July is 14:30 UTC.
    expect(withinContactHours(new Date("2026-07-07T14:30:00Z"), "America/Phoenix")).toBe(false);
    // No state: both coasts. 12:00 UTC is 7 a.m. EST but 4 a.m. PST; 20:00 UTC is 3 p.m. / noon.
    expect(withinContactHours(new Date("2026-12-07T20:00:00Z"), null)).toBe(true);
    expect(withinContactHours(new Date("2026-12-07T15:30:00Z"), null)).toBe(false);
  });

  it("lists active late loans oldest first with amount due and markers, filters mine/unassigned, and Assign to Me goes to one of two officers", async () => {
    const older = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-06-10") });
    const newer = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-11-10") });
    const current = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-02-20") });
    const today = "2026-03-15";
    const mine = [older.loanId, newer.loanId, current.loanId];
    const page = async (actor: AuditActor, filter: "all" | "mine" | "unassigned") =>
      (await collectionsQueuePage({ filter, after: null }, caller(actor), db(), today)).rows.filter((r) => mine.includes(r.loanId));

    let rows = await page(officerA, "all");
    expect(rows.map((r) => r.loanId)).toEqual([older.loanId, newer.loanId]);
    const { state } = (await loadLedger(older.loanId, db(), today))!;
    expect(rows[0]).toMatchObject({ daysPastDue: state.daysPastDue, amountDueCents: state.nextInstallment!.amountDueCents, bucket: "120+", proposedForChargeOff: true, collector: null });
    expect(rows[1]).toMatchObject({ bucket: "90-119", proposedForChargeOff: false });

    // Two officers at once: one gets it, the other is told who did.
    const results = await Promise.allSettled([assignLoanToMe(older.loanId, caller(officerA), db()), assignLoanToMe(older.loanId, caller(officerB), db())]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason.status).toBe(409);
    const [row] = await db().select({ collectorId: approvedLoans.collectorId }).from(approvedLoans).where(eq(approvedLoans.id, older.loanId));
    const winner = row!.collectorId === officerA.id ? officerA : officerB;
    const loser = winner === officerA ? officerB : officerA;
    expect(refused.reason.message).toContain(winner.name);
    // Asking again for one's own loan is fine; the other still cannot take it.
    await assignLoanToMe(older.loanId, caller(winner), db());
    await expect(assignLoanToMe(older.loanId, caller(loser), db())).rejects.toMatchObject({ status: 409 });

    expect((await page(winner, "mine")).map((r) => r.loanId)).toEqual([older.loanId]);
    expect((await page(loser, "mine")).map((r) => r.loanId)).toEqual([]);
    expect((await page(loser, "unassigned")).map((r) => r.loanId)).toEqual([newer.loanId]);

    // Markers: a protection stops contact; a broken promise flags the loan.
    await protect(newer, "servicemember");
    await db().insert(loanFlags).values({ loanId: older.loanId, kind: "broken_promise", summary: "Promise broken." });
    rows = await page(officerA, "all");
    expect(rows.find((r) => r.loanId === newer.loanId)).toMatchObject({ contactStopped: true, brokenPromise: false });
    expect(rows.find((r) => r.loanId === older.loanId)).toMatchObject({ contactStopped: false, brokenPromise: true, collector: { id: winner.id, name: winner.name } });

    // A protected loan takes no contact and no promise.
    await expect(logContact(newer.loanId, { intent: "log-contact", channel: "email", outcome: "no_answer", note: null, nextAction: null, nextActionOn: null }, caller(officerA), db(), at(today))).rejects.toMatchObject({ status: 409 });
    await expect(promiseToPay(newer.loanId, { intent: "promise-to-pay", amount: 100, promisedOn: "2026-03-20" }, caller(officerA), db(), today)).rejects.toMatchObject({ status: 409 });
  });

  it("a loan whose collector was deactivated can be taken with Assign to Me; an active collector's cannot", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const c = await seedStaff(db(), { id: "officer-c", name: "Cora Collector", email: "cora@example.com", role: "loan_officer" });
    await assignLoanToMe(loan.loanId, caller({ id: c.id, name: c.name, email: c.email }), db());
    await expect(assignLoanToMe(loan.loanId, caller(officerA), db())).rejects.toMatchObject({ status: 409 });
    await db().update(userRoles).set({ deactivatedAt: new Date() }).where(eq(userRoles.userId, c.id));
    await assignLoanToMe(loan.loanId, caller(officerA), db());
    expect((await db().select({ collectorId: approvedLoans.collectorId }).from(approvedLoans).where(eq(approvedLoans.id, loan.loanId)))[0]!.collectorId).toBe(officerA.id);
  });

  it("refuses a call or text outside the borrower's local 8 a.m.–9 p.m., by the state on their profile, and allows an e-mail", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
    await inState(loan, "CA");
    const contact = (channel: "call" | "text" | "email", now: string) =>
      logContact(loan.loanId, { intent: "log-contact", channel, outcome: "left_message", note: "Left a voicemail.", nextAction: "Call back", nextActionOn: "2026-03-20" }, caller(officerA), db(), new Date(now));
    // 7:59 a.m. PST is 15:59 UTC: refused; 8:00 is in.
    await expect(contact("call", "2026-03-05T15:59:00Z")).rejects.toMatchObject({ status: 409, message: expect.stringContaining("contact hours") });
    await expect(contact("text", "2026-03-05T15:59:00Z")).rejects.toMatchObject({ status: 409 });
    await expect(contact("call", "2026-03-05T16:00:00Z")).resolves.toBeTypeOf("string");
    // An e-mail at night is logged.
    await expect(contact("email", "2026-03-05T10:00:00Z")).resolves.toBeTypeOf("string");
    // The same instant is 11 a.m. in New York: the borrower's state decides.
    await inState(loan, "NY");
    await expect(contact("call", "2026-03-05T15:59:00Z")).resolves.toBeTypeOf("string");
  });

  it("keeps both of two promises made at once; a payment that adds up by the date keeps them; an unpaid one is broken the day after, with a flag", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const today = "2026-02-20";
    const [p1, p2] = await Promise.all([
      promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 30_000, promisedOn: "2026-02-25" }, caller(officerA), db(), today),
      promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 50_000, promisedOn: "2026-02-25" }, caller(officerB), db(), today),
    ]);
    const statusOf = async (id: string) => (await db().select({ s: paymentPromises.status }).from(paymentPromises).where(eq(paymentPromises.id, id)))[0]!.s;
    expect(await statusOf(p1)).toBe("open");
    expect(await statusOf(p2)).toBe("open");

    // $400 posts: the $300 promise is kept at once, the $500 one stays open.
    await recordPayment(loan.loanId, { amountCents: 40_000, receivedOn: "2026-02-21", method: "check", reference: "CHK-PROMISE-1" }, caller(admin), db(), "2026-02-21");
    expect(await statusOf(p1)).toBe("kept");
    expect(await statusOf(p2)).toBe("open");

    // The job on the promised day leaves it open; the day after it is broken with a flag, once.
    await runServicingJobs(db(), at("2026-02-25"));
    expect(await statusOf(p2)).toBe("open");
    await Promise.all([runServicingJobs(db(), at("2026-02-26")), runServicingJobs(db(), at("2026-02-26"))]);
    expect(await statusOf(p2)).toBe("broken");
    const flags = await db().select().from(loanFlags).where(and(eq(loanFlags.loanId, loan.loanId), eq(loanFlags.kind, "broken_promise")));
    expect(flags).toHaveLength(1);
    expect(flags[0]!.summary).toContain("$500.00");
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "collections.promise_broken"), eq(auditLog.recordId, p2)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBeNull();
  });

  it("a payment reversed after it kept a promise opens the promise again, and the job breaks it the day after its date", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const promise = await promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 30_000, promisedOn: "2026-02-25" }, caller(officerA), db(), "2026-02-20");
    const statusOf = async () => (await db().select({ s: paymentPromises.status, resolvedAt: paymentPromises.resolvedAt }).from(paymentPromises).where(eq(paymentPromises.id, promise)))[0]!;
    const posted = await recordPayment(loan.loanId, { amountCents: 30_000, receivedOn: "2026-02-21", method: "check", reference: "CHK-BOUNCE-1" }, caller(admin), db(), "2026-02-21");
    expect((await statusOf()).s).toBe("kept");

    // The check bounces: the promise is open again, audited, and nothing else it covers changes.
    await reversePayment(posted.paymentId, "Check returned unpaid", caller(admin), db(), "2026-02-24");
    expect(await statusOf()).toEqual({ s: "open", resolvedAt: null });
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "collections.promise_reopened"), eq(auditLog.recordId, promise)));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actorId).toBe(admin.id);

    await runServicingJobs(db(), at("2026-02-26"));
    expect((await statusOf()).s).toBe("broken");
    const flags = await db().select().from(loanFlags).where(and(eq(loanFlags.loanId, loan.loanId), eq(loanFlags.kind, "broken_promise")));
    expect(flags).toHaveLength(1);
  });

  it("a reversal that still leaves enough paid toward a promise keeps it kept", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const promise = await promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 30_000, promisedOn: "2026-02-25" }, caller(officerA), db(), "2026-02-20");
    await recordPayment(loan.loanId, { amountCents: 30_000, receivedOn: "2026-02-21", method: "check", reference: "CHK-KEEP-1" }, caller(admin), db(), "2026-02-21");
    const second = await recordPayment(loan.loanId, { amountCents: 10_000, receivedOn: "2026-02-22", method: "check", reference: "CHK-KEEP-2" }, caller(admin), db(), "2026-02-22");
    await reversePayment(second.paymentId, "Check returned unpaid", caller(admin), db(), "2026-02-23");
    expect((await db().select({ s: paymentPromises.status }).from(paymentPromises).where(eq(paymentPromises.id, promise)))[0]!.s).toBe("kept");
    expect(await db().select().from(auditLog).where(and(eq(auditLog.action, "collections.promise_reopened"), eq(auditLog.recordId, promise)))).toHaveLength(0);
  });

  it("a loan paid in full closes its open promises as kept, one larger than the payoff too; the job never flags it", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const promise = await promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 9_000_000, promisedOn: "2026-03-15" }, caller(officerA), db(), "2026-02-20");
    const ledger = (await loadLedger(loan.loanId, db(), "2026-02-21"))!;
    const payoff = payoffQuote(ledger.terms, ledger.payments, ledger.fees, "2026-02-21").totalCents;
    expect(payoff).toBeLessThan(9_000_000);
    const posted = await recordPayment(loan.loanId, { amountCents: payoff, receivedOn: "2026-02-21", method: "wire", reference: "WIRE-PAID-OFF" }, caller(admin), db(), "2026-02-21");
    expect(posted.paidInFull).toBe(true);
    const statusOf = async () => (await db().select({ s: paymentPromises.status }).from(paymentPromises).where(eq(paymentPromises.id, promise)))[0]!.s;
    expect(await statusOf()).toBe("kept");
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "collections.promise_kept"), eq(auditLog.recordId, promise)));
    expect(audit!.details).toMatchObject({ reason: "paid_in_full" });
    await runServicingJobs(db(), at("2026-03-16"));
    expect(await statusOf()).toBe("kept");
    expect(await db().select().from(loanFlags).where(and(eq(loanFlags.loanId, loan.loanId), eq(loanFlags.kind, "broken_promise")))).toHaveLength(0);
  });

  it("a settlement cancels the loan's open promises (audited with the settling admin); the job leaves them so", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2025-12-10") });
    const promise = await promiseToPay(loan.loanId, { intent: "promise-to-pay", amount: 500_000, promisedOn: "2026-03-15" }, caller(officerA), db(), "2026-02-20");
    await settleLoan(loan.loanId, { amount: 200_000, receivedOn: "2026-02-21", method: "wire", reference: "SET-PROMISE" }, caller(admin), db(), "2026-02-21");
    const [row] = await db().select().from(paymentPromises).where(eq(paymentPromises.id, promise));
    expect(row).toMatchObject({ status: "cancelled", resolvedBy: admin.id });
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "collections.promise_cancel"), eq(auditLog.recordId, promise)));
    expect(audit!.details).toMatchObject({ reason: "settled" });
    await runServicingJobs(db(), at("2026-03-16"));
    expect((await db().select({ s: paymentPromises.status }).from(paymentPromises).where(eq(paymentPromises.id, promise)))[0]!.s).toBe("cancelled");
    expect(await db().select().from(loanFlags).where(and(eq(loanFlags.loanId, loan.loanId), eq(loanFlags.kind, "broken_promise")))).toHaveLength(0);
  });

  it("sends the 15, 30 and 60-day notices once each, only within the borrower's hours, never to a protected loan, without account numbers", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-04-10"), account: "000987654321", routing: "021000021" });
    const guarded = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-04-10") });
    await inState(loan, "NY");
    await inState(guarded, "NY");
    await protect(guarded, "bankruptcy");
    const notices = async (l: ActiveLoan) =>
      (await db().select().from(servicingNotices).where(and(eq(servicingNotices.loanId, l.loanId), inArray(servicingNotices.kind, ["collections_15", "collections_30", "collections_60"])))).map((n) => n.kind).sort();
    // First due 2026-05-10. Day 14: nothing.
    await runServicingJobs(db(), new Date("2026-05-24T15:00:00Z"));
    expect(await notices(loan)).toEqual([]);
    // 2026-05-26T01:30Z: 16 days past due by the UTC day, but 9:30 p.m. on May 25 in New York (EDT): not sent.
    await runServicingJobs(db(), new Date("2026-05-26T01:30:00Z"));
    expect(await notices(loan)).toEqual([]);
    // The same day at 11 a.m. EDT: sent once, even with two runs at once.
    await Promise.all([runServicingJobs(db(), new Date("2026-05-26T15:00:00Z")), runServicingJobs(db(), new Date("2026-05-26T15:00:00Z"))]);
    expect(await notices(loan)).toEqual(["collections_15"]);
    await runServicingJobs(db(), new Date("2026-06-09T15:00:00Z"));
    expect(await notices(loan)).toEqual(["collections_30", "collections_15"].sort());
    await runServicingJobs(db(), new Date("2026-07-09T15:00:00Z"));
    await runServicingJobs(db(), new Date("2026-07-10T15:00:00Z"));
    expect(await notices(loan)).toEqual(["collections_15", "collections_30", "collections_60"]);
    expect(await notices(guarded)).toEqual([]);

    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, loan.owner.email));
    const collections = mails.filter((m) => m.template.startsWith("collections-"));
    expect(collections.map((m) => m.template).sort()).toEqual(["collections-15", "collections-30", "collections-60"]);
    for (const mail of collections) {
      const all = `${mail.subject}\n${mail.textBody}\n${mail.htmlBody}`;
      expect(all).toContain(`/dashboard/loans/${loan.loanId}`);
      expect(all).not.toContain("000987654321");
      expect(withoutUuids(all)).not.toContain("4321");
      expect(all).not.toContain("021000021");
    }
    const guardedMails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, guarded.owner.email));
    expect(guardedMails.filter((m) => m.template.startsWith("collections-"))).toHaveLength(0);
  });

  it("answers bad input with the form's message and a 4xx: control characters, an unknown intent, another loan's promise, a paid-off loan", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
    const post = (fields: Record<string, string>, id: string | undefined = loan.loanId) =>
      collectionsAction(new Request("https://loans.example.com/x", { method: "POST", body: new URLSearchParams(fields) }), id, caller(officerA), { db: db(), now: new Date("2026-03-05T16:00:00Z") });
    let answer = await post({ intent: "log-contact", channel: "email", outcome: "reached", note: "bad\u0000note" });
    expect(answer.status).toBe(400);
    expect(answer.body.fieldErrors?.note?.[0]).toContain("control");
    answer = await post({ intent: "constructor" });
    expect(answer.status).toBe(400);
    answer = await post({ intent: "promise-to-pay", amount: "0", promisedOn: "2026-03-10" });
    expect(answer.status).toBe(400);
    answer = await post({ intent: "promise-to-pay", amount: "100", promisedOn: "2026-03-10" }, "not-a-uuid");
    expect(answer.status).toBe(404);
    answer = await post({ intent: "promise-to-pay", amount: "100", promisedOn: "2026-03-10" });
    expect(answer.status).toBe(200);
    const other = await activeLoan(db(), dataDir, admin, { signedAt: at("2026-01-10") });
    const [promise] = await db().select({ id: paymentPromises.id }).from(paymentPromises).where(eq(paymentPromises.loanId, loan.loanId));
    answer = await post({ intent: "cancel-promise", promiseId: promise!.id }, other.loanId);
    expect(answer.status).toBe(404);
    answer = await post({ intent: "cancel-promise", promiseId: promise!.id });
    expect(answer.status).toBe(200);
    await db().update(approvedLoans).set({ status: "paid_off", paidOffAt: new Date() }).where(eq(approvedLoans.id, other.loanId));
    answer = await post({ intent: "log-contact", channel: "email", outcome: "reached" }, other.loanId);
    expect(answer.status).toBe(409);
    // A charged-off loan is worked by charge-off and recovery, not by collections contact.
    await db().update(approvedLoans).set({ status: "charged_off", chargedOffOn: "2026-03-01", chargedOffCents: 100 }).where(eq(approvedLoans.id, loan.loanId));
    answer = await post({ intent: "promise-to-pay", amount: "100", promisedOn: "2026-03-10" });
    expect(answer.status).toBe(409);
    answer = await post({ intent: "assign-to-me" });
    expect(answer.status).toBe(409);
  });
});
