import path from "node:path";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { achBatches, auditLog, bankAccounts, bankAccountValidations, emailOutbox, loanFundings, loanPayments } from "~/server/platform/db/schema.server";
import { createAchBatch, individualIdFor, loadAchPage, type EntrySource } from "~/server/loans/ach-batches.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import {
  accountValidations,
  recordAccountValidation,
  recordPriorPaymentValidations,
  requestAccountValidation,
  returnPrenote,
  validateMaturedPrenotes,
} from "~/server/loans/account-validations.server";
import { accountValidationPanel, recordValidationIntent } from "~/server/loans/account-validation-panel.server";
import { changePaymentAccount } from "~/server/loans/payment-accounts.server";
import { runServicingJobs } from "~/server/loans/servicing-jobs.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import { giveConsent, signOffer } from "~/server/offers/index.server";
import { createLocalStorage } from "~/server/platform/storage/storage.server";
import { activeLoan, pendingDebit, servicingAdmin, type ActiveLoan } from "../helpers/servicing-loans";
import { seedOffer } from "../helpers/seed";
import { checkNachaFile, expectStoredAchFilesMatch } from "../helpers/nacha-parser";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { appErrorOf } from "../helpers/rejection";

/**
 * Bank accounts validated before their first debit or credit: a prenote queued when a loan opens (PPD,
 * CCD for a business loan) and when the borrower changes the payment account (WEB); prenotes in the ACH
 * file with their codes, one batch per class, read back by the registry's parser; validated after the
 * wait in banking days (across Thanksgiving), not before; a returned prenote fails and holds the debits;
 * a method staff record validates at once; parallel requests make one row; accounts debited before
 * validation existed count as validated. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */

