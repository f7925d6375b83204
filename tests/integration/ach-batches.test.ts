import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditActor } from "~/server/platform/audit/audit.server";
import { loadConfig } from "~/server/platform/config.server";
import { achBatches, auditLog, loanPayments } from "~/server/platform/db/schema.server";
import { createAchBatch, downloadAchBatch, individualIdFor, loadAchPage, returnAchEntry, settleAchEntry } from "~/server/loans/ach-batches.server";
import { buildNachaFile, isValidRoutingNumber, NachaInputError, type NachaEntry } from "~/server/loans/nacha.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { loadLedger } from "~/server/loans/ledger.server";
import { activeLoan, pendingDebit, servicingAdmin } from "../helpers/servicing-loans";
import { setUpTestConfig } from "../helpers/temp-config";
import { useTestDatabase } from "../helpers/test-db";
import { appErrorOf } from "../helpers/rejection";
import { checkNachaFile, expectStoredAchFilesMatch } from "../helpers/nacha-parser";

/**
 * ACH Batch: the NACHA file checked by a reader written here from the published record layouts and by
 * an independent parser from the registry (not by the generator's code), batches by Standard Entry
 * Class, batches under concurrency, Mark Settled / Mark Returned, and audit rows without account numbers.
 */

const dataDir = setUpTestConfig("ach-batches", { APP_SECRET: "a".repeat(48), PUBLIC_URL: "https://loans.example.com" });

type ReadEntry = { transactionCode: string; routing: string; account: string; amountCents: number; individualId: string; name: string; paymentType: string; trace: string };
type ReadFile = { destination: string; destinationName: string; origin: string; modifier: string; sec: string; serviceClass: string; effective: string; entries: ReadEntry[]; totalDebit: number; blockCount: number };

/** An independent NACHA reader of a one-batch file: every rule a bank's parser checks that this file could break. */
function readNacha(text: string): ReadFile {
  expect(text.endsWith("\n")).toBe(true);
  const lines = text.replace(/\n$/, "").split(/\r?\n/);
  for (const line of lines) expect(line).toHaveLength(94);
  expect(lines.length % 10).toBe(0);
  expect(/^[\x20-\x7e]+$/.test(lines.join(""))).toBe(true);
  const [header] = lines;
  expect(header!.slice(0, 3)).toBe("101");
  expect(header![13]).not.toBe(" ");
  expect(header!.slice(34, 40)).toBe("094101");
  const types = lines.map((l) => l[0]);
  const fileControlAt = types.indexOf("9");
  // After the File Control only padding: lines of 9s.
  for (const pad of lines.slice(fileControlAt + 1)) expect(pad).toBe("9".repeat(94));
  const body = lines.slice(1, fileControlAt);
  expect(body[0]![0]).toBe("5");
  expect(body.at(-1)![0]).toBe("8");
  const batchHeader = body[0]!;
  const batchControl = body.at(-1)!;
  const entryLines = body.slice(1, -1);
  for (const e of entryLines) expect(e[0]).toBe("6");
  const odfi = batchHeader.slice(79, 87);
  const entries = entryLines.map((e, i) => {
    const routing8 = e.slice(3, 11);
    const check = e.slice(11, 12);
    // The ABA check digit, computed here.
    const digits = (routing8 + check).split("").map(Number);
    const sum = 3 * (digits[0]! + digits[3]! + digits[6]!) + 7 * (digits[1]! + digits[4]! + digits[7]!) + (digits[2]! + digits[5]! + digits[8]!);
    expect(sum % 10).toBe(0);
    const trace = e.slice(79, 94);
    expect(trace.slice(0, 8)).toBe(odfi);
    // Consecutive within the file; the first is the day's next sequence, so files of a day never repeat one.
    expect(Number(trace.slice(8))).toBe(Number(entryLines[0]!.slice(87, 94)) + i);
    expect(e[78]).toBe("0");
    return {
      transactionCode: e.slice(1, 3),
      routing: routing8 + check,
      account: e.slice(12, 29).trimEnd(),
      amountCents: Number(e.slice(29, 39)),
      individualId: e.slice(39, 54).trimEnd(),
      name: e.slice(54, 76).trimEnd(),
      paymentType: e.slice(76, 78),
      trace,
    };
  });
  const hash = entries.reduce((s, e) => s + Number(e.routing.slice(0, 8)), 0) % 1e10;
  const total = entries.reduce((s, e) => s + e.amountCents, 0);
  expect(batchControl.slice(1, 4)).toBe(batchHeader.slice(1, 4));
  expect(Number(batchControl.slice(4, 10))).toBe(entries.length);
  expect(Number(batchControl.slice(10, 20))).toBe(hash);
  expect(Number(batchControl.slice(20, 32))).toBe(total);
  expect(Number(batchControl.slice(32, 44))).toBe(0);
  expect(batchControl.slice(44, 54)).toBe(batchHeader.slice(40, 50));
  expect(batchControl.slice(79, 94)).toBe(batchHeader.slice(79, 94));
  const fileControl = lines[fileControlAt]!;
  expect(Number(fileControl.slice(1, 7))).toBe(1);
  expect(Number(fileControl.slice(7, 13))).toBe(lines.length / 10);
  expect(Number(fileControl.slice(13, 21))).toBe(entries.length);
  expect(Number(fileControl.slice(21, 31))).toBe(hash);
  expect(Number(fileControl.slice(31, 43))).toBe(total);
  expect(Number(fileControl.slice(43, 55))).toBe(0);
  return {
    destination: header!.slice(4, 13),
    destinationName: header!.slice(40, 63).trimEnd(),
    origin: header!.slice(13, 23),
    modifier: header![33]!,
    serviceClass: batchHeader.slice(1, 4),
    sec: batchHeader.slice(50, 53),
    effective: batchHeader.slice(69, 75),
    entries,
    totalDebit: total,
    blockCount: Number(fileControl.slice(7, 13)),
  };
}

