import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { achBatches, achReturnImports, approvedLoans, auditLog, bankAccountValidations, loanFlags, loanFundings, loanPayments } from "~/server/platform/db/schema.server";
import { openLoanFlags, resolveLoanFlag, returnRates } from "~/server/loans/ach-returns-panel.server";
import type { AppError } from "~/server/platform/http/app-error.server";
import { createAchBatch } from "~/server/loans/ach-batches.server";
import { AchReturnFileRefused, importAchReturns } from "~/server/loans/ach-return-import.server";
import { achReturnsCommand } from "~/server/loans/ach-returns-command.server";
import { activeLoan, pendingDebit, servicingAdmin } from "../helpers/servicing-loans";
import { achReturnFile, storedAchFiles, type ReturnFileEntry } from "../helpers/ach-return-file";
import { setUpTestConfig } from "../helpers/temp-config";
import { testTargets, useTestDatabase } from "../helpers/test-db";
import { rejectionAs, rejectionOf } from "../helpers/rejection";
import { restrictAccount } from "~/server/loans/account-restrictions.server";
import { loadStaffLoan } from "~/server/loans/staff-loans.server";

/**
 * Import Return File: the bank's NACHA return entries (addenda 99) matched to the entries we sent by
 * original trace, amount and account; each debit returned (returnPayment), each prenote and funding
 * credit too; any bad line refuses the whole file with its line number and changes nothing; a file is
 * imported once. On PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */

const dataDir = setUpTestConfig("ach-return-import", { APP_SECRET: "r".repeat(48), PUBLIC_URL: "https://loans.example.com" });
const info = { ip: "203.0.113.61", userAgent: "return import test" };
const signedAt = new Date("2026-11-02T15:00:00Z");
// Files made on Tuesday 2026-11-17 take effect on Wednesday 2026-11-18.
const madeAt = new Date("2026-11-17T20:00:00Z");
const effective = "2026-11-18";

