import fs from "node:fs";
import path from "node:path";
import { applicationScreeningSubject } from "~/server/applications/index.server";
import { loadSanctionsLists, screenApplicant } from "~/server/sanctions/index.server";
import { recordAccountValidation } from "~/server/loans/index.server";
import { requestAccountValidation } from "~/server/loans/account-validations.server";
import { and, desc, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayUtc } from "~/domain/dates";
import { checklistState, FUNDING_CHECKLIST_KEYS } from "~/domain/funding-checklist";
import { daysBetween, payoffQuote, simpleInterestCents } from "~/domain/loan-servicing";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { getConfig, setConfig } from "~/server/platform/config.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { encryptField } from "~/server/platform/crypto/field-encryption.server";
import {
  achBatches,
  applicationEvents,
  approvedLoans,
  auditLog,
  bankAccounts,
  bankAccountValidations,
  emailOutbox,
  loanDocuments,
  loanFundings,
  loanPaymentAccounts,
  loanPayments,
} from "~/server/platform/db/schema.server";
import type { Db, DbOrTx } from "~/server/platform/db/client.server";
import { AppError } from "~/server/platform/http/app-error.server";
import { createLocalStorage, type DocumentStorage } from "~/server/platform/storage/storage.server";
import { getDashboard } from "~/server/applications/dashboard.server";
import { loadBorrowerLoan } from "~/server/loans/borrower-loan.server";
import { makePayment } from "~/server/loans/borrower-payments.server";
import { checklistFingerprint, loanChecklist } from "~/server/loans/funding-checklist.server";
import {
  acceptLoanIdDocument,
  cancelFunding,
  cancelLoan,
  claimFundingCredits,
  fundingCreditsForBatch,
  fundLoan,
  recordFeeCollected,
  releaseFunds,
  returnFunding,
  settleFunding,
} from "~/server/loans/funding.server";
import { loadLedger, lockLoan } from "~/server/loans/ledger.server";
import { buildNachaFile } from "~/server/loans/nacha.server";
import { changePaymentAccount } from "~/server/loans/payment-accounts.server";
import { recordPayment } from "~/server/loans/payments.server";
import { exportLoanTape, listLoans, loadStaffLoan, loanPageAction, parseLoansUrl } from "~/server/loans/staff-loans.server";
import { checkNachaFile } from "../helpers/nacha-parser";
import { seedApplicant, seedLoan, seedStaff } from "../helpers/seed";
import { setUpTestConfig } from "../helpers/temp-config";
import { MATRIX_FUNDING_BODIES } from "../helpers/funding-forms";
import { useTestDatabase } from "../helpers/test-db";

/**
 * Funding a signed loan against the database: the loan opens Awaiting Funding; the Funding Checklist
 * (each item with who and when) gates Fund Loan; the credit (PPD, CCD for a business) goes in an ACH
 * file the registry's parser reads back; settled → active with interest from the settlement day and
 * the borrower's "Funds sent on …" (page and e-mail, last four digits only); returned → awaiting
 * funding with the reason; four eyes; races; Cancel Loan after the funding deadline; no payments
 * before funding.
 */