const refusal = (promise: Promise<unknown>) => appErrorOf(promise, "servicing");

describe("ACH originator settings", () => {
  const base = { DATA_DIR: dataDir, APP_SECRET: "a".repeat(48), PWNED_PASSWORDS_URL: "off" };
  it("defaults to a valid test routing number; the originating DFI is its first 8 digits", () => {
    expect(loadConfig(base).ach).toEqual({
      immediateDestination: "091000019",
      immediateDestinationName: "WELLS FARGO BANK",
      immediateOrigin: "1234567890",
      companyId: "1234567890",
      companyName: "PRIVATE LOANS",
      originatingDfi: "09100001",
    });
    expect(
      loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "021000021", ACH_DESTINATION_NAME: "JPMorgan Chase Bank", ACH_COMPANY_ID: "9876543210", ACH_COMPANY_NAME: "Acme Lending" }).ach,
    ).toMatchObject({ originatingDfi: "02100002", immediateDestinationName: "JPMORGAN CHASE BANK", companyId: "9876543210", companyName: "ACME LENDING" });
  });
  it("another bank's routing number needs that bank's name; the name fits the File Header's 23 characters", () => {
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "021000021" })).toThrow(/ACH_DESTINATION_NAME: required when ACH_IMMEDIATE_DESTINATION is set/);
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "021000021", ACH_DESTINATION_NAME: "" })).toThrow(/ACH_DESTINATION_NAME/);
    expect(() => loadConfig({ ...base, ACH_DESTINATION_NAME: "A".repeat(24) })).toThrow(/ACH_DESTINATION_NAME/);
    expect(() => loadConfig({ ...base, ACH_DESTINATION_NAME: "BANK\u0000" })).toThrow(/ACH_DESTINATION_NAME/);
  });
  it("refuses a routing number with a wrong check digit, and ids of the wrong length", () => {
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "021000022" })).toThrow(/ACH_IMMEDIATE_DESTINATION/);
    // The check digit is right; 99 and 50 are no Federal Reserve routing symbols.
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "999999992" })).toThrow(/ACH_IMMEDIATE_DESTINATION.*Federal Reserve routing symbol/);
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_DESTINATION: "501200312" })).toThrow(/ACH_IMMEDIATE_DESTINATION/);
    expect(() => loadConfig({ ...base, ACH_IMMEDIATE_ORIGIN: "123" })).toThrow(/ACH_IMMEDIATE_ORIGIN/);
    expect(() => loadConfig({ ...base, ACH_ORIGINATING_DFI: "1234567" })).toThrow(/ACH_ORIGINATING_DFI/);
  });
});