const dataDir = setUpTestConfig("account-validation", { APP_SECRET: "v".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.40", userAgent: "validation test" };
const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "servicing");
// Signed in early November 2026, so the files below (late November) fall inside the loans' lives.
const signedAt = new Date("2026-11-02T15:00:00Z");

describe.each(testTargets)("account validation on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `val-admin-${target}`);
  });
  // Every file these tests made, read by the registry's parser and compared with the database.
  afterAll(async () => {
    expect(await expectStoredAchFilesMatch(db())).toBeGreaterThan(0);
  });

  const caller = () => ({ actor: admin, request: info });
  /** Each test batches only its own entries: earlier tests' pending debits and queued prenotes are put aside. */
  const clearQueue = async () => {
    await db().update(loanPayments).set({ status: "cancelled", cancelReason: "test set-up", cancelledAt: new Date() }).where(and(eq(loanPayments.status, "pending"), isNull(loanPayments.achBatchId)));
    await db()
      .update(bankAccountValidations)
      .set({ status: "failed", returnCode: "R03" })
      .where(and(eq(bankAccountValidations.status, "pending"), isNull(bankAccountValidations.achBatchId)));
  };
  const validationsOf = (bankAccountId: string) => db().select().from(bankAccountValidations).where(eq(bankAccountValidations.bankAccountId, bankAccountId));
  const fileOf = async (batchId: string) => {
    const [batch] = await db().select().from(achBatches).where(eq(achBatches.id, batchId));
    return { batch: batch!, parsed: checkNachaFile(decryptField(batch!.content, ENCRYPTION_PURPOSES.achFile)) };
  };
  const newAccount = async (loan: ActiveLoan, account: string, routing = "011000015", accountType: "checking" | "savings" = "checking") => {
    const [row] = await db()
      .insert(bankAccounts)
      .values({
        userId: loan.owner.id,
        applicationId: loan.applicationId,
        accountHolderName: "Dana Whitfield",
        bankName: "Other Bank",
        accountType,
        accountNumber: encryptField(account, ENCRYPTION_PURPOSES.accountNumber),
        routingNumber: encryptField(routing, ENCRYPTION_PURPOSES.routingNumber),
        accountNumberLast4: account.slice(-4),
        routingNumberLast2: routing.slice(-2),
      })
      .returning({ id: bankAccounts.id });
    return row!.id;
  };

  it("a loan opened on signing queues a credit prenote for the application's account: PPD for a consumer, CCD for a business", async () => {
    for (const [loanType, secCode] of [
      ["personal", "PPD"],
      ["business", "CCD"],
    ] as const) {
      const offer = await seedOffer(db(), { admin, application: { loanType }, at: new Date(signedAt.getTime() - 3_600_000) });
      const [account] = await db()
        .insert(bankAccounts)
        .values({
          userId: offer.owner.id,
          applicationId: offer.application.id,
          accountHolderName: "Jane Doe",
          bankName: "First Bank",
          accountType: "checking",
          accountNumber: encryptField("55501234", ENCRYPTION_PURPOSES.accountNumber),
          routingNumber: encryptField("021000021", ENCRYPTION_PURPOSES.routingNumber),
          accountNumberLast4: "1234",
          routingNumberLast2: "21",
          isPrimary: true,
        })
        .returning({ id: bankAccounts.id });
      await giveConsent(offer.application.id, { actor: offer.owner, request: info }, db(), new Date(signedAt.getTime() - 60_000));
      await signOffer(offer.application.id, { kind: "typed", name: `${offer.application.firstName} ${offer.application.lastName}` }, { actor: offer.owner, request: info }, { db: db(), storage: createLocalStorage(path.join(dataDir, "storage")), now: signedAt });
      const rows = await validationsOf(account!.id);
      expect(rows).toEqual([expect.objectContaining({ method: "prenote", status: "pending", secCode, direction: "credit", achBatchId: null })]);
      const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "bank_account.validation"), eq(auditLog.recordId, rows[0]!.id)));
      expect(audit!.details).toMatchObject({ event: "prenote_requested", secCode, direction: "credit" });
      expect(JSON.stringify(audit)).not.toContain("55501234");
    }
  });

  it("Change Bank Account queues a WEB debit prenote for the new account; the moved debit waits for it", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt });
    const debit = await pendingDebit(db(), loan, 20_000);
    const owner = { ...loan.owner, isStaff: false };
    const changed = await changePaymentAccount(
      loan.loanId,
      { intent: "change-account", accountHolderName: "Dana Whitfield", bankName: "Second Bank", routingNumber: "011000015", accountNumber: "0009876543210", bankAccountType: "savings" },
      { actor: owner, request: info },
      db(),
    );
    expect(await validationsOf(changed.bankAccountId)).toEqual([expect.objectContaining({ method: "prenote", status: "pending", secCode: "WEB", direction: "debit" })]);
    const page = await loadAchPage(db(), "2026-11-23");
    expect(page.pending.find((p) => p.paymentId === debit)!.skipReason).toBe("The bank account is not validated yet: its prenote is queued for the next ACH file.");
    expect(page.pendingPrenotes).toEqual([expect.objectContaining({ accountMasked: "••••3210", secCode: "WEB", direction: "debit", loanId: loan.loanId, skipReason: null })]);
    expect(JSON.stringify(page)).not.toContain("9876543210");
  });

  it("one file: a WEB debit and WEB debit prenote, PPD and CCD credit prenotes, each batch by class, read back by the registry's parser", async () => {
    await clearQueue();
    const paying = await activeLoan(db(), dataDir, admin, { signedAt, routing: "021000021", account: "000123456789" });
    const fresh = await activeLoan(db(), dataDir, admin, { signedAt, validated: false, routing: "011000015", account: "44556677", accountType: "savings" });
    const p1 = await pendingDebit(db(), paying, 12_345);
    const p2 = await pendingDebit(db(), fresh, 5_000);
    const consumer = await newAccount(paying, "7001002003");
    const business = await newAccount(fresh, "8001002003", "021000021", "savings");
    await db().transaction(async (tx) => {
      await requestAccountValidation(tx, consumer, { secCode: "PPD", direction: "credit" }, caller());
      await requestAccountValidation(tx, business, { secCode: "CCD", direction: "credit" }, caller());
    });

    const result = await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    // The unvalidated account's debit waits; its prenote (queued by this batch: it had none) is in the file.
    expect(result.skipped).toEqual([{ paymentId: p2, reason: "The bank account is not validated yet: its prenote is queued for the next ACH file." }]);
    expect(result).toMatchObject({ entryCount: 4, totalCents: 12_345, creditTotalCents: 0, counts: { debit: 1, prenote: 3, credit: 0 }, effectiveDate: "2026-11-25" });
    const { batch, parsed } = await fileOf(result.batchId);
    expect(batch).toMatchObject({ entryCount: 4, totalCents: 12_345, creditTotalCents: 0 });
    // Debits come first (WEB, with the WEB prenote); the two credit prenotes' classes follow in the order queued.
    expect(parsed.batches.map((b) => b.num)).toEqual([1, 2, 3]);
    expect(parsed.batches[0]!.entryClassCode).toBe("WEB");
    expect(parsed.batches.map((b) => [b.entryClassCode, b.serviceClassCode]).sort()).toEqual([
      ["CCD", 220],
      ["PPD", 220],
      ["WEB", 225],
    ]);
    const byClass = (sec: string) => parsed.batches.find((b) => b.entryClassCode === sec)!;
    const [web, ppd, ccd] = [byClass("WEB"), byClass("PPD"), byClass("CCD")];
    expect(web!.entries.map((e) => [e.transactionCode, e.amount, e.dfiAccount.trim(), e.paymentTypeCode])).toEqual([
      ["27", 12_345, "000123456789", "S"],
      ["38", 0, "44556677", "S"],
    ]);
    expect(ppd!.entries.map((e) => [e.transactionCode, e.amount, e.dfiAccount.trim()])).toEqual([["23", 0, "7001002003"]]);
    expect(ccd!.entries.map((e) => [e.transactionCode, e.amount, e.dfiAccount.trim()])).toEqual([["33", 0, "8001002003"]]);
    expect(parsed.file.footer).toMatchObject({ batchCount: 3, entryAndAddendaCount: 4, totalDebit: 12_345, totalCredit: 0 });
    expect(web!.effectiveDate).toBe("261125");

    // Claimed: the prenotes are sent with the file's effective date; the debit is in the batch.
    const sent = await db().select().from(bankAccountValidations).where(eq(bankAccountValidations.achBatchId, result.batchId));
    expect(sent).toHaveLength(3);
    for (const row of sent) expect(row).toMatchObject({ status: "sent", effectiveDate: "2026-11-25" });
    expect((await db().select().from(loanPayments).where(eq(loanPayments.id, p1)))[0]!.achBatchId).toBe(result.batchId);
    expect((await db().select().from(loanPayments).where(eq(loanPayments.id, p2)))[0]!.achBatchId).toBeNull();

    // The ACH page lists the prenotes under their batch, masked.
    const page = await loadAchPage(db(), "2026-11-24");
    const listed = page.batches.find((b) => b.id === result.batchId)!;
    expect(listed.prenotes.map((p) => [p.accountMasked, p.secCode, p.status, p.readyOn]).sort()).toEqual(
      [
        ["••••2003", "CCD", "sent", "2026-11-30"],
        ["••••2003", "PPD", "sent", "2026-11-30"],
        ["••••6677", "WEB", "sent", "2026-11-30"],
      ].sort(),
    );
    expect(JSON.stringify(page)).not.toContain("44556677");

    // A file of prenotes alone is a file too (totals zero).
    await clearQueue();
    const only = await newAccount(fresh, "9001002003");
    await db().transaction((tx) => requestAccountValidation(tx, only, { secCode: "PPD", direction: "credit" }));
    const prenotesOnly = await createAchBatch(caller(), db(), new Date("2026-11-24T16:00:00Z"));
    expect(prenotesOnly).toMatchObject({ ok: true, entryCount: 1, totalCents: 0, creditTotalCents: 0, counts: { prenote: 1 } });
  });

  it("the credits' slot: a funding credit (PPD 22) goes in the same file as a debit and a prenote, and the page lists it read-only", async () => {
    await clearQueue();
    const paying = await activeLoan(db(), dataDir, admin, { signedAt, routing: "021000021", account: "000123456789" });
    const funded = await activeLoan(db(), dataDir, admin, { signedAt, routing: "011000015", account: "31415926", holder: "Ann Funded" });
    const debit = await pendingDebit(db(), paying, 9_900);
    const fresh = await newAccount(paying, "27182818");
    await db().transaction((tx) => requestAccountValidation(tx, fresh, { secCode: "PPD", direction: "credit" }));
    const [funding] = await db()
      .insert(loanFundings)
      .values({ loanId: funded.loanId, bankAccountId: funded.bankAccountId, amountCents: 990_000, secCode: "PPD", status: "released", checklist: {} })
      .returning({ id: loanFundings.id });
    // What the funding module's fundingCreditsForBatch / claimFundingCredits do, in a test's few lines.
    const credits = async (tx: DbOrTx): Promise<EntrySource[]> => {
      const rows = await tx.select().from(loanFundings).where(and(eq(loanFundings.status, "released"), isNull(loanFundings.achBatchId))).for("update", { skipLocked: true });
      return [
        {
          kind: "credit",
          rows: rows.map((r) => ({
            id: r.id,
            skipReason: null,
            entry: { secCode: "PPD", direction: "credit", routingNumber: "011000015", accountNumber: "31415926", accountType: "checking", amountCents: r.amountCents, individualId: individualIdFor(r.loanId), individualName: "Ann Funded" },
          })),
          claim: async (ids, batchId) =>
            (await tx.update(loanFundings).set({ achBatchId: batchId, status: "sent" }).where(inArray(loanFundings.id, ids)).returning({ id: loanFundings.id })).length,
        },
      ];
    };
    const result = await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"), credits);
    expect(result).toMatchObject({ ok: true, entryCount: 3, totalCents: 9_900, creditTotalCents: 990_000, counts: { debit: 1, prenote: 1, credit: 1 } });
    if (!result.ok) return;
    const { batch, parsed } = await fileOf(result.batchId);
    expect(batch).toMatchObject({ totalCents: 9_900, creditTotalCents: 990_000, entryCount: 3 });
    expect(parsed.batches.map((b) => [b.entryClassCode, b.serviceClassCode])).toEqual([
      ["WEB", 225],
      ["PPD", 220],
    ]);
    expect(parsed.batches[1]!.entries.map((e) => [e.transactionCode, e.amount]).sort()).toEqual([
      ["22", 990_000],
      ["23", 0],
    ]);
    expect(parsed.file.footer).toMatchObject({ totalDebit: 9_900, totalCredit: 990_000, entryAndAddendaCount: 3, batchCount: 2 });
    expect((await db().select().from(loanPayments).where(eq(loanPayments.id, debit)))[0]!.achBatchId).toBe(result.batchId);

    const page = await loadAchPage(db(), "2026-11-24");
    const listed = page.batches.find((b) => b.id === result.batchId)!;
    expect(listed).toMatchObject({ creditTotalCents: 990_000 });
    expect(listed.credits).toEqual([
      { fundingId: funding!.id, loanId: funded.loanId, borrower: funded.owner.name, amountCents: 990_000, accountMasked: "••••5926", secCode: "PPD", status: "sent", settledOn: null, returnedOn: null, returnCode: null },
    ]);
    expect(JSON.stringify(page)).not.toContain("31415926");
  });

  it("a sent prenote counts as validated after 2 banking days (Thanksgiving and the weekend skipped), not before; then the debit goes", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    const debit = await pendingDebit(db(), loan, 7_500);
    // The day before Thanksgiving: effective Wednesday 25 November; + 2 banking days: Friday 27, Monday 30.
    const first = await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    expect(first.ok && first.counts).toEqual({ debit: 0, prenote: 1, credit: 0 });
    const [row] = await validationsOf(loan.bankAccountId);
    expect(row).toMatchObject({ status: "sent", effectiveDate: "2026-11-25" });

    for (const day of ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29"]) {
      expect(await validateMaturedPrenotes(db(), day), day).toBe(0);
    }
    const waiting = await loadAchPage(db(), "2026-11-27");
    expect(waiting.pending.find((p) => p.paymentId === debit)!.skipReason).toBe(
      "The bank account is not validated yet: its prenote was sent on Nov 25, 2026 and counts as validated on Nov 30, 2026.",
    );
    const notYet = await createAchBatch(caller(), db(), new Date("2026-11-27T15:00:00Z"));
    expect(notYet).toMatchObject({ ok: false, skipped: [{ paymentId: debit }] });

    // Monday 30 November: Create ACH Batch validates it first, then sends the debit.
    const monday = await createAchBatch(caller(), db(), new Date("2026-11-30T15:00:00Z"));
    expect(monday).toMatchObject({ ok: true, counts: { debit: 1, prenote: 0 }, totalCents: 7_500 });
    const [validated] = await validationsOf(loan.bankAccountId);
    expect(validated).toMatchObject({ status: "validated", method: "prenote" });
    expect(validated!.validatedAt).not.toBeNull();
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "bank_account.validation"), eq(auditLog.recordId, validated!.id)));
    expect(audits.map((a) => (a.details as { event: string }).event).sort()).toEqual(["prenote_requested", "prenote_validated"]);
    expect((await accountValidations([loan.bankAccountId], db())).get(loan.bankAccountId)).toMatchObject({ status: "validated", method: "prenote", effectiveDate: "2026-11-25" });
  });

  it("the servicing job validates matured prenotes", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    await db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }));
    await createAchBatch(caller(), db(), new Date("2026-12-03T15:00:00Z"));
    // Effective Friday 4 December; + 2 banking days: Monday 7, Tuesday 8.
    expect((await runServicingJobs(db(), new Date("2026-12-07T15:00:00Z"))).prenotesValidated).toBe(0);
    expect((await runServicingJobs(db(), new Date("2026-12-08T15:00:00Z"))).prenotesValidated).toBeGreaterThanOrEqual(1);
    expect((await validationsOf(loan.bankAccountId))[0]).toMatchObject({ status: "validated" });
  });

  it("a returned prenote fails with its code and date; the debit stays pending with why; bad returns are refused", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    const debit = await pendingDebit(db(), loan, 4_000);
    await db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }));
    const [queued] = await validationsOf(loan.bankAccountId);
    // Not in a file yet: nothing to return.
    expect((await refusal(returnPrenote(queued!.id, "R03", "2026-11-24", caller(), db(), "2026-11-24"))).status).toBe(409);
    await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    expect((await refusal(returnPrenote(queued!.id, "R99", "2026-11-25", caller(), db(), "2026-11-25"))).status).toBe(400);
    expect((await refusal(returnPrenote(queued!.id, "R03", "2026-11-24", caller(), db(), "2026-11-25"))).status).toBe(400);
    expect((await refusal(returnPrenote(queued!.id, "R03", "2026-11-27", caller(), db(), "2026-11-25"))).status).toBe(400);
    expect((await refusal(returnPrenote("not-a-uuid", "R03", "2026-11-25", caller(), db(), "2026-11-25"))).status).toBe(404);

    await returnPrenote(queued!.id, "R03", "2026-11-25", caller(), db(), "2026-11-25");
    expect((await validationsOf(loan.bankAccountId))[0]).toMatchObject({ status: "failed", returnCode: "R03", returnedOn: "2026-11-25" });
    // Twice is refused: it is not sent any more.
    expect((await refusal(returnPrenote(queued!.id, "R03", "2026-11-25", caller(), db(), "2026-11-25"))).status).toBe(409);
    // The wait passing does not validate a returned prenote.
    expect(await validateMaturedPrenotes(db(), "2026-12-31")).toBe(0);
    const page = await loadAchPage(db(), "2026-11-27");
    expect(page.pending.find((p) => p.paymentId === debit)!.skipReason).toBe("Its prenote was returned (R03 No Account/Unable to Locate Account): the borrower must add another account.");
    const result = await createAchBatch(caller(), db(), new Date("2026-11-30T15:00:00Z"));
    expect(result.skipped).toContainEqual({ paymentId: debit, reason: expect.stringContaining("returned (R03") });
    // A returned account gets no new prenote by itself: the borrower adds another account.
    expect(await validationsOf(loan.bankAccountId)).toHaveLength(1);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.recordId, queued!.id), eq(auditLog.action, "bank_account.validation"))).orderBy(auditLog.id);
    expect(audit).toBeDefined();
  });

  it("a returned prenote e-mails the borrower through the outbox: the code's label, Change Bank Account, no account digits", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false, account: "000271828182" });
    await db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }));
    const [queued] = await validationsOf(loan.bankAccountId);
    await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    const mails = () => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, loan.owner.email), eq(emailOutbox.template, "prenote-returned")));
    // A refused return sends nothing.
    await refusal(returnPrenote(queued!.id, "R99", "2026-11-25", caller(), db(), "2026-11-25"));
    expect(await mails()).toHaveLength(0);

    await returnPrenote(queued!.id, "R03", "2026-11-25", caller(), db(), "2026-11-25");
    const [mail, ...more] = await mails();
    expect(more).toHaveLength(0);
    const text = `${mail!.subject} ${mail!.textBody} ${mail!.htmlBody ?? ""}`;
    expect(mail!.textBody).toContain("could not validate the account you gave");
    expect(mail!.textBody).toContain("R03 No Account/Unable to Locate Account");
    expect(mail!.textBody).toContain("Change Bank Account");
    expect(mail!.textBody).toContain(`/dashboard/loans/${loan.loanId}`);
    for (const digits of ["000271828182", "271828182", "8182", "021000021"]) expect(text).not.toContain(digits);
  });

  it("a method staff record validates at once: the queued prenote is never sent; twice is refused; audited", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    const debit = await pendingDebit(db(), loan, 3_000);
    await db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }));
    const view = await recordAccountValidation(loan.bankAccountId, { method: "bank_letter", reference: "Letter of 20 Nov 2026, J. Smith" }, caller(), db());
    expect(view).toMatchObject({ status: "validated", method: "bank_letter", reference: "Letter of 20 Nov 2026, J. Smith", recordedBy: admin.name });
    expect(await validationsOf(loan.bankAccountId)).toHaveLength(1);
    const result = await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    expect(result).toMatchObject({ ok: true, counts: { debit: 1, prenote: 0 } });
    expect((await db().select().from(loanPayments).where(eq(loanPayments.id, debit)))[0]!.achBatchId).not.toBeNull();
    expect((await refusal(recordAccountValidation(loan.bankAccountId, { method: "bank_letter", reference: "again" }, caller(), db()))).status).toBe(409);
    expect((await refusal(recordAccountValidation(loan.bankAccountId, { method: "bank_letter", reference: "x" }, caller(), db()))).status).toBe(400);
    expect((await refusal(recordAccountValidation("nope", { method: "bank_letter", reference: "abc" }, caller(), db()))).status).toBe(404);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.action, "bank_account.validation"), eq(auditLog.actorId, admin.id)));
    expect(audits.some((a) => (a.details as { event: string; method?: string }).event === "recorded" && (a.details as { method?: string }).method === "bank_letter")).toBe(true);

    // An account with no validation at all gets a validated row directly.
    const other = await newAccount(loan, "1231231234");
    await recordAccountValidation(other, { method: "account_verification_service", reference: "AVS-778899" }, caller(), db());
    expect(await validationsOf(other)).toEqual([expect.objectContaining({ status: "validated", method: "account_verification_service", recordedBy: admin.id })]);
  });

  it("the loan page's panel and its Record Validation intent: the payment account, bad input 400, a stale account 409", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    const panel = await accountValidationPanel({ id: loan.loanId, applicationId: loan.applicationId, userId: loan.owner.id }, db());
    expect(panel).toMatchObject({ bankAccountId: loan.bankAccountId, accountMasked: "••••6789", validation: null });
    const bad = await recordValidationIntent(loan.loanId, { intent: "record-validation", bankAccountId: loan.bankAccountId, method: "prenote", reference: "abc" }, caller(), db());
    expect(bad.status).toBe(400);
    const short = await recordValidationIntent(loan.loanId, { intent: "record-validation", bankAccountId: loan.bankAccountId, method: "bank_letter", reference: "ab" }, caller(), db());
    expect(short).toMatchObject({ status: 400, body: { ok: false, fieldErrors: { reference: [expect.any(String)] } } });
    const stale = await recordValidationIntent(loan.loanId, { intent: "record-validation", bankAccountId: "00000000-0000-4000-8000-000000000000", method: "bank_letter", reference: "abc" }, caller(), db());
    expect(stale.status).toBe(409);
    const ok = await recordValidationIntent(loan.loanId, { intent: "record-validation", bankAccountId: loan.bankAccountId, method: "bank_letter", reference: "Voided check 1042" }, caller(), db());
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
    expect((await accountValidationPanel({ id: loan.loanId, applicationId: loan.applicationId, userId: loan.owner.id }, db()))!.validation).toMatchObject({ status: "validated", method: "bank_letter", reference: "Voided check 1042" });
  });

  it("retention may remove an old ACH file: its prenotes' validations stay, without the batch", async () => {
    await clearQueue();
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    await db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }));
    const result = await createAchBatch(caller(), db(), new Date("2026-11-24T15:00:00Z"));
    if (!result.ok) throw new Error("no batch");
    await validateMaturedPrenotes(db(), "2026-11-30");
    await db().delete(achBatches).where(eq(achBatches.id, result.batchId));
    expect(await validationsOf(loan.bankAccountId)).toEqual([expect.objectContaining({ status: "validated", achBatchId: null, effectiveDate: "2026-11-25" })]);
  });

  it("parallel requests for one account make one prenote row", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    const results = await Promise.all(
      Array.from({ length: 4 }, () => db().transaction((tx) => requestAccountValidation(tx, loan.bankAccountId, { secCode: "WEB", direction: "debit" }, caller()))),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await validationsOf(loan.bankAccountId)).toHaveLength(1);
  });

  it("accounts debited before validation existed count as validated by the prior payment (a data step, once)", async () => {
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, validated: false });
    await db().insert(loanPayments).values({
      loanId: loan.loanId,
      userId: loan.owner.id,
      amountCents: 1_000,
      status: "posted",
      method: "ach",
      source: "borrower",
      choice: "amount",
      reference: "ACH-PRIOR-1",
      receivedOn: "2026-11-20",
      bankAccountId: loan.bankAccountId,
      authorizationVersion: "test-1",
      authorizedAt: new Date("2026-11-18T12:00:00Z"),
    });
    expect(await recordPriorPaymentValidations(db())).toBeGreaterThanOrEqual(1);
    expect(await validationsOf(loan.bankAccountId)).toEqual([expect.objectContaining({ method: "prior_payment", status: "validated", reference: "First posted ACH debit 2026-11-20" })]);
    expect(await recordPriorPaymentValidations(db())).toBe(0);
    const ids = (await db().select({ id: bankAccountValidations.id }).from(bankAccountValidations).where(inArray(bankAccountValidations.bankAccountId, [loan.bankAccountId]))).map((r) => r.id);
    const audits = await db().select().from(auditLog).where(inArray(auditLog.recordId, ids));
    expect(audits.map((a) => (a.details as { event: string }).event)).toEqual(["prior_payment"]);
  });
});
