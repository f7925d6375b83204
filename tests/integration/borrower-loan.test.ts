import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACH_AUTHORIZATION_VERSION } from "~/domain/ach-authorization";
import { payoffQuote, SCHEDULE_NOTE } from "~/domain/loan-servicing";
import { makePaymentSchema } from "~/domain/validation/make-payment";

import type { AuditActor } from "~/server/platform/audit/audit.server";
import { addDays, todayUtc } from "~/domain/dates";
import { approvedLoans, auditLog, bankAccounts, emailOutbox, loanPaymentAccounts, loanPayments } from "~/server/platform/db/schema.server";
import { agreementReference } from "~/server/offers/agreement-document.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { createAchBatch, downloadAchBatch } from "~/server/loans/ach-batches.server";
import { recordAccountValidation } from "~/server/loans/account-validations.server";
import { exportLoanTape, loadStaffLoan } from "~/server/loans/staff-loans.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { formatMoney } from "~/domain/money";
import { serveLoanDocument } from "~/server/loans/borrower-documents.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { borrowerLoanAction, makePayment } from "~/server/loans/borrower-payments.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { recordPayment } from "~/server/loans/payments.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { appErrorOf } from "../helpers/rejection";
import { expectStoredAchFilesMatch } from "../helpers/nacha-parser";
import { withoutUuids } from "../helpers/without-uuids";
import type { AppError } from "~/server/platform/http/app-error.server";
import { seedApplicant, seedLoan, seedStaff } from "../helpers/seed";

/**
 * The borrower's loan page (issue 21) against PGlite: the view model, Make a Payment (the pending
 * ACH debit with its authorisation, one pending at a time also in parallel, refusals), and the PDFs
 * read back with pdftotext (payoff letter, statement, paid-in-full letter).
 */