describe("NACHA file builder", () => {
  const originator = { immediateDestination: "091000019", immediateDestinationName: "Wells Fargo Bank", immediateOrigin: "1234567890", companyId: "1234567890", companyName: "PRIVATE LOANS", originatingDfi: "09100001" };
  const web = { secCode: "WEB", paymentType: "S", direction: "debit" } as const;
  it("writes a valid file for 1 to 25 entries (blocking, hash, totals, check digits)", () => {
    for (const count of [1, 5, 6, 7, 16, 25]) {
      const entries = Array.from({ length: count }, (_, i) => ({
        ...web,
        routingNumber: i % 2 ? "021000021" : "011000015",
        accountNumber: `12345${i}`,
        accountType: (i % 3 ? "checking" : "savings") as "checking" | "savings",
        amountCents: 1_000 + i * 37,
        individualId: `LOAN${i}`,
        individualName: `José Núñez-O'Brien ${i}`,
      }));
      const file = buildNachaFile({ originator, entries, createdAt: new Date("2026-11-24T20:15:00Z"), effectiveDate: "2026-11-25", fileIdModifier: "A" });
      const read = readNacha(file.content);
      expect(read.entries).toHaveLength(count);
      expect(read.sec).toBe("WEB");
      expect(read.serviceClass).toBe("225");
      expect(read.destination).toBe("091000019");
      expect(read.destinationName).toBe("WELLS FARGO BANK");
      expect(read.entries.every((e) => e.paymentType === "S ")).toBe(true);
      expect(read.effective).toBe("261125");
      expect(read.entries.map((e) => e.transactionCode)).toEqual(entries.map((e) => (e.accountType === "savings" ? "37" : "27")));
      expect(read.entries[0]!.name).toBe("JOSE NUNEZ-O'BRIEN 0");
      expect(read.totalDebit).toBe(entries.reduce((s, e) => s + e.amountCents, 0));
      expect(file.blockCount).toBe(read.blockCount);
      const parsed = checkNachaFile(file.content);
      expect(parsed.file).toMatchObject({ destination: " 091000019", destinationName: "WELLS FARGO BANK" });
      expect(parsed.batches.map((b) => [b.entryClassCode, b.serviceClassCode, b.effectiveDate])).toEqual([["WEB", 225, "261125"]]);
      expect(parsed.batches[0]!.entries.map((e) => e.amount)).toEqual(entries.map((e) => e.amountCents));
    }
  });

  it("puts each Standard Entry Class in its own batch, with the service class its entries need and file totals over all", () => {
    const entry = (secCode: "WEB" | "PPD", direction: "debit" | "credit", amountCents: number, routingNumber: string, accountType: "checking" | "savings" = "checking"): NachaEntry =>
      ({ ...(secCode === "WEB" ? web : { secCode }), direction, routingNumber, accountNumber: "5550001", accountType, amountCents, individualId: `ID${amountCents}`, individualName: "Lee Park" }) as NachaEntry;
    const entries = [
      entry("WEB", "debit", 10_000, "021000021"),
      entry("PPD", "credit", 500_000, "011000015", "savings"),
      entry("WEB", "debit", 2_500, "011000015", "savings"),
      entry("PPD", "debit", 7_000, "021000021"),
    ];
    const file = buildNachaFile({ originator, entries, createdAt: new Date("2026-11-24T20:15:00Z"), effectiveDate: "2026-11-25", fileIdModifier: "C", firstTraceSequence: 41 });
    const parsed = checkNachaFile(file.content);
    expect(parsed.batches.map((b) => [b.num, b.entryClassCode, b.serviceClassCode])).toEqual([
      [1, "WEB", 225],
      [2, "PPD", 200],
    ]);
    const [webBatch, ppdBatch] = parsed.batches;
    expect(webBatch!.entries.map((e) => [e.transactionCode, e.amount, e.paymentTypeCode])).toEqual([
      ["27", 10_000, "S"],
      ["37", 2_500, "S"],
    ]);
    // PPD keeps positions 77–78 as blank Discretionary Data.
    expect(ppdBatch!.entries.map((e) => [e.transactionCode, e.amount, e.discretionaryData])).toEqual([
      ["32", 500_000, ""],
      ["27", 7_000, ""],
    ]);
    expect(parsed.file.footer).toMatchObject({ batchCount: 2, entryAndAddendaCount: 4, totalDebit: 19_500, totalCredit: 500_000, entryHash: (2 * 2_100_002 + 2 * 1_100_001) % 1e10 });
    expect(file).toMatchObject({ batchCount: 2, totalDebitCents: 19_500, totalCreditCents: 500_000 });
    // Trace numbers run on through the file in its order; each input entry gets its own back.
    expect(parsed.batches.flatMap((b) => b.entries.map((e) => e.traceNumber))).toEqual([41, 42, 43, 44].map((n) => 9_100_001 * 1e7 + n));
    expect(file.traceNumbers).toEqual(["091000010000041", "091000010000043", "091000010000042", "091000010000044"]);
    // Credits alone are service class 220.
    const credits = buildNachaFile({ originator, entries: [entries[1]!], createdAt: new Date("2026-11-24T20:15:00Z"), effectiveDate: "2026-11-25", fileIdModifier: "D" });
    expect(checkNachaFile(credits.content).batches.map((b) => [b.entryClassCode, b.serviceClassCode])).toEqual([["PPD", 220]]);
  });

  it("the entry hash keeps the last 10 digits", () => {
    const entries = Array.from({ length: 200 }, () => ({ ...web, routingNumber: "809999998", accountNumber: "1", accountType: "checking" as const, amountCents: 1, individualId: "X", individualName: "Y" }));
    expect(isValidRoutingNumber("809999998")).toBe(true);
    const file = buildNachaFile({ originator, entries, createdAt: new Date(), effectiveDate: "2026-11-25", fileIdModifier: "B" });
    expect(file.entryHash).toBe((80_999_999 * 200) % 1e10);
    readNacha(file.content);
    expect(checkNachaFile(file.content).file.footer.entryHash).toBe(file.entryHash);
  });

  it("refuses a bad routing number, a bad amount or no entries", () => {
    const base = { ...web, routingNumber: "021000021", accountNumber: "1", accountType: "checking" as const, amountCents: 100, individualId: "X", individualName: "Y" };
    const build = (e: (typeof base)[]) => () => buildNachaFile({ originator, entries: e, createdAt: new Date(), effectiveDate: "2026-11-25", fileIdModifier: "A" });
    expect(build([{ ...base, routingNumber: "021000022" }])).toThrow(NachaInputError);
    // A right check digit but no Federal Reserve routing symbol (50): no bank the debit can reach.
    expect(build([{ ...base, routingNumber: "501200312" }])).toThrow(NachaInputError);
    expect(() => buildNachaFile({ originator: { ...originator, immediateDestination: "999999992" }, entries: [base], createdAt: new Date(), effectiveDate: "2026-11-25", fileIdModifier: "A" })).toThrow(
      NachaInputError,
    );
    expect(build([{ ...base, amountCents: 0 }])).toThrow(NachaInputError);
    expect(build([{ ...base, amountCents: 10.5 }])).toThrow(NachaInputError);
    expect(build([])).toThrow(NachaInputError);
    expect(() => buildNachaFile({ originator: { ...originator, immediateDestinationName: " " }, entries: [base], createdAt: new Date(), effectiveDate: "2026-11-25", fileIdModifier: "A" })).toThrow(
      NachaInputError,
    );
  });
});