describe.each(testTargets)("ACH return file import on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  let admin: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), `ret-admin-${target}`);
  });
  afterAll(() => undefined);

  const caller = () => ({ actor: admin, request: info });
  /** Each test batches only its own entries: earlier tests' pending debits are put aside. */
  const clearPending = async () => {
    await db().update(loanPayments).set({ status: "returned", returnCode: "R01" }).where(eq(loanPayments.status, "pending"));
  };
  /** A pending debit of a new loan, sent in a file effective `effective`: its id and trace number. */
  const sentDebits = async (specs: { amountCents: number; account: string }[]) => {
    await clearPending();
    const made = [];
    for (const { amountCents, account } of specs) {
      const loan = await activeLoan(db(), dataDir, admin, { signedAt, account });
      made.push({ loan, paymentId: await pendingDebit(db(), loan, amountCents) });
    }
    const batch = await createAchBatch(caller(), db(), madeAt);
    expect(batch).toMatchObject({ ok: true, effectiveDate: effective });
    const out = [];
    for (const m of made) {
      const [row] = await db().select({ trace: loanPayments.achTraceNumber }).from(loanPayments).where(eq(loanPayments.id, m.paymentId));
      out.push({ ...m, trace: row!.trace! });
    }
    return out;
  };
  const sentDebit = async (amountCents = 12_345, account = "000123456789") => (await sentDebits([{ amountCents, account }]))[0]!;
  const returnFile = async (entries: ReturnFileEntry[], effectiveDate = effective) => achReturnFile({ files: await storedAchFiles(db()), entries, effectiveDate });
  const statusOf = async (paymentId: string) => (await db().select({ status: loanPayments.status, code: loanPayments.returnCode }).from(loanPayments).where(eq(loanPayments.id, paymentId)))[0]!;
  const counts = async () => {
    const [imports] = await db().select({ n: sql<number>`count(*)::int` }).from(achReturnImports);
    const [audits] = await db().select({ n: sql<number>`count(*)::int` }).from(auditLog);
    return { imports: Number(imports!.n), audits: Number(audits!.n) };
  };
  const refusedLines = async (text: string, today = effective) => (await rejectionAs(importAchReturns(text, "returns.ach", caller(), db(), today), AchReturnFileRefused)).lines;

  it("an R01 for a sent debit returns it; the import and its audit row are recorded; the same file again is refused", async () => {
    const { paymentId, trace } = await sentDebit();
    const text = await returnFile([{ traceNumber: trace, returnCode: "R01" }]);
    const result = await importAchReturns(text, "returns-1.ach", caller(), db(), effective);
    expect(result).toMatchObject({ entryCount: 1, debits: 1, prenotes: 0, credits: 0 });
    expect(await statusOf(paymentId)).toEqual({ status: "returned", code: "R01" });
    const [imported] = await db().select().from(achReturnImports).where(eq(achReturnImports.id, result.importId));
    expect(imported).toMatchObject({ fileName: "returns-1.ach", entryCount: 1, importedBy: admin.id });
    const [audit] = await db().select().from(auditLog).where(and(eq(auditLog.action, "ach.return_import"), eq(auditLog.recordId, result.importId)));
    expect(audit!.details).toEqual({ entryCount: 1, debits: 1, prenotes: 0, credits: 0, system: false });
    expect(JSON.stringify(audit!.details)).not.toContain(trace);

    const before = await counts();
    expect(await refusedLines(text)).toEqual([{ line: 0, reason: "This return file was already imported (the same file, byte for byte). Nothing was changed." }]);
    expect(await counts()).toEqual(before);
  });

  it("the return date is the batch's effective date, or today when that is later (never in the future)", async () => {
    const { paymentId, trace } = await sentDebit(5_000);
    await importAchReturns(await returnFile([{ traceNumber: trace, returnCode: "R09" }], "2026-11-20"), "r.ach", caller(), db(), "2026-11-19");
    const [row] = await db().select({ returnedOn: loanPayments.returnedOn }).from(loanPayments).where(eq(loanPayments.id, paymentId));
    expect(row!.returnedOn).toBe("2026-11-19");
  });

  it("a returned prenote fails its validation; a returned funding credit is returned", async () => {
    await clearPending();
    // A debit from an account never validated: the batch queues its prenote into the same file.
    const unvalidated = await activeLoan(db(), dataDir, admin, { signedAt, validated: false, account: "44443333" });
    await pendingDebit(db(), unvalidated, 1_000);
    // A loan awaiting its proceeds, with a released credit.
    const awaiting = await activeLoan(db(), dataDir, admin, { signedAt, account: "22221111" });
    await db().update(approvedLoans).set({ status: "awaiting_funding", fundedOn: null }).where(eq(approvedLoans.id, awaiting.loanId));
    const [funding] = await db()
      .insert(loanFundings)
      .values({ loanId: awaiting.loanId, bankAccountId: awaiting.bankAccountId, amountCents: 990_000, secCode: "PPD", status: "released", checklist: {}, releasedBy: admin.id, releasedAt: new Date() })
      .returning({ id: loanFundings.id });
    const batch = await createAchBatch(caller(), db(), madeAt);
    expect(batch).toMatchObject({ ok: true, counts: { prenote: 1, credit: 1 } });
    const [prenote] = await db().select().from(bankAccountValidations).where(eq(bankAccountValidations.bankAccountId, unvalidated.bankAccountId));
    const [credit] = await db().select().from(loanFundings).where(eq(loanFundings.id, funding!.id));
    const text = await returnFile([
      { traceNumber: prenote!.achTraceNumber!, returnCode: "R03" },
      { traceNumber: credit!.achTraceNumber!, returnCode: "R02" },
    ]);
    expect(await importAchReturns(text, "r2.ach", caller(), db(), effective)).toMatchObject({ entryCount: 2, debits: 0, prenotes: 1, credits: 1 });
    expect((await db().select().from(bankAccountValidations).where(eq(bankAccountValidations.id, prenote!.id)))[0]).toMatchObject({ status: "failed", returnCode: "R03", returnedOn: effective });
    expect((await db().select().from(loanFundings).where(eq(loanFundings.id, funding!.id)))[0]).toMatchObject({ status: "returned", returnCode: "R02", returnedOn: effective });
  });

  it("each kind of bad line is refused with its line number, and nothing changes", async () => {
    const [good, other] = (await sentDebits([
      { amountCents: 7_777, account: "000111222333" },
      { amountCents: 8_888, account: "000999888777" },
    ])) as [Awaited<ReturnType<typeof sentDebit>>, Awaited<ReturnType<typeof sentDebit>>];
    const lines = (text: string) => text.split("\n");
    const join = (l: string[]) => l.join("\n");
    const replaceAt = (text: string, line: number, from: number, value: string) => {
      const l = lines(text);
      l[line - 1] = l[line - 1]!.slice(0, from - 1) + value + l[line - 1]!.slice(from - 1 + value.length);
      return join(l);
    };
    // Line 1 File Header, 2 Batch Header, 3/4 the first entry and its addenda, 5/6 the second.
    const base = await returnFile([
      { traceNumber: good.trace, returnCode: "R01" },
      { traceNumber: other.trace, returnCode: "R01" },
    ]);
    const before = await counts();
    const cases: [string, string, { line: number; reason: RegExp }[]][] = [
      ["short record", join(lines(base).map((l, i) => (i === 4 ? l.slice(0, 90) : l))), [{ line: 5, reason: /90 characters long/ }]],
      ["record type", replaceAt(base, 5, 1, "4"), [{ line: 5, reason: /record type "4"/ }]],
      ["addenda type", replaceAt(base, 4, 2, "05"), [{ line: 4, reason: /addenda type is "05"/ }]],
      ["code", replaceAt(base, 6, 4, "X01"), [{ line: 6, reason: /"X01" is not R followed by two digits/ }]],
      ["unhandled code", replaceAt(base, 6, 4, "R99"), [{ line: 6, reason: /R99 is not one this product handles/ }]],
      ["batch date", replaceAt(base, 2, 70, "261340"), [{ line: 2, reason: /effective entry date "261340"/ }]],
      ["date of death", replaceAt(base, 4, 22, "269999"), [{ line: 4, reason: /date of death/ }]],
      ["never sent", await returnFile([{ traceNumber: good.trace, returnCode: "R01" }, { traceNumber: other.trace, returnCode: "R01", originalTrace: "091000019999999" }]), [{ line: 5, reason: /No entry we sent has the original trace number 091000019999999/ }]],
      ["amount", await returnFile([{ traceNumber: good.trace, returnCode: "R01", amountCents: 7_778 }, { traceNumber: other.trace, returnCode: "R01" }]), [{ line: 3, reason: /amount does not match/ }]],
      ["account", await returnFile([{ traceNumber: good.trace, returnCode: "R01" }, { traceNumber: other.trace, returnCode: "R01", accountNumber: "000999888770" }]), [{ line: 5, reason: /account does not match/ }]],
      [
        "dated before the file took effect",
        await returnFile([{ traceNumber: good.trace, returnCode: "R01" }, { traceNumber: other.trace, returnCode: "R01" }], "2026-11-17"),
        [
          { line: 3, reason: /dated before the entry with trace number \d{15} took effect \(2026-11-18\)/ },
          { line: 5, reason: /dated before/ },
        ],
      ],
      ["duplicate in file", await returnFile([{ traceNumber: good.trace, returnCode: "R01" }, { traceNumber: good.trace, returnCode: "R09" }]), [{ line: 5, reason: /returned twice in this file \(first on line 3\)/ }]],
    ];
    for (const [name, text, expected] of cases) {
      const refused = await refusedLines(text);
      expect(refused.map((r) => r.line), name).toEqual(expected.map((e) => e.line));
      refused.forEach((r, i) => expect(r.reason, name).toMatch(expected[i]!.reason));
    }
    expect(await statusOf(good.paymentId)).toMatchObject({ status: "pending" });
    expect(await statusOf(other.paymentId)).toMatchObject({ status: "pending" });
    expect(await counts()).toEqual(before);

    // An entry already returned (by hand) is refused in a later file, and the other entry stays pending.
    await importAchReturns(await returnFile([{ traceNumber: other.trace, returnCode: "R01" }]), "first.ach", caller(), db(), effective);
    const after = await counts();
    const again = await refusedLines(await returnFile([{ traceNumber: good.trace, returnCode: "R01" }, { traceNumber: other.trace, returnCode: "R09" }]));
    expect(again).toEqual([{ line: 5, reason: `The entry with trace number ${other.trace} was already returned.` }]);
    expect(await statusOf(good.paymentId)).toMatchObject({ status: "pending" });
    expect(await counts()).toEqual(after);
  });

  it("refuses a file over 960 KB, over 10,000 records, or with binary bytes, with a sentence", async () => {
    expect((await refusedLines("1".repeat(960 * 1024 + 1)))[0]!.reason).toMatch(/larger than 960 KB/);
    expect((await refusedLines(`${"9".repeat(94)}\n`.repeat(10_001)))[0]!.reason).toMatch(/more than 10,000 records/);
    expect((await refusedLines("\u0000\u0001PK\u0003\u0004"))[0]!.reason).toMatch(/not a NACHA text file/);
  });

  it("the same file imported twice at once is imported once", async () => {
    const { paymentId, trace } = await sentDebit(3_333);
    const text = await returnFile([{ traceNumber: trace, returnCode: "R01" }]);
    const results = await Promise.allSettled([importAchReturns(text, "a.ach", caller(), db(), effective), importAchReturns(text, "b.ach", caller(), db(), effective)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AchReturnFileRefused);
    expect(await statusOf(paymentId)).toEqual({ status: "returned", code: "R01" });
  });

  it("npm run ach:returns imports a file as the system; a refused file prints each bad line and exits non-zero", async () => {
    const { paymentId, trace } = await sentDebit(4_444);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ach-returns-"));
    try {
      const good = path.join(dir, "good.ach");
      fs.writeFileSync(good, await returnFile([{ traceNumber: trace, returnCode: "R10" }]));
      const out: string[] = [];
      const io = { log: (l: string) => out.push(l), error: (l: string) => out.push(l) };
      expect(await achReturnsCommand([good], io, { db: db(), today: effective })).toBe(0);
      expect(out).toEqual(["Imported good.ach: 1 returned entry (1 debits, 0 prenotes, 0 funding credits)."]);
      expect(await statusOf(paymentId)).toMatchObject({ status: "returned", code: "R10" });
      const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, "ach.return_import")).orderBy(sql`${auditLog.createdAt} desc`).limit(1);
      expect(audit).toMatchObject({ actorId: null, details: { system: true, debits: 1 } });

      out.length = 0;
      expect(await achReturnsCommand([good], io, { db: db(), today: effective })).toBe(1);
      expect(out).toEqual(["Refused good.ach: This return file was already imported (the same file, byte for byte). Nothing was changed."]);

      // The script itself, as a separate process: a malformed file is refused before any database is opened.
      const bad = path.join(dir, "bad.ach");
      fs.writeFileSync(bad, fs.readFileSync(good, "utf8").replace(/\n799/, "\n705"));
      const root = path.resolve(import.meta.dirname, "../..");
      const run = await promisify(execFile)(path.join(root, "node_modules/.bin/tsx"), ["scripts/ach-returns.ts", bad], { cwd: root, timeout: 60_000 }).then(
        () => ({ code: 0, stderr: "" }),
        (e: { code?: number; stderr?: string }) => ({ code: e.code, stderr: e.stderr ?? "" }),
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Refused bad.ach: The return file was refused and nothing was changed. Correct these lines:");
      expect(run.stderr).toMatch(/line 4: The addenda type is "05"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(testTargets)("return rates and loan flags on %s", (target) => {
  const database = useTestDatabase({ target, global: true });
  const db = () => database().db;
  const today = "2026-11-30";

  it("return rates per originator over the last 60 days: exact counts, rates and the thresholds crossed", async () => {
    const admin = await servicingAdmin(db(), `rates-admin-${target}`);
    const loan = await activeLoan(db(), dataDir, admin, { signedAt });
    let n = 0;
    const batch = async (originatorId: string | null, effectiveDate: string, entries: { returnCode?: string }[]) => {
      const [b] = await db()
        .insert(achBatches)
        .values({ createdBy: admin.id, entryCount: entries.length, totalCents: entries.length * 100, fileName: `rates-${n}`, effectiveDate, content: "sealed", originatorId })
        .returning({ id: achBatches.id });
      await db()
        .insert(loanPayments)
        .values(
          entries.map((e) => ({
            loanId: loan.loanId,
            userId: loan.owner.id,
            amountCents: 100,
            status: e.returnCode ? ("returned" as const) : ("pending" as const),
            returnCode: e.returnCode ?? null,
            returnedOn: e.returnCode ? effectiveDate : null,
            method: "ach" as const,
            source: "borrower" as const,
            choice: "amount" as const,
            reference: `RATE-${n++}`,
            bankAccountId: loan.bankAccountId,
            authorizationVersion: "test-1",
            authorizedAt: new Date(),
            authorizationIp: info.ip,
            authorizationUserAgent: info.userAgent,
            achBatchId: b!.id,
          })),
        );
    };
    const of = (count: number, returnCode?: string) => Array.from({ length: count }, () => ({ returnCode }));
    // Originator 1111111111: 200 entries; 2 unauthorised (1 %: above 0.5 %), 4 administrative (2 %), 10 R01: 16 returns (8 %).
    await batch("1111111111", "2026-11-20", [...of(184), ...of(1, "R10"), ...of(1, "R29"), ...of(2, "R03"), ...of(2, "R04"), ...of(10, "R01")]);
    // No originator stored (a file from before): the configured company id. 10 entries, 1 R02 (10 %: above 3 %).
    await batch(null, "2026-10-15", [...of(9), ...of(1, "R02")]);
    // Outside the window (effective 60 days before today or earlier) and in the future: not counted.
    await batch("1111111111", "2026-10-01", of(5, "R10"));
    await batch("1111111111", "2026-12-01", of(5, "R10"));
    const panel = await returnRates(db(), today);
    expect(panel).toMatchObject({ windowDays: 60, since: "2026-10-02" });
    expect(panel.originators).toEqual([
      {
        originatorId: "1111111111",
        debitEntries: 200,
        returns: 16,
        unauthorized: { returns: 2, rate: 0.01, threshold: 0.005, above: true },
        administrative: { returns: 4, rate: 0.02, threshold: 0.03, above: false },
        overall: { returns: 16, rate: 0.08, threshold: 0.15, above: false },
      },
      {
        originatorId: "1234567890",
        debitEntries: 10,
        returns: 1,
        unauthorized: { returns: 0, rate: 0, threshold: 0.005, above: false },
        administrative: { returns: 1, rate: 0.1, threshold: 0.03, above: true },
        overall: { returns: 1, rate: 0.1, threshold: 0.15, above: false },
      },
    ]);
  });

  it("Resolve Flag by two staff at once: one resolution, one audit row; the other is told it is resolved", async () => {
    const admin = await servicingAdmin(db(), `flags-admin-${target}`);
    const other = await servicingAdmin(db(), `flags-admin2-${target}`);
    const loan = await activeLoan(db(), dataDir, admin, { signedAt });
    const [flag] = await db()
      .insert(loanFlags)
      .values({ loanId: loan.loanId, kind: "unauthorized_return", returnCode: "R10", summary: "The borrower told their bank the debit was not authorised (R10)." })
      .returning({ id: loanFlags.id });
    expect((await openLoanFlags(db(), loan.loanId)).map((f) => [f.flagId, f.borrower, f.returnCode])).toEqual([[flag!.id, "Dana Whitfield", "R10"]]);
    const results = await Promise.allSettled([
      resolveLoanFlag(flag!.id, "Called the borrower: they revoked the authorisation.", { actor: admin, request: info }, db()),
      resolveLoanFlag(flag!.id, "Checked the authorisation record.", { actor: other, request: info }, db()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = (results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason as AppError;
    expect(refused).toMatchObject({ status: 409, message: "This flag was already resolved (by someone else at the same time, or earlier)." });
    const [row] = await db().select().from(loanFlags).where(eq(loanFlags.id, flag!.id));
    expect(row!.resolvedAt).not.toBeNull();
    expect(await db().select().from(auditLog).where(and(eq(auditLog.action, "loan.flag_resolve"), eq(auditLog.recordId, flag!.id)))).toHaveLength(1);
    expect(await openLoanFlags(db(), loan.loanId)).toEqual([]);
  });

  it("the staff loan page lists the loan's open flags and its accounts' restrictions; a flag of another loan is unknown there", async () => {
    const admin = await servicingAdmin(db(), `page-admin-${target}`);
    const loan = await activeLoan(db(), dataDir, admin, { signedAt, account: "000555666777" });
    const otherLoan = await activeLoan(db(), dataDir, admin, { signedAt });
    await db().transaction((tx) => restrictAccount(tx, loan.bankAccountId, "blocked", "R07", null));
    const [flag] = await db()
      .insert(loanFlags)
      .values({ loanId: loan.loanId, kind: "unauthorized_return", returnCode: "R07", summary: "The borrower revoked the authorisation (R07)." })
      .returning({ id: loanFlags.id });
    const page = await loadStaffLoan(loan.loanId, { actor: admin, request: info }, db(), today);
    expect(page!.flags.map((f) => [f.flagId, f.returnCode])).toEqual([[flag!.id, "R07"]]);
    expect(page!.restrictions).toEqual([{ bankAccountId: loan.bankAccountId, accountMasked: "••••6777", kind: "blocked", returnCode: "R07", since: expect.any(String), clearable: true }]);
    const wrongLoan = await rejectionOf(resolveLoanFlag(flag!.id, "Checked", { actor: admin, request: info }, db(), otherLoan.loanId));
    expect(wrongLoan).toMatchObject({ status: 404 });
    await resolveLoanFlag(flag!.id, "Checked", { actor: admin, request: info }, db(), loan.loanId);
    expect((await loadStaffLoan(loan.loanId, { actor: admin, request: info }, db(), today))!.flags).toEqual([]);
  });
});