const dataDir = setUpTestConfig("borrower-loan", { APP_SECRET: "b".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.21", userAgent: "Mozilla/5.0 BorrowerLoanTest" };

const pdfText = (bytes: Buffer) => {
  const file = path.join(dataDir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
};

const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "servicing");

describe("borrower loan on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let storage: DocumentStorage;
  let admin: AuditActor;
  let n = 0;
  const today = todayUtc();

  beforeAll(async () => {
    storage = createLocalStorage(path.join(dataDir, "storage"));
    await seedStaff(db(), { id: "bl-admin", name: "Ada Admin", email: "bl-admin@example.com", role: "admin" });
    admin = { id: "bl-admin", name: "Ada Admin", email: "bl-admin@example.com" };
  });
  // The ACH file these tests made, read by the registry's parser and compared with the database.
  afterAll(async () => {
    expect(await expectStoredAchFilesMatch(db())).toBeGreaterThan(0);
  });

  /** A signed loan (25,000 at 9.5 % for 36 months) signed `daysAgo` days back, with a checking account on file. */
  async function signedLoan(daysAgo = 75) {
    n += 1;
    const owner = await seedApplicant(db(), { id: `bl-borrower-${n}`, name: "Dana Whitfield", email: `bl.borrower${n}@example.com`, profile: { phone: "2125550100" } });
    const { loanId, startDate: start, application } = await seedLoan(db(), { owner, admin, storage, application: { firstName: "Dana", lastName: "Whitfield", email: owner.email }, today, signedOn: addDays(today, -daysAgo) });
    const [account] = await db()
      .insert(bankAccounts)
      .values({
        userId: owner.id,
        applicationId: application.id,
        accountHolderName: "Dana Whitfield",
        bankName: "First Bank",
        accountType: "checking",
        accountNumber: "enc:v1:ACCOUNTCIPHER",
        routingNumber: "enc:v1:ROUTINGCIPHER",
        accountNumberLast4: "4321",
        routingNumberLast2: "21",
        isPrimary: true,
      })
      .returning();
    return { owner: { ...owner, isStaff: false }, loanId, start, accountId: account!.id, applicationId: application.id };
  }

  it("the view model: next payment, balance, 36 installments, masked accounts, history; audited loan.view", async () => {
    const { owner, loanId, start, accountId } = await signedLoan(75);
    await recordPayment(loanId, { amountCents: 85_000, receivedOn: addDays(start, 31), method: "check", reference: "CHK-100" }, { actor: admin, request: {} }, db(), today);
    const page = await loadBorrowerLoan(loanId, { actor: owner, request: info }, db(), today);
    expect(page).not.toBeNull();
    expect(page!.schedule).toHaveLength(36);
    expect(page!.schedule[0]!.paid).toBe(true);
    expect(page!.schedule[1]!.paid).toBe(false);
    expect(page!.nextPayment!.number).toBe(2);
    expect(page!.status).toBe("late");
    expect(page!.statusLabel).toBe("Late");
    expect(page!.bankAccounts).toEqual([{ id: accountId, label: "Checking ••••4321", last4: "4321", validationState: "Not validated yet" }]);
    expect(page!.history).toHaveLength(1);
    expect(page!.history[0]).toMatchObject({ status: "posted", statusLabel: "Posted", methodLabel: "Check", reference: "CHK-100" });
    const alloc = page!.history[0]!.allocation!;
    expect(alloc.feesCents + alloc.interestCents + alloc.principalCents + alloc.excessCents).toBe(85_000);
    const ledger = await loadLedger(loanId, db(), today);
    expect(page!.principalCents).toBe(ledger!.state.principalCents);
    expect(page!.interestAccruedCents).toBe(ledger!.state.interestAccruedCents);
    expect(page!.payoffTodayCents).toBe(payoffQuote(ledger!.terms, ledger!.payments, ledger!.fees, today).totalCents);
    expect(page!.statementMonths.at(-1)).toBe(start.slice(0, 7));
    expect(page!.statementMonths[0]).toBe(today.slice(0, 7));
    const json = JSON.stringify(page);
    expect(json).not.toContain("CIPHER");
    expect(SCHEDULE_NOTE.length).toBeGreaterThan(10);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.view"), eq(auditLog.recordId, loanId)));
    expect(audits).toHaveLength(1);
  });

  it("a fee due is part of the amount due: the page, Make a Payment's installment and the statement include it and say what each part is", async () => {
    const { owner, loanId, accountId } = await signedLoan(75);
    await runServicingJobs(db(), new Date(`${today}T12:00:00.000Z`));
    const ledger = await loadLedger(loanId, db(), today);
    const next = ledger!.state.nextInstallment!;
    expect(next.feesCents).toBeGreaterThan(0);
    expect(next.feesCents).toBe(ledger!.state.feesDueCents);
    expect(next.amountDueCents).toBe(next.installmentCents + next.feesCents);
    const page = await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today);
    expect(page!.nextPayment).toEqual(next);

    const st = await serveLoanDocument(loanId, new URL(`https://x/?kind=statement&month=${today.slice(0, 7)}`), { actor: owner, request: info }, { db: db(), today });
    const stText = pdfText(Buffer.from(await st.arrayBuffer()));
    expect(stText).toMatch(new RegExp(`Installment\\s+${escape(formatMoney(next.installmentCents))}`));
    expect(stText).toMatch(new RegExp(`Fees due, paid first\\s+${escape(formatMoney(next.feesCents))}`));
    expect(stText).toMatch(new RegExp(`Amount due\\s+${escape(formatMoney(next.amountDueCents))}`));

    const result = await makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: accountId }, { actor: owner, request: info }, db(), today);
    expect(result.amountCents).toBe(next.amountDueCents);
  });

  it("one reference per loan: the agreement's, on the borrower's page, the staff page, the loan tape, the statement, the payoff letter and the e-mails", async () => {
    const { owner, loanId, accountId } = await signedLoan(40);
    const [loan] = await db().select({ offerId: approvedLoans.offerId }).from(approvedLoans).where(eq(approvedLoans.id, loanId));
    const reference = agreementReference(loan!.offerId!);
    expect(loanId.slice(0, 8).toUpperCase()).not.toBe(reference.slice(3));

    expect((await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today))!.loanReference).toBe(reference);
    expect((await loadStaffLoan(loanId, { actor: admin, request: {} }, db(), today))!.loan.reference).toBe(reference);
    const { csv: tape } = await exportLoanTape({ actor: admin, request: {} }, db(), today);
    expect(tape).toContain(`"${reference}","${loanId}"`);

    const st = await serveLoanDocument(loanId, new URL(`https://x/?kind=statement&month=${today.slice(0, 7)}`), { actor: owner, request: info }, { db: db(), today });
    expect(st.headers.get("content-disposition")).toContain(reference.toLowerCase());
    expect(pdfText(Buffer.from(await st.arrayBuffer()))).toContain(`Loan ${reference}`);
    const payoff = await serveLoanDocument(loanId, new URL(`https://x/?kind=payoff&date=${today}`), { actor: owner, request: info }, { db: db(), today });
    expect(payoff.headers.get("content-disposition")).toContain(`payoff-quote-${reference.toLowerCase()}-${today}.pdf`);
    expect(pdfText(Buffer.from(await payoff.arrayBuffer()))).toContain(`Loan ${reference}`);

    await makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: accountId }, { actor: owner, request: info }, db(), today);
    const [mail] = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, owner.email), eq(emailOutbox.template, "payment-authorized")));
    expect(mail!.textBody).toContain(reference);
  });

  it("another person's loan, a malformed id and staff are not found", async () => {
    const { loanId } = await signedLoan();
    const other = await signedLoan();
    expect(await loadBorrowerLoan(loanId, { actor: other.owner, request: {} }, db(), today)).toBeNull();
    expect(await loadBorrowerLoan("not-a-uuid", { actor: other.owner, request: {} }, db(), today)).toBeNull();
    expect(await loadBorrowerLoan(loanId, { actor: { ...admin, isStaff: true }, request: {} }, db(), today)).toBeNull();
    const e = await refusal(makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: other.accountId }, { actor: other.owner, request: info }, db(), today));
    expect(e.status).toBe(404);
    const res = await serveLoanDocument(loanId, new URL(`https://x/?kind=statement&month=${today.slice(0, 7)}`), { actor: other.owner, request: {} }, { db: db(), today });
    expect(res.status).toBe(404);
  });

  it("Make a Payment (installment): a pending ACH debit with its authorisation, audited, e-mailed without account numbers", async () => {
    const { owner, loanId, accountId } = await signedLoan(40);
    const ledger = await loadLedger(loanId, db(), today);
    const result = await makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: accountId }, { actor: owner, request: info }, db(), today);
    expect(result.amountCents).toBe(ledger!.state.nextInstallment!.amountDueCents);
    const [row] = await db().select().from(loanPayments).where(eq(loanPayments.id, result.paymentId));
    expect(row).toMatchObject({
      status: "pending",
      source: "borrower",
      method: "ach",
      choice: "installment",
      amountCents: result.amountCents,
      bankAccountId: accountId,
      authorizationVersion: ACH_AUTHORIZATION_VERSION,
      authorizationIp: info.ip,
      authorizationUserAgent: info.userAgent,
      receivedOn: null,
    });
    expect(row!.reference).toMatch(/^WEB-[A-Z2-9]{8}$/);
    expect(row!.authorizedAt).toBeInstanceOf(Date);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "payment.authorize"), eq(auditLog.recordId, result.paymentId)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ ipAddress: info.ip });
    const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, owner.email), eq(emailOutbox.template, "payment-authorized")));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain(formatMoney(result.amountCents));
    expect(mails[0]!.textBody).toContain("bank account on file");
    expect(withoutUuids(`${mails[0]!.textBody}${mails[0]!.htmlBody}`)).not.toContain("4321");
    // The page shows it Pending; the ledger does not count it.
    const page = await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today);
    expect(page!.history[0]).toMatchObject({ status: "pending", statusLabel: "Pending", allocation: null, account: "Checking ••••4321" });
    expect(page!.pendingPayment).toBe(true);
    expect(page!.principalCents).toBe(2_500_000);
  });

  it("one pending borrower payment at a time, also for two at once", async () => {
    const a = await signedLoan(40);
    await makePayment(a.loanId, { choice: "amount", amountCents: 10_000, bankAccountId: a.accountId }, { actor: a.owner, request: info }, db(), today);
    const again = await refusal(makePayment(a.loanId, { choice: "amount", amountCents: 10_000, bankAccountId: a.accountId }, { actor: a.owner, request: info }, db(), today));
    expect(again.status).toBe(409);

    const b = await signedLoan(40);
    const results = await Promise.allSettled([
      makePayment(b.loanId, { choice: "installment", amountCents: null, bankAccountId: b.accountId }, { actor: b.owner, request: info }, db(), today),
      makePayment(b.loanId, { choice: "amount", amountCents: 5_000, bankAccountId: b.accountId }, { actor: b.owner, request: info }, db(), today),
      makePayment(b.loanId, { choice: "payoff", amountCents: null, bankAccountId: b.accountId }, { actor: b.owner, request: info }, db(), today),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).status).toBe(409);
    expect(await db().select().from(loanPayments).where(eq(loanPayments.loanId, b.loanId))).toHaveLength(1);
  });

  it("refuses an amount above the payoff (400), someone else's bank account (400), and bad form input (400)", async () => {
    const { owner, loanId, accountId } = await signedLoan(40);
    const other = await signedLoan(40);
    const ledger = await loadLedger(loanId, db(), today);
    const payoff = payoffQuote(ledger!.terms, ledger!.payments, ledger!.fees, today).totalCents;
    expect((await refusal(makePayment(loanId, { choice: "amount", amountCents: payoff + 1, bankAccountId: accountId }, { actor: owner, request: info }, db(), today))).status).toBe(400);
    expect((await refusal(makePayment(loanId, { choice: "amount", amountCents: 0, bankAccountId: accountId }, { actor: owner, request: info }, db(), today))).status).toBe(400);
    expect((await refusal(makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: other.accountId }, { actor: owner, request: info }, db(), today))).status).toBe(400);
    // Exactly the payoff is allowed.
    const ok = await makePayment(loanId, { choice: "amount", amountCents: payoff, bankAccountId: accountId }, { actor: owner, request: info }, db(), today);
    expect(ok.amountCents).toBe(payoff);

    const post = (fields: Record<string, string>) =>
      borrowerLoanAction(new Request("https://loans.example.com/dashboard/loans/x", { method: "POST", body: new URLSearchParams(fields) }), other.loanId, { actor: other.owner, request: info }, db());
    const base = { intent: "pay", choice: "amount", bankAccountId: other.accountId, authorize: "on" };
    expect((await post({ ...base, amount: "0" })).status).toBe(400);
    expect((await post({ ...base, amount: "-5" })).status).toBe(400);
    expect((await post({ ...base, amount: "1e5" })).status).toBe(400);
    expect((await post({ ...base, amount: "10", authorize: "" })).status).toBe(400);
    expect((await post({ ...base, amount: "10", intent: "steal" })).status).toBe(400);
    expect((await post({ ...base, amount: "99999999" })).status).toBe(400);
    const good = await post({ ...base, amount: "12.34" });
    expect(good.status).toBe(200);
    const [row] = await db().select().from(loanPayments).where(eq(loanPayments.loanId, other.loanId));
    expect(row!.amountCents).toBe(1234);
    expect(makePaymentSchema.safeParse({ ...base, amount: "1,234.50" }).data?.amountCents).toBe(123_450);
  });

  it("PDFs: the payoff letter equals payoffQuote; the statement shows the month's payments; bad parameters 400", async () => {
    const { owner, loanId, start } = await signedLoan(75);
    const paidOn = addDays(start, 31);
    await recordPayment(loanId, { amountCents: 80_123, receivedOn: paidOn, method: "wire", reference: "WIRE-77" }, { actor: admin, request: {} }, db(), today);
    const goodThrough = addDays(today, 10);
    const res = await serveLoanDocument(loanId, new URL(`https://x/?kind=payoff&date=${goodThrough}`), { actor: owner, request: info }, { db: db(), today });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
    const text = pdfText(bytes);
    const ledger = await loadLedger(loanId, db(), today);
    const q = payoffQuote(ledger!.terms, ledger!.payments, ledger!.fees, goodThrough);
    expect(text).toMatch(new RegExp(`Principal balance\\s+${escape(formatMoney(q.principalCents))}`));
    expect(text).toMatch(new RegExp(`Interest accrued through .*\\s+${escape(formatMoney(q.interestCents))}`));
    expect(text).toMatch(new RegExp(`Unpaid fees\\s+${escape(formatMoney(q.feesCents))}`));
    expect(text).toMatch(new RegExp(`Total payoff amount\\s+${escape(formatMoney(q.totalCents))}`));
    expect(text).toContain(`$${q.perDiemText} per day`);
    expect(withoutUuids(text)).not.toContain("4321");

    const month = paidOn.slice(0, 7);
    const st = await serveLoanDocument(loanId, new URL(`https://x/?kind=statement&month=${month}`), { actor: owner, request: info }, { db: db(), today });
    expect(st.status).toBe(200);
    const stText = pdfText(Buffer.from(await st.arrayBuffer()));
    const alloc = ledger!.state.allocations[0]!;
    expect(stText).toContain("WIRE-77");
    expect(stText).toContain(formatMoney(80_123));
    expect(stText).toContain(formatMoney(alloc.interestCents));
    expect(stText).toContain(formatMoney(alloc.principalCents));
    expect(stText).toContain("Next Payment");

    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "servicing.document"), eq(auditLog.recordId, loanId)));
    expect(audits).toHaveLength(2);

    for (const query of [
      "kind=payoff&date=2020-01-01",
      `kind=payoff&date=${addDays(today, 61)}`,
      "kind=payoff&date=2026-02-30",
      "kind=payoff",
      "kind=statement&month=1999-01",
      "kind=statement&month=2026-13",
      "kind=nope",
      "",
    ]) {
      const bad = await serveLoanDocument(loanId, new URL(`https://x/?${query}`), { actor: owner, request: info }, { db: db(), today });
      expect(bad.status, query).toBe(400);
    }
    expect((await serveLoanDocument(loanId, new URL("https://x/?kind=paid-in-full"), { actor: owner, request: info }, { db: db(), today })).status).toBe(404);
  });

  it("paid in full: no more payments (409), the paid-in-full letter", async () => {
    const { owner, loanId, accountId, start } = await signedLoan(20);
    const ledger = await loadLedger(loanId, db(), today);
    const q = payoffQuote(ledger!.terms, ledger!.payments, ledger!.fees, today);
    const posted = await recordPayment(loanId, { amountCents: q.totalCents, receivedOn: today, method: "wire", reference: "PAYOFF-1" }, { actor: admin, request: {} }, db(), today);
    expect(posted.paidInFull).toBe(true);
    const e = await refusal(makePayment(loanId, { choice: "amount", amountCents: 100, bankAccountId: accountId }, { actor: owner, request: info }, db(), today));
    expect(e.status).toBe(409);
    const page = await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today);
    expect(page!.statusLabel).toBe("Paid in Full");
    expect(page!.nextPayment).toBeNull();
    expect(page!.schedule.every((r) => r.paid)).toBe(true);
    const res = await serveLoanDocument(loanId, new URL("https://x/?kind=paid-in-full"), { actor: owner, request: info }, { db: db(), today });
    expect(res.status).toBe(200);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain("Paid in Full");
    expect(text).toContain(formatMoney(2_500_000));
    expect(text.replace(/\s+/g, " ")).toContain("was paid in full on");
    expect(start < today).toBe(true);
    expect((await serveLoanDocument(loanId, new URL(`https://x/?kind=payoff&date=${today}`), { actor: owner, request: info }, { db: db(), today })).status).toBe(409);
    // The dashboard lists it under Paid in Full, apart from the current loans.
    const dashboard = await getDashboard(owner.id, owner.name, db());
    expect(dashboard.approvedLoans.map((l) => l.id)).not.toContain(loanId);
    expect(dashboard.paidOffLoans?.map((l) => l.id)).toEqual([loanId]);
  });

  describe("Change Bank Account", () => {
    const post = (loanId: string, owner: { id: string; name: string; email: string; isStaff: boolean }, fields: Record<string, string>) =>
      borrowerLoanAction(new Request("https://loans.example.com/dashboard/loans/x", { method: "POST", body: new URLSearchParams(fields) }), loanId, { actor: owner, request: info }, db());
    const NEW_ACCOUNT = { intent: "change-account", accountHolderName: "Dana Whitfield", bankName: "Second Bank", routingNumber: "011000015", accountNumber: "0009876543210", bankAccountType: "savings" };

    it("stores the new account encrypted, makes it current, moves unsent debits to it, audits, e-mails last 4 only; staff and ACH use it", async () => {
      const { owner, loanId, accountId, applicationId } = await signedLoan(40);
      // Before any change the loan pays from its application's account.
      expect((await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today))!.paymentAccount).toEqual({ label: "Checking ••••4321", holder: "Dana Whitfield", bankName: "First Bank" });
      const pending = await makePayment(loanId, { choice: "installment", amountCents: null, bankAccountId: accountId }, { actor: owner, request: info }, db(), today);

      const res = await post(loanId, owner, NEW_ACCOUNT);
      expect(res.status).toBe(200);
      expect(res.body.toast).toMatchObject({ type: "success", title: "Payment account changed" });
      expect(res.body.toast?.description).toContain("Savings ••••3210");

      const [current] = await db().select().from(loanPaymentAccounts).where(and(eq(loanPaymentAccounts.loanId, loanId), eq(loanPaymentAccounts.isCurrent, true)));
      const [stored] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, current!.bankAccountId));
      expect(stored).toMatchObject({ userId: owner.id, applicationId, accountType: "savings", accountNumberLast4: "3210", routingNumberLast2: "15", bankName: "Second Bank" });
      expect(stored!.accountNumber).not.toContain("9876543210");
      expect(decryptField(stored!.accountNumber, ENCRYPTION_PURPOSES.accountNumber)).toBe("0009876543210");
      expect(decryptField(stored!.routingNumber, ENCRYPTION_PURPOSES.routingNumber)).toBe("011000015");
      const [debit] = await db().select().from(loanPayments).where(eq(loanPayments.id, pending.paymentId));
      expect(debit!.bankAccountId).toBe(stored!.id);

      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "payment_account.change"), eq(auditLog.recordId, loanId)));
      expect(audit).toMatchObject({ actorId: owner.id });
      expect(JSON.stringify(audit!.details)).toContain('"last4":"3210"');
      expect(JSON.stringify(audit)).not.toContain("9876543210");
      const mails = await db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, owner.email), eq(emailOutbox.template, "payment-account-changed")));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.textBody).toContain("Savings ••••3210");
      expect(mails[0]!.textBody).not.toContain("9876543210");
      expect(mails[0]!.textBody).not.toContain("011000015");

      // The borrower's page, the staff page and Make a Payment's list all lead with the new account.
      const page = await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today);
      expect(page!.paymentAccount).toEqual({ label: "Savings ••••3210", holder: "Dana Whitfield", bankName: "Second Bank" });
      expect(page!.bankAccounts[0]!.id).toBe(stored!.id);
      expect(JSON.stringify(page)).not.toContain("9876543210");
      const staff = await loadStaffLoan(loanId, { actor: admin, request: {} }, db(), today);
      expect(staff!.paymentAccount).toEqual({ label: "Savings ••••3210", holder: "Dana Whitfield", bankName: "Second Bank" });

      // A new account is validated before its first debit: the next file carries its debit prenote
      // (savings: 38, zero dollars) and the debit waits.
      const first = await createAchBatch({ actor: admin, request: {} }, db());
      expect(first.ok).toBe(true);
      if (!first.ok) return;
      expect(first.skipped).toContainEqual({ paymentId: pending.paymentId, reason: expect.stringContaining("prenote is queued") });
      const prenoteFile = await downloadAchBatch(first.batchId, { actor: admin, request: {} }, db());
      const prenote = prenoteFile!.content.split("\n").find((line) => line.startsWith("6") && line.slice(12, 29).trimEnd() === "0009876543210");
      expect(prenote?.slice(1, 3)).toBe("38");
      expect(prenote?.slice(29, 39)).toBe("0000000000");
      // Staff validate it another way meanwhile (a verification service), so it need not wait.
      await recordAccountValidation(stored!.id, { method: "account_verification_service", reference: "AVS-12345" }, { actor: admin, request: {} }, db());

      // The next ACH file debits the new account.
      const batch = await createAchBatch({ actor: admin, request: {} }, db());
      expect(batch.ok).toBe(true);
      if (!batch.ok) return;
      const file = await downloadAchBatch(batch.batchId, { actor: admin, request: {} }, db());
      const entry = file!.content.split("\n").find((line) => line.startsWith("6") && line.slice(29, 39) === String(pending.amountCents).padStart(10, "0"));
      expect(entry?.slice(3, 12)).toBe("011000015");
      expect(entry?.slice(12, 29).trimEnd()).toBe("0009876543210");
      expect(entry?.slice(1, 3)).toBe("37");
      // A debit the borrower authorised on the website, once: WEB, Payment Type Code S.
      expect(entry?.slice(76, 78)).toBe("S ");

      // A debit already in a file stays with the account the bank was sent; a second change replaces the first.
      const again = await post(loanId, owner, { ...NEW_ACCOUNT, accountNumber: "5550001111", bankAccountType: "checking" });
      expect(again.status).toBe(200);
      const [sent] = await db().select().from(loanPayments).where(eq(loanPayments.id, pending.paymentId));
      expect(sent!.bankAccountId).toBe(stored!.id);
      const rows = await db().select().from(loanPaymentAccounts).where(eq(loanPaymentAccounts.loanId, loanId));
      expect(rows.filter((r) => r.isCurrent)).toHaveLength(1);
      expect(rows.find((r) => r.bankAccountId === stored!.id)).toMatchObject({ isCurrent: false });
      expect(rows.find((r) => r.bankAccountId === stored!.id)!.replacedAt).not.toBeNull();
    });

    it("refuses a bad routing number, a short account number and control characters with the field's message, keeping what was typed; nothing stored", async () => {
      const { owner, loanId } = await signedLoan(30);
      const cases: [Record<string, string>, string, RegExp][] = [
        [{ routingNumber: "011000016" }, "routingNumber", /not a valid ABA routing number/],
        [{ routingNumber: "991000015" }, "routingNumber", /must start with 01 to 12/],
        [{ accountNumber: "12" }, "accountNumber", /Account number/],
        [{ accountHolderName: "Dana\u0000Whitfield" }, "accountHolderName", /control codes/],
        [{ bankAccountType: "crypto" }, "bankAccountType", /bank information/],
      ];
      for (const [change, field, message] of cases) {
        const res = await post(loanId, owner, { ...NEW_ACCOUNT, ...change });
        expect(res.status, field).toBe(400);
        const body = res.body as { fieldErrors?: Record<string, string[]>; values?: Record<string, string> };
        expect(body.fieldErrors?.[field]?.[0]).toMatch(message);
        expect(body.values?.bankName).toBe("Second Bank");
        expect(body.values?.[field]).toBe((change[field] ?? "").slice(0, 200));
      }
      expect(await db().select().from(loanPaymentAccounts).where(eq(loanPaymentAccounts.loanId, loanId))).toEqual([]);
    });

    it("another borrower's loan, staff and a malformed id are 404; a paid-off loan is refused (409)", async () => {
      const { owner, loanId } = await signedLoan(30);
      const other = await signedLoan(30);
      expect((await post(loanId, other.owner, NEW_ACCOUNT)).status).toBe(404);
      expect((await post(loanId, { ...admin, isStaff: true }, NEW_ACCOUNT)).status).toBe(404);
      expect((await post("not-a-uuid", owner, NEW_ACCOUNT)).status).toBe(404);
      const ledger = await loadLedger(loanId, db(), today);
      const q = payoffQuote(ledger!.terms, ledger!.payments, ledger!.fees, today);
      await recordPayment(loanId, { amountCents: q.totalCents, receivedOn: today, method: "wire", reference: "PAYOFF-CBA" }, { actor: admin, request: {} }, db(), today);
      const closed = await post(loanId, owner, NEW_ACCOUNT);
      expect(closed.status).toBe(409);
      expect(closed.body.toast?.description).toBe("This loan is paid off or closed: its payment account can no longer be changed.");
      expect((await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today))!.accountChangeable).toBe(false);
      expect(await db().select().from(loanPaymentAccounts).where(eq(loanPaymentAccounts.loanId, loanId))).toEqual([]);
    });

    it("the loan page carries the agreement, the application's conversation, and the next step of a signed loan", async () => {
      const { owner, loanId, applicationId } = await signedLoan(10);
      const page = await loadBorrowerLoan(loanId, { actor: owner, request: {} }, db(), today);
      expect(page).toMatchObject({ applicationId, agreementOnFile: true, accountChangeable: true });
      expect(page!.conversation.messages).toEqual([]);
      const dashboard = await getDashboard(owner.id, owner.name, db());
      const card = dashboard.approvedLoans.find((l) => l.id === loanId);
      expect(card!.nextStep).toMatch(/agreement is signed/);
      expect(card!.nextStep).not.toMatch(/specialist will contact you/);
      expect(dashboard.applications.find((a) => a.id === applicationId)!.nextStep).toMatch(/agreement is signed/);
    });
  });
});

function escape(text: string): string {
  return text.replace(/[$.*+?^{}()|[\]\\]/g, "\\$&");
}
