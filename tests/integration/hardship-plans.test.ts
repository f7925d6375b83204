import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { formatMoney } from "~/domain/money";
import type { ScheduleChange } from "~/domain/loan-modifications";
import { HARDSHIP_MESSAGES, type PlanChoice } from "~/domain/validation/hardship";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { approvedLoans, applicationEvents, auditLog, emailOutbox, hardshipRequests, loanFees, loanModifications, userRoles } from "~/server/platform/db/schema.server";
import { getConfig } from "~/server/platform/config.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { borrowerHardshipAction, staffHardshipAction } from "~/server/loans/hardship-actions.server";
import { closeRequest, declinePlan, offerPlan, requestHelp, signPlan, withdrawPlan } from "~/server/loans/hardship-plans.server";
import { borrowerHardship, loadPlanReview, staffHardshipPanel } from "~/server/loans/hardship-views.server";
import { serveModificationFile } from "~/server/loans/modification-file.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { recordPayment } from "~/server/loans/payments.server";
import { settleLoan } from "~/server/loans/charge-off.server";
import { payoffQuote } from "~/domain/loan-servicing";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { lenderSigningIdentity } from "~/server/offers/index.server";
import { appErrorOf } from "../helpers/rejection";
import { activeLoan, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { seedApplicant, seedLoan, seedStaff } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";

/**
 * Hardship plans against the database: Request Help with Payments once per loan (also in parallel),
 * each plan kind offered within its yearly limits, the review page's schedule being the one signed and
 * serviced (the next due date moves), a plan accepted in parallel applying once, withdrawn / expired /
 * stale offers refused, no late fee on installments a plan covers, and the signed PDF read back with
 * poppler (words of the schedule and totals; the lender's signature valid).
 *
 * The calendar: signed 2026-11-20, so installment 1 falls due 2026-12-20; plans are offered and signed
 * on 2026-12-01 unless a test says otherwise.
 */

const dataDir = setUpTestConfig("hardship", { APP_SECRET: "h".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.77", userAgent: "Mozilla/5.0 HardshipTest" };
const SIGNED_AT = new Date("2026-11-20T15:00:00Z");
const DAY = "2026-12-01";
const at = (day: string) => new Date(`${day}T15:00:00Z`);

describe.each(testTargets)("hardship plans on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;
  const storage = () => createLocalStorage(path.join(dataDir, "storage"));

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `hardship-admin-${target}`);
  });

  const borrower = (loan: ActiveLoan) => ({ actor: { ...loan.owner, isStaff: false }, request: info });
  const staff = () => ({ actor: admin, request: info });
  const newLoan = () => activeLoan(db(), dataDir, admin, { signedAt: SIGNED_AT });
  const ask = (loan: ActiveLoan, today = DAY) => requestHelp(loan.loanId, { intent: "request-help", reason: "job_loss", details: "Hours cut", canPay: 150_00 }, borrower(loan), db(), today);
  const offer = (loan: ActiveLoan, plan: PlanChoice, today = DAY) => offerPlan(loan.loanId, plan, "", staff(), db(), today);
  const review = (loan: ActiveLoan, today = DAY) => loadPlanReview(loan.loanId, borrower(loan).actor, db(), today);
  const sign = async (loan: ActiveLoan, modificationId: string, day = DAY, digest?: string) => {
    const page = await review(loan, day);
    return signPlan(loan.loanId, { modificationId, scheduleDigest: digest ?? page!.digest ?? "0".repeat(64), typedName: "Dana Whitfield" }, borrower(loan), { db: db(), storage: storage(), now: at(day) });
  };
  const loanRow = async (loanId: string) => (await db().select().from(approvedLoans).where(eq(approvedLoans.id, loanId)))[0]!;
  const events = (applicationId: string, kind: string) =>
    db()
      .select()
      .from(applicationEvents)
      .where(and(eq(applicationEvents.applicationId, applicationId), eq(applicationEvents.kind, kind as "plan_signed")));
  const setChanges = (loanId: string, changes: ScheduleChange[]) => db().update(approvedLoans).set({ scheduleChanges: changes }).where(eq(approvedLoans.id, loanId));

  it("Request Help with Payments: one request in progress per loan, also when asked three times at once; audited, on the timeline, shown to staff", async () => {
    const loan = await newLoan();
    const results = await Promise.allSettled([0, 1, 2].map(() => ask(loan)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as Error).message).toBe(HARDSHIP_MESSAGES.alreadyAsked);
    const rows = await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loan.loanId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "open", reason: "job_loss", canPayCents: 150_00, details: "Hours cut" });
    expect(await events(loan.applicationId, "hardship_requested")).toHaveLength(1);
    expect(await db().select().from(auditLog).where(and(eq(auditLog.action, "hardship.request"), eq(auditLog.recordId, rows[0]!.id)))).toHaveLength(1);
    const panel = await staffHardshipPanel(loan.loanId, db(), DAY);
    expect(panel!.request).toMatchObject({ status: "open", reasonLabel: "Job loss or reduced hours" });
    const mine = await borrowerHardship(loan.loanId, borrower(loan).actor, db(), DAY);
    expect(mine).toMatchObject({ canRequest: false, request: { statusLabel: "Open" } });

    // Closed by staff with a reason: the borrower reads it and may ask again.
    await closeRequest(loan.loanId, rows[0]!.id, "We reached you by phone; you are back at work.", staff(), db());
    const after = await borrowerHardship(loan.loanId, borrower(loan).actor, db(), DAY);
    expect(after).toMatchObject({ canRequest: true, request: { status: "closed", closeNote: "We reached you by phone; you are back at work." } });
    await ask(loan);
  });

  it("a new request is e-mailed to the lender's desk and to the loan's collector while they work collections, without the borrower's details", async () => {
    const mailTo = async (address: string, loanId: string) =>
      (await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, address), eq(emailOutbox.template, "hardship-requested")))).filter((m) => m.textBody.includes(`/admin/loans/${loanId}`));
    const desk = getConfig().lenderNotifyEmail;
    const collector = await seedStaff(db(), { id: `hardship-collector-${target}`, name: "Cole Lector", email: `cole.${target}@example.com`, role: "loan_officer" });

    const loan = await newLoan();
    await db().update(approvedLoans).set({ collectorId: collector.id }).where(eq(approvedLoans.id, loan.loanId));
    await requestHelp(loan.loanId, { intent: "request-help", reason: "medical", details: "Surgery in March", canPay: 75_00 }, borrower(loan), db(), DAY);
    const [toDesk] = await mailTo(desk, loan.loanId);
    expect(toDesk).toBeDefined();
    expect(toDesk!.subject).toMatch(/^Help with payments requested: Personal Loan LN-[0-9A-F]{8}$/);
    expect(toDesk!.textBody).toContain("Can pay a month");
    expect(toDesk!.textBody).toContain("$75.00");
    expect(toDesk!.textBody).not.toContain("Surgery");
    expect(await mailTo(collector.email, loan.loanId)).toHaveLength(1);

    // A deactivated collector is not written to; the desk still is.
    await db().update(userRoles).set({ deactivatedAt: new Date() }).where(eq(userRoles.userId, collector.id));
    const other = await newLoan();
    await db().update(approvedLoans).set({ collectorId: collector.id }).where(eq(approvedLoans.id, other.loanId));
    await requestHelp(other.loanId, { intent: "request-help", reason: "job_loss", canPay: 0 }, borrower(other), db(), DAY);
    expect(await mailTo(desk, other.loanId)).toHaveLength(1);
    expect(await mailTo(collector.email, other.loanId)).toHaveLength(0);
  });

  it("refuses a request on an unfunded loan, another person's loan (404) and staff", async () => {
    const owner = await seedApplicant(db(), { id: `hardship-unfunded-${target}`, name: "Uma Unfunded", email: `hardship.unfunded.${target}@example.com` });
    const unfunded = await seedLoan(db(), { owner, admin, funded: false });
    const caller = { actor: { ...owner, isStaff: false }, request: info };
    const refusal = await appErrorOf(requestHelp(unfunded.loanId, { intent: "request-help", reason: "medical", canPay: 0 }, caller, db(), DAY), "servicing");
    expect(refusal).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.notServiced });
    const other = await newLoan();
    expect((await appErrorOf(requestHelp(other.loanId, { intent: "request-help", reason: "medical", canPay: 0 }, caller, db(), DAY), "servicing")).status).toBe(404);
    const asStaff = { actor: { ...admin, isStaff: true }, request: info };
    expect((await appErrorOf(requestHelp(other.loanId, { intent: "request-help", reason: "medical", canPay: 0 }, asStaff, db(), DAY), "servicing")).status).toBe(404);
  });

  it("a paid-off, charged-off or settled loan takes no request and no offer; an offer already open cannot be signed once the loan is charged off", async () => {
    const loan = await newLoan();
    const { modification, preview } = await offer(loan, { kind: "deferment", count: 1 });
    const closedOut = {
      paid_off: { status: "paid_off" as const, paidOffAt: new Date() },
      charged_off: { status: "charged_off" as const, chargedOffOn: "2026-11-30", chargedOffCents: 10_000_00 },
      settled: { status: "settled" as const, chargedOffOn: "2026-11-30", chargedOffCents: 10_000_00, settledOn: "2026-11-30", forgivenCents: 10_000_00 },
    };
    for (const set of Object.values(closedOut)) {
      await db().update(approvedLoans).set(set).where(eq(approvedLoans.id, loan.loanId));
      expect(await appErrorOf(ask(loan), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.notServiced });
      expect(await appErrorOf(offer(loan, { kind: "due_date_change", dueDay: 3 }), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.notServiced });
      expect(await appErrorOf(sign(loan, modification.id, DAY, preview.digest), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.notServiced });
      expect(await borrowerHardship(loan.loanId, borrower(loan).actor, db(), DAY)).toMatchObject({ canRequest: false, unavailable: HARDSHIP_MESSAGES.notServiced });
      expect((await review(loan))!.state).toBe("closed");
    }
    expect((await loanRow(loan.loanId)).scheduleChanges).toEqual([]);
  });

  it("offers each kind from the first unpaid installment with its totals; one offer open at a time; the limits (two deferments, one due-date change a year) refuse", async () => {
    const loan = await newLoan();
    await ask(loan);
    const deferment = await offer(loan, { kind: "deferment", count: 2 });
    expect(deferment.modification).toMatchObject({ status: "offered", kind: "deferment", expiresOn: "2026-12-15", offer: { kind: "deferment", count: 2, fromInstallment: 1 } });
    // The term grows by two months; interest keeps accruing, so the total of payments grows.
    const { totals } = deferment.preview;
    expect(totals.after.installments).toBe(totals.before.installments);
    expect(totals.after.lastDueDate).toBe("2028-01-20");
    expect(totals.before.lastDueDate).toBe("2027-11-20");
    expect(totals.after.interestCents).toBeGreaterThan(totals.before.interestCents);
    expect(totals.after.paymentsCents - totals.before.paymentsCents).toBe(totals.after.interestCents - totals.before.interestCents);
    expect((await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loan.loanId)))[0]!.status).toBe("offered");
    const [mail] = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, loan.owner.email), eq(emailOutbox.template, "plan-offered")));
    expect(mail!.textBody).toContain(`/dashboard/loans/${loan.loanId}/plan`);
    expect(mail!.textBody).not.toMatch(/000123456789|021000021/);
    expect(await events(loan.applicationId, "plan_offered")).toHaveLength(1);

    expect((await appErrorOf(offer(loan, { kind: "due_date_change", dueDay: 5 }), "servicing")).message).toBe(HARDSHIP_MESSAGES.offerOpen);
    await withdrawPlan(loan.loanId, deferment.modification.id, "", staff(), db());
    expect(await events(loan.applicationId, "plan_withdrawn")).toHaveLength(1);

    const plan = await offer(loan, { kind: "payment_plan", months: 3, reducedPaymentCents: 200_00 });
    const later = (plan.preview.change as Extract<ScheduleChange, { kind: "payment_plan" }>).laterPaymentCents;
    expect(plan.preview.after.slice(0, 3).map((r) => r.paymentCents)).toEqual([200_00, 200_00, 200_00]);
    expect(later).toBeGreaterThan((await loanRow(loan.loanId)).paymentCents);
    expect(plan.preview.after.at(-1)!.balanceCents).toBe(0);
    await withdrawPlan(loan.loanId, plan.modification.id, "", staff(), db());

    const reduced = await appErrorOf(offer(loan, { kind: "payment_plan", months: 2, reducedPaymentCents: 5_000_00 }), "servicing");
    expect(reduced.status).toBe(400);
    expect(reduced.message).toContain("less than the regular payment");

    const dueDay = await offer(loan, { kind: "due_date_change", dueDay: 5 });
    expect(dueDay.preview.after[0]!.dueDate).toBe("2027-01-05");
    await withdrawPlan(loan.loanId, dueDay.modification.id, "", staff(), db());

    // Signed history within 12 months: two deferments, one due-date change.
    await setChanges(loan.loanId, [
      { kind: "deferment", signedOn: "2026-11-25", fromInstallment: 1, count: 1 },
      { kind: "deferment", signedOn: "2026-11-26", fromInstallment: 1, count: 1 },
      { kind: "due_date_change", signedOn: "2026-11-27", fromInstallment: 1, dueDay: 10 },
    ]);
    expect((await appErrorOf(offer(loan, { kind: "deferment", count: 1 }), "servicing")).message).toContain("two deferments");
    expect((await appErrorOf(offer(loan, { kind: "due_date_change", dueDay: 12 }), "servicing")).message).toContain("already changed");
    const panel = await staffHardshipPanel(loan.loanId, db(), DAY);
    expect(panel!.limits.deferment).toContain("two deferments");
    // A year later both are allowed again.
    expect((await offer(loan, { kind: "deferment", count: 1 }, "2027-11-27")).modification.status).toBe("offered");
  });

  it("the review page's schedule is the one signed and serviced: the next due date moves, the request closes, a copy is e-mailed, the PDF downloads", async () => {
    const loan = await newLoan();
    await ask(loan);
    const { modification, preview } = await offer(loan, { kind: "deferment", count: 2 });
    const page = await review(loan);
    expect(page).toMatchObject({ state: "sign", digest: preview.digest });
    expect(page!.after).toEqual(preview.after);
    expect((await loanRow(loan.loanId)).nextDueDate).toBe("2026-12-20");

    const result = await sign(loan, modification.id);
    expect(result.change).toEqual({ kind: "deferment", fromInstallment: 1, count: 2, signedOn: DAY });
    const row = await loanRow(loan.loanId);
    expect(row.scheduleChanges).toEqual([result.change]);
    expect(row.nextDueDate).toBe("2027-02-20");
    const { state } = (await loadLedger(loan.loanId, db(), DAY))!;
    expect(state.installments.map(({ paid: _paid, ...r }) => r)).toEqual(page!.after);
    expect(state.nextInstallment).toMatchObject({ number: 1, dueDate: "2027-02-20" });
    // Not late on the old due date any more.
    expect((await loadLedger(loan.loanId, db(), "2027-01-10"))!.state.daysPastDue).toBe(0);

    const [signed] = await db().select().from(loanModifications).where(eq(loanModifications.id, modification.id));
    expect(signed).toMatchObject({ status: "signed", signerName: "Dana Whitfield", signatureKind: "typed", ipAddress: info.ip, userAgent: info.userAgent });
    expect((await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loan.loanId)))[0]!.status).toBe("closed");
    expect(await events(loan.applicationId, "plan_signed")).toHaveLength(1);
    const [copy] = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, loan.owner.email), eq(emailOutbox.template, "plan-signed")));
    expect(copy!.textBody).toContain("is due Feb 20, 2027");
    expect(copy!.textBody).not.toMatch(/000123456789|021000021/);

    const mine = await borrowerHardship(loan.loanId, borrower(loan).actor, db(), DAY);
    expect(mine!.signed).toHaveLength(1);
    expect(mine!.signed[0]!.fileUrl).toBe(`/dashboard/loans/${loan.loanId}/plans/${modification.id}`);
    const file = await serveModificationFile(loan.loanId, modification.id, { actor: { side: "borrower", viewer: borrower(loan).actor }, request: info }, { db: db(), storage: storage() });
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename="loan-modification-/);
    expect(Buffer.from(await file.arrayBuffer()).length).toBeGreaterThan(1000);
    const stranger = await newLoan();
    const denied = await serveModificationFile(loan.loanId, modification.id, { actor: { side: "borrower", viewer: borrower(stranger).actor }, request: info }, { db: db(), storage: storage() });
    expect(denied.status).toBe(404);
    const asStaff = await serveModificationFile(loan.loanId, modification.id, { actor: { side: "staff", admin }, request: info }, { db: db(), storage: storage() });
    expect(asStaff.status).toBe(200);
    await asStaff.arrayBuffer();
    const downloads = await db().select().from(auditLog).where(and(eq(auditLog.action, "plan.download"), eq(auditLog.recordId, modification.id)));
    expect(downloads.map((d) => (d.details as { side: string }).side).sort()).toEqual(["borrower", "staff"]);
  });

  it("a plan accepted three times at once applies once; the others are told it is signed and leave no file", async () => {
    const loan = await newLoan();
    const { modification } = await offer(loan, { kind: "payment_plan", months: 2, reducedPaymentCents: 300_00 });
    const results = await Promise.allSettled([0, 1, 2].map(() => sign(loan, modification.id)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as Error).message).toBe(HARDSHIP_MESSAGES.signed);
    expect(((await loanRow(loan.loanId)).scheduleChanges as unknown[]).length).toBe(1);
    const files = fs.readdirSync(path.join(dataDir, "storage", "loan-documents", "modifications", loan.loanId));
    expect(files).toHaveLength(1);
    expect((await appErrorOf(sign(loan, modification.id), "servicing")).message).toBe(HARDSHIP_MESSAGES.signed);
  });

  it("refuses a withdrawn, an expired, a declined and a stale offer, a page that showed another schedule, and a name that is not the borrower's", async () => {
    const loan = await newLoan();
    const first = await offer(loan, { kind: "deferment", count: 1 });
    const digest = first.preview.digest;
    await withdrawPlan(loan.loanId, first.modification.id, "Wrong plan", staff(), db());
    expect(await appErrorOf(sign(loan, first.modification.id, DAY, digest), "servicing")).toMatchObject({ status: 410, message: HARDSHIP_MESSAGES.withdrawn });

    const second = await offer(loan, { kind: "deferment", count: 1 });
    expect(await appErrorOf(sign(loan, second.modification.id, "2026-12-16", second.preview.digest), "servicing")).toMatchObject({ status: 410, message: HARDSHIP_MESSAGES.expired });
    expect((await review(loan, "2026-12-16"))!.state).toBe("closed");
    // The next offer finds the old one expired and replaces it.
    const third = await offer(loan, { kind: "deferment", count: 1 }, "2026-12-16");
    expect((await db().select().from(loanModifications).where(eq(loanModifications.id, second.modification.id)))[0]!.status).toBe("expired");

    expect(await appErrorOf(sign(loan, third.modification.id, "2026-12-16", "a".repeat(64)), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.pageStale });
    const wrongName = await appErrorOf(
      signPlan(loan.loanId, { modificationId: third.modification.id, scheduleDigest: third.preview.digest, typedName: "Someone Else" }, borrower(loan), { db: db(), storage: storage(), now: at("2026-12-16") }),
      "servicing",
    );
    expect(wrongName.status).toBe(400);
    expect(wrongName.message).toContain(HARDSHIP_MESSAGES.typedMismatch);

    // A payment since the offer moved the first unpaid installment: the offer no longer fits.
    const paymentCents = (await loanRow(loan.loanId)).paymentCents;
    await recordPayment(loan.loanId, { amountCents: paymentCents, receivedOn: "2026-12-18", method: "check", reference: "CHK-HARD-1" }, staff(), db(), "2026-12-18");
    expect(await appErrorOf(sign(loan, third.modification.id, "2026-12-18", third.preview.digest), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.scheduleChanged });
    expect((await review(loan, "2026-12-18"))!.state).toBe("closed");

    await declinePlan(loan.loanId, third.modification.id, borrower(loan), db(), "2026-12-18");
    expect(await events(loan.applicationId, "plan_declined")).toHaveLength(1);
    expect(await appErrorOf(sign(loan, third.modification.id, "2026-12-18", third.preview.digest), "servicing")).toMatchObject({ status: 409, message: HARDSHIP_MESSAGES.declined });
    expect((await loanRow(loan.loanId)).scheduleChanges).toEqual([]);
  });

  it("a payoff withdraws the plan offered and closes the request with the reason the borrower reads; a settlement does so as the settling admin", async () => {
    const loan = await newLoan();
    await ask(loan);
    const { modification } = await offer(loan, { kind: "deferment", count: 1 });
    const ledger = (await loadLedger(loan.loanId, db(), DAY))!;
    const payoff = payoffQuote(ledger.terms, ledger.payments, ledger.fees, DAY).totalCents;
    const posted = await recordPayment(loan.loanId, { amountCents: payoff, receivedOn: DAY, method: "wire", reference: "WIRE-HARDSHIP-PAYOFF" }, staff(), db(), DAY);
    expect(posted.paidInFull).toBe(true);
    const [request] = await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loan.loanId));
    expect(request).toMatchObject({ status: "closed", closedBy: null, closeNote: "Your loan is paid in full." });
    expect((await db().select().from(loanModifications).where(eq(loanModifications.id, modification.id)))[0]).toMatchObject({ status: "withdrawn", endedBy: null });
    const audited = async (action: string, recordId: string) => (await db().select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.recordId, recordId)))).map((a) => a.details);
    expect(await audited("hardship.close", request!.id)).toEqual([expect.objectContaining({ reason: "paid_in_full" })]);
    expect(await audited("plan.withdraw", modification.id)).toEqual([expect.objectContaining({ reason: "paid_in_full" })]);
    expect(await borrowerHardship(loan.loanId, borrower(loan).actor, db(), DAY)).toMatchObject({ request: { status: "closed", closeNote: "Your loan is paid in full." } });

    const settled = await newLoan();
    await ask(settled);
    await settleLoan(settled.loanId, { amount: 1_000_00, receivedOn: DAY, method: "wire", reference: "SET-HARDSHIP" }, staff(), db(), DAY);
    const [closed] = await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, settled.loanId));
    expect(closed).toMatchObject({ status: "closed", closedBy: admin.id, closeNote: "Your loan was settled." });
    expect(await audited("hardship.close", closed!.id)).toEqual([expect.objectContaining({ reason: "settled" })]);
  });

  it("no late fee on an installment a signed plan covers; the same loan without a plan is charged one", async () => {
    const covered = await newLoan();
    const plain = await newLoan();
    const { modification } = await offer(covered, { kind: "payment_plan", months: 2, reducedPaymentCents: 100_00 });
    await sign(covered, modification.id);
    // Installment 1 (due 2026-12-20) is unpaid on both; 15 grace days have passed on 2027-01-10.
    await runServicingJobs(db(), at("2027-01-10"));
    expect(await db().select().from(loanFees).where(eq(loanFees.loanId, covered.loanId))).toHaveLength(0);
    const fees = await db().select().from(loanFees).where(eq(loanFees.loanId, plain.loanId));
    expect(fees.map((f) => f.installmentNumber)).toEqual([1]);
    // The covered loan is still late (the reduced payment is due): only the fee is waived.
    expect((await loadLedger(covered.loanId, db(), "2027-01-10"))!.state.daysPastDue).toBe(21);
  });

  it("the signed PDF reads back with the plan, the new schedule and the totals, and pdfsig finds the lender's signature valid", async () => {
    const loan = await newLoan();
    const { modification, preview } = await offer(loan, { kind: "due_date_change", dueDay: 5 });
    const result = await sign(loan, modification.id);
    const bytes = fs.readFileSync(path.join(dataDir, "storage", "loan-documents", ...result.storageKey.split("/")));
    const file = path.join(dataDir, `modification-${target}.pdf`);
    fs.writeFileSync(file, bytes);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Loan Modification Agreement");
    expect(text).toContain("The plan: Change Due Date");
    expect(text).toContain("New Payment Schedule");
    expect(text).toContain("Dana Whitfield (typed name)");
    expect(text).toContain(formatMoney(preview.totals.before.paymentsCents));
    expect(text).toContain(formatMoney(preview.totals.after.paymentsCents));
    expect(text).toContain(formatMoney(preview.totals.after.interestCents));
    for (const row of preview.after) expect(text).toContain(formatMoney(row.paymentCents));
    expect(text).toContain("Jan 5, 2027");
    expect(text).not.toMatch(/000123456789|021000021/);
    const sig = execFileSync("pdfsig", [file], { encoding: "utf8" });
    expect(sig).toContain("Signature Validation: Signature is Valid.");
    expect(sig).toContain("Total document signed");
    expect(sig).toContain(`Signer Certificate Common Name: ${lenderSigningIdentity().subject}`);
    const [row] = await db().select().from(loanModifications).where(eq(loanModifications.id, modification.id));
    expect(row!.sha256).toBe(result.sha256);
  });

  it("the actions answer bad input with the form's message and a 4xx, another person's loan with 404, and an unknown intent with 400", async () => {
    const loan = await newLoan();
    const post = (body: Record<string, string>) => new Request(`https://loans.example.com/x`, { method: "POST", body: new URLSearchParams(body) });
    const bad = await borrowerHardshipAction(post({ intent: "request-help", reason: "job_loss", canPay: "lots" }), loan.loanId, borrower(loan), db());
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors?.canPay?.[0]).toBe(HARDSHIP_MESSAGES.canPay);
    expect((await borrowerHardshipAction(post({ intent: "constructor" }), loan.loanId, borrower(loan), db())).status).toBe(400);
    const other = await newLoan();
    expect((await borrowerHardshipAction(post({ intent: "request-help", reason: "job_loss", canPay: "10" }), loan.loanId, borrower(other), db())).status).toBe(404);
    const ok = await borrowerHardshipAction(post({ intent: "request-help", reason: "job_loss", canPay: "$1,200.50" }), loan.loanId, borrower(loan), db());
    expect(ok.status).toBe(200);
    expect((await db().select().from(hardshipRequests).where(eq(hardshipRequests.loanId, loan.loanId)))[0]!.canPayCents).toBe(1_200_50);

    const staffBad = await staffHardshipAction(post({ intent: "offer-plan", kind: "deferment", count: "4" }), loan.loanId, staff(), db());
    expect(staffBad.status).toBe(400);
    expect(staffBad.body.fieldErrors?.count?.[0]).toBe(HARDSHIP_MESSAGES.count);
    expect((await staffHardshipAction(post({ intent: "offer-plan", kind: "deferment", count: "1" }), "not-a-uuid", staff(), db())).status).toBe(404);
    expect((await staffHardshipAction(post({ intent: "close-request", requestId: loan.loanId, note: "x" }), loan.loanId, staff(), db())).status).toBe(409);
  });
});