const dataDir = setUpTestConfig("loan-funding", { APP_SECRET: "f".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.40", userAgent: "LoanFundingTest" };
const ACCOUNT = "000123456789";
const ROUTING = "021000021";

describe("loan funding", () => {
  const database = useTestDatabase({ global: true });
  const db = (): Db => database().db;
  const today = todayUtc();
  let storage: DocumentStorage;
  let ada: AuditActor;
  let ben: AuditActor;
  let n = 0;
  const as = <A extends AuditActor>(actor: A) => ({ actor, request: info });
  const savedConfig = () => getConfig();
  let restore: ReturnType<typeof getConfig> | null = null;

  beforeAll(async () => {
    storage = createLocalStorage(path.join(dataDir, "storage"));
    await seedStaff(db(), { id: "lf-ada", name: "Ada Admin", email: "lf-ada@example.com", role: "admin" });
    await seedStaff(db(), { id: "lf-ben", name: "Ben Banker", email: "lf-ben@example.com", role: "admin" });
    ada = { id: "lf-ada", name: "Ada Admin", email: "lf-ada@example.com" };
    ben = { id: "lf-ben", name: "Ben Banker", email: "lf-ben@example.com" };
    // The sample sanctions lists, loaded as an operator would: screening is clear only against a loaded list.
    const fixtures = path.resolve(import.meta.dirname, "../fixtures/sanctions");
    const files = ["sdn/sdn.csv", "sdn/add.csv", "sdn/alt.csv"].map((f) => ({ name: path.basename(f), content: fs.readFileSync(path.join(fixtures, f)) }));
    await loadSanctionsLists(db(), files, "2026-12-01");
  });
  afterEach(() => {
    if (restore) setConfig(restore);
    restore = null;
  });

  /** Funding at or above `dollars` needs another staff member's release (for this test only). */
  function fourEyesAt(cents: number) {
    restore = savedConfig();
    setConfig({ ...restore, fourEyesThresholdCents: cents });
  }

  /** A loan signed `daysAgo` days back through the product, left Awaiting Funding, with a checking account on the application. */
  async function awaitingLoan(options: { daysAgo?: number; loanType?: "personal" | "business"; amountCents?: number } = {}) {
    n += 1;
    const owner = await seedApplicant(db(), { id: `lf-borrower-${n}`, name: "Dana Whitfield", email: `lf.borrower${n}@example.com`, profile: { phone: "2125550100" } });
    const amountCents = options.amountCents ?? 2_500_000;
    const seeded = await seedLoan(db(), {
      owner,
      admin: ada,
      storage,
      funded: false,
      today,
      signedOn: addDays(today, -(options.daysAgo ?? 8)),
      application: { firstName: "Dana", lastName: "Whitfield", email: owner.email, loanType: options.loanType ?? "personal", requestedAmountCents: amountCents },
      terms: { approvedAmountCents: amountCents, interestRateMilli: 9500, termMonths: 36, originationFeeMilli: 1000 },
    });
    const [account] = await db()
      .insert(bankAccounts)
      .values({
        userId: owner.id,
        applicationId: seeded.application.id,
        accountHolderName: "Dana Whitfield",
        bankName: "First Test Bank",
        accountType: "checking",
        accountNumber: encryptField(ACCOUNT, ENCRYPTION_PURPOSES.accountNumber),
        routingNumber: encryptField(ROUTING, ENCRYPTION_PURPOSES.routingNumber),
        accountNumberLast4: ACCOUNT.slice(-4),
        routingNumberLast2: ROUTING.slice(-2),
      })
      .returning({ id: bankAccounts.id });
    return { loanId: seeded.loanId, applicationId: seeded.application.id, owner: { ...owner, isStaff: false as boolean }, bankAccountId: account!.id, startDate: seeded.startDate, amountCents };
  }
  type Loan = Awaited<ReturnType<typeof awaitingLoan>>;

  /** Screened at submission against the loaded sample lists, as submitting does: Dana Whitfield is on none. */
  async function screenClear(loan: Loan) {
    await screenApplicant(db(), (await applicationScreeningSubject(loan.applicationId, db()))!, "submission");
  }
  async function idDocument(loan: Loan) {
    const [doc] = await db()
      .insert(loanDocuments)
      .values({ applicationId: loan.applicationId, userId: loan.owner.id, documentType: "id_card_front", fileName: "license.png", filePath: `${loan.owner.id}/${loan.applicationId}/id-${n}.png`, fileSize: 1000, mimeType: "image/png" })
      .returning({ id: loanDocuments.id });
    return doc!.id;
  }
  /** Staff record a bank letter (the prenote queued for the account, if any, becomes this validation). */
  async function validate(bankAccountId: string) {
    await recordAccountValidation(bankAccountId, { method: "bank_letter", reference: "LETTER-1" }, as(ada), db());
  }
  /** Every checklist item met: screened clear, ID accepted by Ben, the account validated by Ada. */
  async function readyLoan(options: Parameters<typeof awaitingLoan>[0] = {}) {
    const loan = await awaitingLoan(options);
    await screenClear(loan);
    await acceptLoanIdDocument(loan.loanId, await idDocument(loan), as(ben), db());
    await validate(loan.bankAccountId);
    return loan;
  }
  async function checklistOf(loanId: string, db_: DbOrTx = db()) {
    const loan = (await lockLoan(db_, loanId))!;
    return loanChecklist(loan, db_);
  }
  async function fingerprintOf(loanId: string) {
    return (await checklistOf(loanId)).fingerprint;
  }
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  };

  /** What Create ACH Batch does with the funding credits: an ACH file effective `effectiveDate`, stored, the credits claimed. */
  async function sendFile(effectiveDate: string) {
    return db().transaction(async (tx) => {
      const credits = await fundingCreditsForBatch(tx);
      const ready = credits.filter((c) => c.entry !== null);
      if (ready.length === 0) return { credits, content: null };
      const file = buildNachaFile({ originator: getConfig().ach, entries: ready.map((c) => c.entry!), createdAt: new Date(), effectiveDate, fileIdModifier: "F", firstTraceSequence: 1 });
      const [batch] = await tx
        .insert(achBatches)
        .values({ createdBy: ada.id, entryCount: file.entryCount, totalCents: file.totalDebitCents, creditTotalCents: file.totalCreditCents, fileName: `funding-${n}`, effectiveDate, content: encryptField(file.content, ENCRYPTION_PURPOSES.achFile) })
        .returning({ id: achBatches.id });
      await claimFundingCredits(tx, ready.map((c) => c.fundingId), batch!.id);
      return { credits, content: file.content };
    });
  }
  const fundingsOf = (loanId: string) => db().select().from(loanFundings).where(eq(loanFundings.loanId, loanId)).orderBy(desc(loanFundings.preparedAt));
  const loanRow = async (loanId: string) => (await db().select().from(approvedLoans).where(eq(approvedLoans.id, loanId)))[0]!;
  const mailTo = (to: string, template: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template)));

  it("signing opens the loan Awaiting Funding; the checklist lists each item with who and when, met as the facts arrive", async () => {
    const loan = await awaitingLoan();
    expect((await loanRow(loan.loanId)).status).toBe("awaiting_funding");
    let items = (await checklistOf(loan.loanId)).items;
    expect(items.map((i) => i.label)).toEqual(["Agreement signed", "Loan Origination Fee Compliance", "Sanctions screening clear", "Identity document accepted", "Bank account validated"]);
    expect(items.map((i) => i.met)).toEqual([true, true, false, false, false]);
    const [signed, fee, sanctions, id, account] = items;
    expect(signed).toMatchObject({ who: "Dana Whitfield", met: true });
    expect(signed!.when!.slice(0, 10)).toBe(addDays(today, -8));
    expect(fee).toMatchObject({ who: "Dana Whitfield", detail: "$250.00 deducted from the proceeds; net proceeds $24,750.00." });
    expect(sanctions).toMatchObject({ met: false, detail: "Not screened yet." });
    expect(id).toMatchObject({ met: false, detail: "No ID document on the application." });
    expect(account).toMatchObject({ met: false, detail: "Checking ••••6789: not validated yet." });

    await screenClear(loan);
    const docId = await idDocument(loan);
    items = (await checklistOf(loan.loanId)).items;
    expect(items[3]).toMatchObject({ met: false, detail: "An ID document awaits acceptance." });
    await acceptLoanIdDocument(loan.loanId, docId, as(ben), db());
    await validate(loan.bankAccountId);
    const now = await checklistOf(loan.loanId);
    expect(now.items[2]).toMatchObject({ met: true, who: "Screening", detail: "No open potential match." });
    expect(now.items[3]).toMatchObject({ met: true, who: "Ben Banker", detail: "license.png accepted." });
    expect(now.items[4]).toMatchObject({ met: true, who: "Ada Admin", detail: "Checking ••••6789: validated by Bank letter or voided check (reference LETTER-1)." });
    expect(now.netProceedsCents).toBe(2_475_000);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "document.accept_id"), eq(auditLog.recordId, docId)));
    expect(audit).toMatchObject({ actorId: ben.id });

    // Another application's document, or a document that is not an ID, is refused (409).
    const other = await awaitingLoan();
    const otherDoc = await idDocument(other);
    expect((await refusal(acceptLoanIdDocument(loan.loanId, otherDoc, as(ben), db()))).status).toBe(409);
  });

  it("Fund Loan is refused until every item is met, naming the unmet ones; then it prepares one credit of the net proceeds (PPD) to the current account", async () => {
    const loan = await awaitingLoan();
    // Never screened: Fund Loan screens first, so the page's checklist is out of date and says so.
    const first = await refusal(fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db()));
    expect(first).toMatchObject({ status: 409, message: "The checklist changed since the page was loaded: Sanctions screening clear is now met." });
    const error = await refusal(fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db()));
    expect(error.status).toBe(409);
    expect(error.message).toBe("Fund Loan needs every checklist item met. Not met: Identity document accepted, Bank account validated.");
    await acceptLoanIdDocument(loan.loanId, await idDocument(loan), as(ben), db());
    await validate(loan.bankAccountId);
    const result = await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    // Below the four-eyes threshold (250,000 by default): released at once, by the preparer.
    expect(result).toMatchObject({ status: "released", amountCents: 2_475_000 });
    const [credit] = await fundingsOf(loan.loanId);
    expect(credit).toMatchObject({ status: "released", secCode: "PPD", amountCents: 2_475_000, bankAccountId: loan.bankAccountId, preparedBy: ada.id, releasedBy: ada.id });
    expect((credit!.checklist as { key: string; met: boolean }[]).map((i) => i.key)).toEqual([...FUNDING_CHECKLIST_KEYS]);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.fund_prepare"), eq(auditLog.recordId, credit!.id)));
    expect(JSON.stringify(audit!.details)).not.toContain(ACCOUNT);
    expect(audit!.details).toMatchObject({ last4: "6789", amountCents: 2_475_000 });
    // Again: one live credit per loan.
    expect((await refusal(fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db()))).message).toBe("This loan already has a funding credit.");
  });

  it("Fund Loan is refused once the first payment would fall due before the funds could arrive", async () => {
    const loan = await readyLoan({ daysAgo: 40 });
    const error = await refusal(fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db()));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/^Too late to fund: the first payment falls due on .+, before funds sent now could arrive\. Cancel the loan and make a new offer\.$/);
    expect(await fundingsOf(loan.loanId)).toHaveLength(0);
  });

  it("Fund Loan ×5 in parallel creates one credit", async () => {
    const loan = await readyLoan();
    const fingerprint = await fingerprintOf(loan.loanId);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => fundLoan(loan.loanId, { fingerprint }, as(ada), db())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409, message: "This loan already has a funding credit." });
    expect(await fundingsOf(loan.loanId)).toHaveLength(1);
  });

  it("a checklist changed since the page was loaded is refused, naming what changed", async () => {
    const loan = await readyLoan();
    const seen = await fingerprintOf(loan.loanId);
    await db().update(bankAccountValidations).set({ status: "failed", returnCode: "R03" }).where(eq(bankAccountValidations.bankAccountId, loan.bankAccountId));
    const error = await refusal(fundLoan(loan.loanId, { fingerprint: seen }, as(ada), db()));
    expect(error).toMatchObject({ status: 409, message: "The checklist changed since the page was loaded: Bank account validated is no longer met." });
    // The other way: an item met since the page was loaded is named too (and still needs a reload to fund).
    const loan2 = await awaitingLoan();
    await acceptLoanIdDocument(loan2.loanId, await idDocument(loan2), as(ben), db());
    await validate(loan2.bankAccountId);
    const seen2 = await fingerprintOf(loan2.loanId);
    await screenClear(loan2);
    expect((await refusal(fundLoan(loan2.loanId, { fingerprint: seen2 }, as(ada), db()))).message).toBe("The checklist changed since the page was loaded: Sanctions screening clear is now met.");
    expect(await fundingsOf(loan2.loanId)).toHaveLength(0);
    // The fingerprint is the sha256 of the keys and met flags the page saw.
    const items = (await checklistOf(loan2.loanId)).items;
    expect(checklistFingerprint(items)).toBe(await fingerprintOf(loan2.loanId));
    expect(checklistState(items)).toBe("agreement_signed=1;origination_fee=1;sanctions_clear=1;identity_document=1;bank_account_validated=1");
  });

  it("at or above the four-eyes threshold the credit waits: the preparer cannot release it, another staff member can", async () => {
    fourEyesAt(2_000_000);
    const loan = await readyLoan();
    const result = await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    expect(result.status).toBe("prepared");
    // A prepared credit is not in the next file.
    expect((await db().transaction((tx) => fundingCreditsForBatch(tx))).some((c) => c.loanId === loan.loanId)).toBe(false);
    const own = await refusal(releaseFunds(loan.loanId, as(ada), db()));
    expect(own).toMatchObject({ status: 403, message: "The staff member who prepared the funding cannot release it." });
    const page = (await loadStaffLoan(loan.loanId, as(ada), db(), today))!;
    expect(page.funding).toMatchObject({ fourEyes: true, canRelease: false, canFund: false, credit: { status: "prepared", statusLabel: "Awaiting Release", preparedBy: "Ada Admin" } });
    expect((await loadStaffLoan(loan.loanId, as(ben), db(), today))!.funding.canRelease).toBe(true);
    await releaseFunds(loan.loanId, as(ben), db());
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "released", preparedBy: ada.id, releasedBy: ben.id });
    expect((await refusal(releaseFunds(loan.loanId, as(ben), db()))).status).toBe(409);
  });

  it("the credit goes in the ACH file (PPD 220, CCD for a business loan, read back by the registry's parser); settled → active, funded on the day, interest from it, the borrower told", async () => {
    const loan = await readyLoan();
    const business = await readyLoan({ loanType: "business", amountCents: 1_000_000 });
    for (const l of [loan, business]) await fundLoan(l.loanId, { fingerprint: await fingerprintOf(l.loanId) }, as(ada), db());
    const effectiveDate = addDays(today, -5);
    const { content } = await sendFile(effectiveDate);
    const parsed = checkNachaFile(content!);
    const byClass = new Map(parsed.batches.map((b) => [b.entryClassCode, b]));
    expect(byClass.get("PPD")).toMatchObject({ serviceClassCode: 220 });
    expect(byClass.get("CCD")).toMatchObject({ serviceClassCode: 220 });
    const ppd = byClass.get("PPD")!.entries.find((e) => e.amount === 2_475_000);
    expect(ppd).toMatchObject({ transactionCode: "22", amount: 2_475_000 });
    expect(byClass.get("CCD")!.entries.find((e) => e.amount === 990_000)).toMatchObject({ transactionCode: "22" });
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "sent" });
    // Sent: the borrower sees it on the loan page and the dashboard.
    const sentOn = { kind: "sent", sentOn: effectiveDate, last4: "6789" };
    expect((await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!.funding).toEqual(sentOn);
    const dashboard = await getDashboard(loan.owner.id, "Dana", db());
    expect(dashboard.approvedLoans.find((l) => l.id === loan.loanId)!.funding).toEqual(sentOn);

    // Not before the file's effective date, not in the future.
    expect((await refusal(settleFunding(loan.loanId, addDays(effectiveDate, -1), as(ada), db(), today))).status).toBe(400);
    expect((await refusal(settleFunding(loan.loanId, addDays(today, 1), as(ada), db(), today))).status).toBe(400);
    const settledOn = addDays(today, -3);
    await settleFunding(loan.loanId, settledOn, as(ada), db(), today);
    const row = await loanRow(loan.loanId);
    expect(row).toMatchObject({ status: "active", fundedOn: settledOn });
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "settled", settledOn });
    // Interest from the settlement day, not from the start date.
    const ledger = (await loadLedger(loan.loanId, db(), today))!;
    const quote = payoffQuote(ledger.terms, ledger.payments, ledger.fees, today);
    expect(settledOn > row.startDate).toBe(true);
    expect(quote.interestCents).toBe(simpleInterestCents(2_500_000, 9500, daysBetween(settledOn, today)));
    expect(quote.interestCents).toBeLessThan(simpleInterestCents(2_500_000, 9500, daysBetween(row.startDate, today)));
    // The e-mail: the date and the last four digits, never the number.
    const [mail] = await mailTo(loan.owner.email, "loan-funds-sent");
    expect(mail!.textBody).toContain("Funds sent on");
    expect(mail!.textBody).toContain("to account ••••6789");
    expect(mail!.textBody + (mail!.htmlBody ?? "")).not.toContain(ACCOUNT);
    const [event] = await db().select().from(applicationEvents).where(and(eq(applicationEvents.applicationId, loan.applicationId), eq(applicationEvents.kind, "loan_funded")));
    expect(event).toBeDefined();
    // Still "Funds sent on …" once settled.
    expect((await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!.funding).toEqual(sentOn);
    expect((await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!.payable).toBe(true);
    // Settled once only.
    expect((await refusal(settleFunding(loan.loanId, settledOn, as(ada), db(), today))).status).toBe(409);
  });

  it("a returned credit puts the loan back to Awaiting Funding with the reason; after another validated account it is funded again", async () => {
    const loan = await readyLoan();
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    const effectiveDate = addDays(today, -5);
    await sendFile(effectiveDate);
    await returnFunding(loan.loanId, { returnCode: "R03", returnedOn: addDays(today, -3) }, as(ada), db(), today);
    expect((await loanRow(loan.loanId)).status).toBe("awaiting_funding");
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "returned", returnCode: "R03" });
    const page = (await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!;
    expect(page.funding).toMatchObject({ kind: "returned", message: "Your bank returned the loan funds (R03 No Account/Unable to Locate Account). Add another account below so we can send them again." });
    expect(page.accountChangeable).toBe(true);
    expect(page.payable).toBe(false);
    expect(await mailTo(loan.owner.email, "loan-funds-returned")).toHaveLength(1);
    // The account that returned it is no longer validated: Fund Loan waits for another.
    const checklist = await checklistOf(loan.loanId);
    expect(checklist.items[4]!.met).toBe(false);
    // The borrower adds another account (Change Payment Account, allowed while awaiting funding); it is validated; Fund Loan sends to it.
    const changed = await changePaymentAccount(
      loan.loanId,
      { intent: "change-account", accountHolderName: "Dana Whitfield", bankName: "Second Bank", bankAccountType: "savings", accountNumber: "55554444", routingNumber: ROUTING } as never,
      as(loan.owner),
      db(),
    );
    await validate(changed.bankAccountId);
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    const [again] = await fundingsOf(loan.loanId);
    expect(again).toMatchObject({ status: "released", bankAccountId: changed.bankAccountId });
    expect((await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!.funding).toEqual({ kind: "awaiting" });
  });

  it("the borrower changing the account before the credit is in a file cancels it: the proceeds wait for the new account's validation", async () => {
    const loan = await readyLoan();
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    const changed = await changePaymentAccount(
      loan.loanId,
      { intent: "change-account", accountHolderName: "Dana Whitfield", bankName: "Third Bank", bankAccountType: "checking", accountNumber: "77776666", routingNumber: ROUTING } as never,
      as(loan.owner),
      db(),
    );
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "cancelled", bankAccountId: loan.bankAccountId });
    const checklist = await checklistOf(loan.loanId);
    expect(checklist.account!.bankAccountId).toBe(changed.bankAccountId);
    expect(checklist.items[4]).toMatchObject({ met: false, detail: "Checking ••••6666: Prenote Queued." });
  });

  it("Cancel Funding takes back a credit not yet in a file; one in a file cannot be", async () => {
    const loan = await readyLoan();
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    await cancelFunding(loan.loanId, as(ben), db());
    expect((await fundingsOf(loan.loanId))[0]).toMatchObject({ status: "cancelled" });
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    await sendFile(addDays(today, -2));
    expect((await refusal(cancelFunding(loan.loanId, as(ben), db()))).message).toBe("Only a funding credit not yet in an ACH file can be cancelled.");
  });

  it("Cancel Loan: refused before the funding deadline (naming the day), allowed after it; the agreement is void and the borrower told", async () => {
    const recent = await awaitingLoan({ daysAgo: 10 });
    const from = addDays(addDays(today, -10), 30);
    const early = await refusal(cancelLoan(recent.loanId, "Borrower stopped answering", as(ada), db(), today));
    expect(early).toMatchObject({ status: 409, message: `A loan can be cancelled when it is not funded within 30 days of signing (from ${from}).` });

    // Funded (a released credit, not yet in a file) 15 days after signing; cancelled 31 days after it.
    const old = await readyLoan({ daysAgo: 15 });
    await fundLoan(old.loanId, { fingerprint: await fingerprintOf(old.loanId) }, as(ada), db());
    await cancelLoan(old.loanId, "Borrower stopped answering", as(ada), db(), addDays(today, 16));
    const row = await loanRow(old.loanId);
    expect(row).toMatchObject({ status: "cancelled", cancelledBy: ada.id, cancelReason: "Borrower stopped answering" });
    expect((await fundingsOf(old.loanId))[0]).toMatchObject({ status: "cancelled" });
    expect((await loadBorrowerLoan(old.loanId, as(old.owner), db(), today))!.funding).toMatchObject({ kind: "cancelled", reason: "Borrower stopped answering" });
    const dashboard = await getDashboard(old.owner.id, "Dana", db());
    expect(dashboard.approvedLoans.find((l) => l.id === old.loanId)).toMatchObject({ status: "cancelled", funding: { kind: "cancelled" } });
    const [mail] = await mailTo(old.owner.email, "loan-cancelled");
    expect(mail!.textBody).toContain("void");
    expect((await refusal(cancelLoan(old.loanId, "Again", as(ada), db(), addDays(today, 16)))).status).toBe(409);

    // A credit already sent cannot be called back: the loan is not cancelled.
    const sent = await readyLoan({ daysAgo: 15 });
    await fundLoan(sent.loanId, { fingerprint: await fingerprintOf(sent.loanId) }, as(ada), db());
    await sendFile(today);
    expect((await refusal(cancelLoan(sent.loanId, "Too late", as(ada), db(), addDays(today, 16)))).message).toBe("The funds were already sent to the borrower: the loan cannot be cancelled.");
  });

  it("Cancel Loan withdraws its account's prenote still queued (not in a file), unless another live loan of the borrower pays from that account", async () => {
    const queuedPrenote = async (bankAccountId: string) => (await db().transaction((tx) => requestAccountValidation(tx, bankAccountId, { secCode: "PPD", direction: "credit" }))).validationId!;
    const validationsOf = (bankAccountId: string) => db().select().from(bankAccountValidations).where(eq(bankAccountValidations.bankAccountId, bankAccountId));

    const alone = await awaitingLoan({ daysAgo: 31 });
    const prenote = await queuedPrenote(alone.bankAccountId);
    await cancelLoan(alone.loanId, "Borrower withdrew", as(ada), db(), today);
    expect(await validationsOf(alone.bankAccountId)).toEqual([]);
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.cancel"), eq(auditLog.recordId, alone.loanId)));
    expect(audit!.details).toMatchObject({ prenotesWithdrawn: [prenote] });

    // The same borrower's other loan (active) pays from this account: its prenote stays queued.
    const shared = await awaitingLoan({ daysAgo: 31 });
    const sharedPrenote = await queuedPrenote(shared.bankAccountId);
    const other = await seedLoan(db(), {
      owner: shared.owner,
      admin: ada,
      storage,
      application: { firstName: "Dana", lastName: "Whitfield", email: shared.owner.email, requestedAmountCents: 1_000_000, desiredRateMilli: 9500, loanDuration: 12 },
      terms: { approvedAmountCents: 1_000_000, interestRateMilli: 9500, termMonths: 12, originationFeeMilli: 1000 },
    });
    await db().insert(loanPaymentAccounts).values({ loanId: other.loanId, bankAccountId: shared.bankAccountId, isCurrent: true });
    await cancelLoan(shared.loanId, "Borrower withdrew", as(ada), db(), today);
    expect(await validationsOf(shared.bankAccountId)).toMatchObject([{ id: sharedPrenote, status: "pending", achBatchId: null }]);

    // A prenote already validated (or in a file) is not the queue's: it stays.
    const done = await awaitingLoan({ daysAgo: 31 });
    await validate(done.bankAccountId);
    await cancelLoan(done.loanId, "Borrower withdrew", as(ada), db(), today);
    expect(await validationsOf(done.bankAccountId)).toMatchObject([{ status: "validated" }]);
  });

  it("Record Fee Collected: a reference is required; the net proceeds become the whole amount", async () => {
    const loan = await readyLoan();
    await recordFeeCollected(loan.loanId, "CHK-1001", as(ben), db());
    const checklist = await checklistOf(loan.loanId);
    expect(checklist.items[1]).toMatchObject({ met: true, who: "Ben Banker", detail: "$250.00 collected (reference CHK-1001); net proceeds $25,000.00." });
    expect(checklist.netProceedsCents).toBe(2_500_000);
    const answer = await loanPageAction(
      new Request(`https://loans.example.com/admin/loans/${loan.loanId}`, { method: "POST", body: new URLSearchParams({ intent: "record-fee-collected", reference: " " }) }),
      loan.loanId,
      as(ben),
      db(),
      today,
    );
    expect(answer.status).toBe(400);
    await fundLoan(loan.loanId, { fingerprint: await fingerprintOf(loan.loanId) }, as(ada), db());
    expect((await fundingsOf(loan.loanId))[0]!.amountCents).toBe(2_500_000);
    expect((await refusal(recordFeeCollected(loan.loanId, "CHK-1002", as(ben), db()))).status).toBe(409);
  });

  it("the page's action: Fund Loan with a stale fingerprint is a 409 toast naming the change; bad input is a 400, never a 500", async () => {
    const loan = await readyLoan();
    const post = (fields: Record<string, string>) =>
      loanPageAction(new Request(`https://loans.example.com/admin/loans/${loan.loanId}`, { method: "POST", body: new URLSearchParams(fields) }), loan.loanId, as(ada), db(), today);
    const staleState = FUNDING_CHECKLIST_KEYS.map((key) => ({ key, met: key !== "sanctions_clear" }));
    const stale = await post({ intent: "fund-loan", fingerprint: checklistFingerprint(staleState) });
    expect(stale.status).toBe(409);
    expect(stale.body.toast.description).toBe("The checklist changed since the page was loaded: Sanctions screening clear is now met.");
    expect((await post({ intent: "fund-loan", fingerprint: "nope" })).status).toBe(409);
    expect((await post({ intent: "settle-funding", settledOn: "2026-02-30" })).status).toBe(400);
    expect((await post({ intent: "return-funding", returnCode: "R99", returnedOn: today })).status).toBe(400);
    expect((await post({ intent: "cancel-loan", reason: "no" })).status).toBe(400);
    expect((await post({ intent: "accept-id-document", documentId: "x" })).status).toBe(404);
    expect((await post({ intent: "release-funds" })).status).toBe(409);
    const ok = await post({ intent: "fund-loan", fingerprint: await fingerprintOf(loan.loanId) });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, intent: "fund-loan" } });
  });

  it("the staff loans list and the loan tape call an unfunded loan Awaiting Funding, not Current", async () => {
    const loan = await awaitingLoan();
    const list = await listLoans(parseLoansUrl(new URL("https://loans.example.com/admin/loans?q=" + loan.loanId.slice(0, 8))), as(ada), db(), today);
    expect(list.loans.find((l) => l.id === loan.loanId)).toMatchObject({ statusLabel: "Awaiting Funding" });
    const tape = await exportLoanTape(as(ada), db(), today);
    expect(tape.csv.split("\n").find((line) => line.includes(loan.loanId))).toContain('"Awaiting Funding"');
  });

  it("every funding intent, and Record Validation, well formed on a loan that does not exist: 404, nothing written", async () => {
    const none = "00000000-0000-4000-8000-000000000000";
    const post = (fields: Record<string, string>) =>
      loanPageAction(new Request(`https://loans.example.com/admin/loans/${none}`, { method: "POST", body: new URLSearchParams(fields) }), none, as(ada), db(), today);
    const before = (await db().select({ id: loanFundings.id }).from(loanFundings)).length;
    for (const fields of MATRIX_FUNDING_BODIES(today)) expect((await post(fields)).status, fields.intent).toBe(404);
    expect((await db().select({ id: loanFundings.id }).from(loanFundings)).length).toBe(before);
  });

  it("nothing is paid on a loan awaiting funding: Make a Payment and Record Payment are refused (409)", async () => {
    const loan = await awaitingLoan();
    const pay = await refusal(makePayment(loan.loanId, { choice: "installment", amountCents: null, bankAccountId: loan.bankAccountId }, as(loan.owner), db(), today));
    expect(pay).toMatchObject({ status: 409, message: "This loan is not funded yet: payments start after the funds are sent." });
    const record = await refusal(recordPayment(loan.loanId, { amountCents: 10_000, receivedOn: today, method: "wire", reference: "W-1" }, as(ada), db(), today));
    expect(record).toMatchObject({ status: 409, message: "This loan is not funded yet: payments start after the funds are sent." });
    expect(await db().select().from(loanPayments).where(eq(loanPayments.loanId, loan.loanId))).toHaveLength(0);
    const page = (await loadBorrowerLoan(loan.loanId, as(loan.owner), db(), today))!;
    expect(page).toMatchObject({ loanStatus: "awaiting_funding", payable: false, funding: { kind: "awaiting" } });
  });
});