describe("ACH batches on pglite", () => {
  const database = useTestDatabase({ global: true });
  const db = () => database().db;
  let admin: AuditActor;
  let admin2: AuditActor;

  beforeAll(async () => {
    admin = await servicingAdmin(db(), "ach-admin-1");
    admin2 = await servicingAdmin(db(), "ach-admin-2");
  });
  // Every file these tests made, read by the registry's parser and compared with the database.
  afterAll(async () => {
    expect(await expectStoredAchFilesMatch(db())).toBeGreaterThan(0);
  });

  const clearPending = async () => {
    // Earlier tests' leftovers out of the way: each test batches only its own debits.
    await db().update(loanPayments).set({ status: "returned", returnCode: "R01" }).where(eq(loanPayments.status, "pending"));
  };

  it("a batch holds the decrypted numbers in a valid file; the page and the audit rows never do", async () => {
    await clearPending();
    const a = await activeLoan(db(), dataDir, admin, { routing: "021000021", account: "000123456789", accountType: "checking", holder: "Dana Whitfield" });
    const b = await activeLoan(db(), dataDir, admin, { routing: "011000015", account: "987654321", accountType: "savings", holder: "Lee Park" });
    const p1 = await pendingDebit(db(), a, 85_607);
    const p2 = await pendingDebit(db(), b, 12_345);

    const page = await loadAchPage(db());
    expect(page.pending.map((p) => p.paymentId).sort()).toEqual([p1, p2].sort());
    expect(page.pending.find((p) => p.paymentId === p1)!.accountMasked).toBe("••••6789");
    expect(JSON.stringify(page)).not.toContain("123456789");

    const result = await createAchBatch({ actor: admin, request: { ip: "198.51.100.1" } }, db(), new Date("2026-11-24T15:00:00Z"));
    expect(result).toMatchObject({ ok: true, entryCount: 2, totalCents: 97_952, skipped: [], effectiveDate: "2026-11-25" });
    if (!result.ok) throw new Error("no batch");
    const [batch] = await db().select().from(achBatches).where(eq(achBatches.id, result.batchId));
    // Stored encrypted: no account or routing number in the row (nor in a backup of it).
    expect(batch!.content).toMatch(/^enc:v\d+:/);
    for (const secret of ["000123456789", "987654321", "021000021", "011000015", "DANA WHITFIELD"]) expect(batch!.content).not.toContain(secret);
    expect(batch!.effectiveDate).toBe("2026-11-25");
    const plain = decryptField(batch!.content, ENCRYPTION_PURPOSES.achFile);
    const read = readNacha(plain);
    expect(read.entries).toEqual([
      expect.objectContaining({ transactionCode: "27", routing: "021000021", account: "000123456789", amountCents: 85_607, individualId: individualIdFor(a.loanId), name: "DANA WHITFIELD" }),
      expect.objectContaining({ transactionCode: "37", routing: "011000015", account: "987654321", amountCents: 12_345, name: "LEE PARK" }),
    ]);
    expect(read.effective).toBe("261125");
    expect(read.destination).toBe("091000019");
    expect(read.origin).toBe("1234567890");
    // Borrower-authorised one-time debits from the website: WEB, Payment Type Code S.
    expect(read.sec).toBe("WEB");
    expect(read.entries.map((e) => e.paymentType)).toEqual(["S ", "S "]);

    const claimed = await db().select({ id: loanPayments.id, batch: loanPayments.achBatchId }).from(loanPayments).where(inArray(loanPayments.id, [p1, p2]));
    expect(claimed.every((c) => c.batch === result.batchId)).toBe(true);
    expect((await loadAchPage(db())).pending).toHaveLength(0);

    const file = await downloadAchBatch(result.batchId, { actor: admin2, request: { ip: "198.51.100.2" } }, db());
    expect(file!.content).toBe(plain);
    expect(file!.fileName).toBe(batch!.fileName);
    expect(await downloadAchBatch("not-a-uuid", { actor: admin2, request: {} }, db())).toBeNull();
    expect(await downloadAchBatch("00000000-0000-4000-8000-000000000000", { actor: admin2, request: {} }, db())).toBeNull();

    // In the order written: sealing the audit chain rewrites rows, so the table's own order is not it.
    const audits = await db().select().from(auditLog).where(eq(auditLog.recordId, result.batchId)).orderBy(asc(auditLog.id));
    expect(audits.map((r) => r.action)).toEqual(["ach.export", "ach.export"]);
    expect(audits[0]!.details).toMatchObject({ event: "create", count: 2, totalCents: 97_952 });
    expect(audits[1]).toMatchObject({ actorId: admin2.id, ipAddress: "198.51.100.2" });
    const allAudit = JSON.stringify(await db().select().from(auditLog));
    for (const secret of ["000123456789", "987654321", "021000021", "011000015"]) expect(allAudit).not.toContain(secret);
  });

  it("a file made the day before Thanksgiving is effective the Friday after: the Federal Reserve is closed on the Thursday", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin);
    await pendingDebit(db(), loan, 5_000);
    expect((await loadAchPage(db(), "2026-11-25")).nextEffectiveDate).toBe("2026-11-27");
    const result = await createAchBatch({ actor: admin, request: {} }, db(), new Date("2026-11-25T15:00:00Z"));
    expect(result).toMatchObject({ ok: true, effectiveDate: "2026-11-27" });
    if (!result.ok) throw new Error("no batch");
    const [batch] = await db().select().from(achBatches).where(eq(achBatches.id, result.batchId));
    expect(readNacha(decryptField(batch!.content, ENCRYPTION_PURPOSES.achFile)).effective).toBe("261127");
  });

  it("two admins creating a batch at once put each payment in one batch", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin);
    const ids = await Promise.all([1_000, 2_000, 3_000].map((c) => pendingDebit(db(), loan, c)));
    const results = await Promise.all([createAchBatch({ actor: admin, request: {} }, db()), createAchBatch({ actor: admin2, request: {} }, db()), createAchBatch({ actor: admin, request: {} }, db())]);
    const made = results.filter((r) => r.ok);
    expect(made).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.message.includes("no pending"))).toBe(true);
    const rows = await db().select({ batch: loanPayments.achBatchId }).from(loanPayments).where(inArray(loanPayments.id, ids));
    expect(new Set(rows.map((r) => r.batch)).size).toBe(1);
    const [batch] = await db().select().from(achBatches).where(eq(achBatches.id, rows[0]!.batch!));
    expect(readNacha(decryptField(batch!.content, ENCRYPTION_PURPOSES.achFile)).entries).toHaveLength(3);
  });

  it("a debit whose bank account does not decrypt to a valid routing number stays pending", async () => {
    await clearPending();
    const bad = await activeLoan(db(), dataDir, admin, { routing: "123456789" });
    const badId = await pendingDebit(db(), bad, 5_000);
    // Stored before the routing-symbol rule: the check digit is right, but 50 is no Federal Reserve routing symbol.
    const noSymbol = await activeLoan(db(), dataDir, admin, { routing: "501200312" });
    const noSymbolId = await pendingDebit(db(), noSymbol, 6_000);
    const result = await createAchBatch({ actor: admin, request: {} }, db());
    expect(result).toMatchObject({ ok: false });
    if (result.ok) throw new Error("batched");
    expect(result.skipped.map((s) => s.paymentId).sort()).toEqual([badId, noSymbolId].sort());
    for (const s of result.skipped) expect(s.reason).toContain("routing number");
    expect((await loadAchPage(db())).pending.find((p) => p.paymentId === noSymbolId)?.skipReason).toContain("routing number");
    const rows = await db().select().from(loanPayments).where(inArray(loanPayments.id, [badId, noSymbolId]));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ status: "pending", achBatchId: null });
  });

  it("Mark Settled posts to the ledger; Mark Returned keeps it off; each once", async () => {
    await clearPending();
    const loan = await activeLoan(db(), dataDir, admin);
    const settleId = await pendingDebit(db(), loan, 50_000);
    const returnId = await pendingDebit(db(), loan, 40_000);
    const unbatched = await pendingDebit(db(), loan, 1_000).then(async (id) => id);
    // Only batched entries can be settled here: batch the two, then add the third after.
    await db().update(loanPayments).set({ status: "returned", returnCode: "R01" }).where(eq(loanPayments.id, unbatched));
    const result = await createAchBatch({ actor: admin, request: {} }, db());
    if (!result.ok) throw new Error("no batch");
    const stray = await pendingDebit(db(), loan, 2_000);
    expect((await refusal(settleAchEntry(stray, new Date().toISOString().slice(0, 10), { actor: admin, request: {} }, db()))).status).toBe(404);
    expect((await refusal(settleAchEntry("nope", "2026-11-24", { actor: admin, request: {} }, db()))).status).toBe(404);

    // Settled and returned on the file's effective date (the earliest they can be), seen from that day.
    const today = result.effectiveDate;
    const settled = await settleAchEntry(settleId, today, { actor: admin, request: {} }, db(), today);
    expect(settled.state.allocations.find((a) => a.paymentId === settleId)?.amountCents).toBe(50_000);
    expect((await refusal(settleAchEntry(settleId, today, { actor: admin, request: {} }, db(), today))).status).toBe(409);

    await returnAchEntry(returnId, "R01", today, { actor: admin, request: {} }, db(), today);
    expect((await refusal(returnAchEntry(returnId, "R02", today, { actor: admin, request: {} }, db(), today))).status).toBe(409);
    const [ret] = await db().select().from(loanPayments).where(eq(loanPayments.id, returnId));
    expect(ret).toMatchObject({ status: "returned", returnCode: "R01", returnedOn: today });

    const ledger = await loadLedger(loan.loanId, db(), today);
    expect(ledger!.payments.map((p) => p.id)).toEqual([settleId]);
    const page = await loadAchPage(db(), today);
    const shown = page.batches.find((b) => b.id === result.batchId)!;
    expect(shown.entries.map((e) => [e.paymentId, e.status])).toEqual(
      expect.arrayContaining([
        [settleId, "posted"],
        [returnId, "returned"],
      ]),
    );
  });
});
