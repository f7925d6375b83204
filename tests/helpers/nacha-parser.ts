import { createRequire } from "node:module";
import { expect } from "vitest";
import { individualIdFor } from "~/server/loans/ach-batches.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, bankAccountValidations, loanFundings, loanPayments } from "~/server/platform/db/schema.server";

/**
 * Every ACH file the suites produce is read back by an independent NACHA parser from the registry
 * (@midlandsbank/node-nacha, a dev dependency: it knows the WEB entry's Payment Type Code), never by the
 * writer's code. `checkNachaFile` parses the text and asserts what a bank's ACH operator checks on
 * receipt: each batch's control against its entries (count, entry hash, debit and credit totals), the
 * service class against the entries' transaction codes, batch numbers in sequence, WEB entries single,
 * and the File Control against the batches. It returns the parsed file for the test to compare with
 * what the database says.
 */

type ParsedEntry = {
  transactionCode: string;
  receivingDFIIdentification: number;
  checkDigit: number;
  dfiAccount: string;
  amount: number;
  identificationNumber: string;
  /** The Individual Name (positions 55–76) in PPD and WEB entries. */
  receivingCompanyName: string;
  /** WEB only: positions 77–78. */
  paymentTypeCode?: string;
  /** PPD and CCD: positions 77–78. */
  discretionaryData?: string;
  addendaIndicator: string;
  traceNumber: number;
};

type ParsedControl = { serviceClassCode: number; entryAndAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number; companyId: string; num: number };

type ParsedBatch = {
  serviceClassCode: number;
  companyName: string;
  companyId: string;
  entryClassCode: string;
  description: string;
  effectiveDate: string;
  originatingDFIIdentification: string;
  num: number;
  entries: ParsedEntry[];
  footer: ParsedControl;
};

export type ParsedNachaFile = {
  file: {
    destination: string;
    origin: string;
    idModifier: string;
    destinationName: string;
    originName: string;
    footer: { batchCount: number; blockCount: number; entryAndAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number };
  };
  batches: ParsedBatch[];
};

const nacha = createRequire(import.meta.url)("@midlandsbank/node-nacha") as { from(source: string): { data: ParsedNachaFile } };

const DEBIT_CODES = new Set(["27", "37"]);
const CREDIT_CODES = new Set(["22", "32"]);
/** Zero-dollar prenotifications: 28/38 announce a debit, 23/33 a credit (checking/savings). */
const PRENOTE_DEBIT_CODES = new Set(["28", "38"]);
const PRENOTE_CREDIT_CODES = new Set(["23", "33"]);

/** Parses the file with the registry's parser and checks its controls; returns what it read. */
export function checkNachaFile(text: string): ParsedNachaFile {
  const parsed = nacha.from(text).data;
  expect(parsed.batches.length).toBeGreaterThan(0);
  let entries = 0;
  let hash = 0;
  let debit = 0;
  let credit = 0;
  parsed.batches.forEach((batch, i) => {
    expect(batch.num, "batch numbers run 1, 2, …").toBe(i + 1);
    expect(batch.footer.num).toBe(batch.num);
    expect(batch.footer.serviceClassCode).toBe(batch.serviceClassCode);
    const debits = batch.entries.filter((e) => DEBIT_CODES.has(e.transactionCode));
    const credits = batch.entries.filter((e) => CREDIT_CODES.has(e.transactionCode));
    const prenoteDebits = batch.entries.filter((e) => PRENOTE_DEBIT_CODES.has(e.transactionCode));
    const prenoteCredits = batch.entries.filter((e) => PRENOTE_CREDIT_CODES.has(e.transactionCode));
    expect(debits.length + credits.length + prenoteDebits.length + prenoteCredits.length, "every entry a debit, a credit or a prenote of one").toBe(batch.entries.length);
    for (const e of [...prenoteDebits, ...prenoteCredits]) expect(e.amount, "a prenote's amount is zero").toBe(0);
    for (const e of [...debits, ...credits]) expect(e.amount, "a live entry moves money").toBeGreaterThan(0);
    // The service class follows what the entries move or announce: prenotes count by their direction.
    const hasDebits = debits.length + prenoteDebits.length > 0;
    const hasCredits = credits.length + prenoteCredits.length > 0;
    expect(batch.serviceClassCode).toBe(hasDebits && hasCredits ? 200 : hasCredits ? 220 : 225);
    // A WEB entry is single (S: Make a Payment) or recurring (R: autopay); a retry keeps its original's.
    if (batch.entryClassCode === "WEB") for (const e of batch.entries) expect(["S", "R"], "a WEB entry's Payment Type Code").toContain(e.paymentTypeCode);
    const batchHash = batch.entries.reduce((s, e) => s + e.receivingDFIIdentification, 0);
    const batchDebit = debits.reduce((s, e) => s + e.amount, 0);
    const batchCredit = credits.reduce((s, e) => s + e.amount, 0);
    expect(batch.footer).toMatchObject({ entryAndAddendaCount: batch.entries.length, entryHash: batchHash % 1e10, totalDebit: batchDebit, totalCredit: batchCredit, companyId: batch.companyId });
    entries += batch.entries.length;
    hash += batchHash;
    debit += batchDebit;
    credit += batchCredit;
  });
  expect(parsed.file.footer).toMatchObject({ batchCount: parsed.batches.length, entryAndAddendaCount: entries, entryHash: hash % 1e10, totalDebit: debit, totalCredit: credit });
  // One batch per Standard Entry Class and Company Entry Description (a re-presented debit reads RETRY PYMT).
  expect(new Set(parsed.batches.map((b) => `${b.entryClassCode}|${b.description.trim()}`)).size, "one batch per class and description").toBe(parsed.batches.length);
  return parsed;
}

/**
 * Every ACH file stored in `db`, parsed and checked as above, against what the database says of it:
 * the batch row's count, debit and credit totals and effective date; the payments it claimed (one WEB
 * debit each, of the payment's amount, for the payment's loan); the prenotes it claimed (one zero-dollar
 * entry each, in the batch of its class, with its direction's prenote code); the funding credits it
 * claimed (one PPD or CCD credit each, of the funding's amount). For a test file's afterAll, so no file
 * a test made goes unread.
 */
export async function expectStoredAchFilesMatch(db: DbOrTx): Promise<number> {
  const batches = await db.select().from(achBatches);
  const payments = await db
    .select({ batchId: loanPayments.achBatchId, amountCents: loanPayments.amountCents, loanId: loanPayments.loanId, paymentType: loanPayments.paymentType, retryOf: loanPayments.retryOf, trace: loanPayments.achTraceNumber })
    .from(loanPayments);
  const prenotes = await db.select({ batchId: bankAccountValidations.achBatchId, secCode: bankAccountValidations.secCode, direction: bankAccountValidations.direction }).from(bankAccountValidations);
  const fundings = await db.select({ batchId: loanFundings.achBatchId, amountCents: loanFundings.amountCents, loanId: loanFundings.loanId, secCode: loanFundings.secCode }).from(loanFundings);
  for (const batch of batches) {
    const parsed = checkNachaFile(decryptField(batch.content, ENCRYPTION_PURPOSES.achFile));
    const claimed = payments.filter((p) => p.batchId === batch.id);
    const claimedPrenotes = prenotes.filter((p) => p.batchId === batch.id);
    const claimedCredits = fundings.filter((f) => f.batchId === batch.id);
    for (const b of parsed.batches) {
      expect(["WEB", "PPD", "CCD"]).toContain(b.entryClassCode);
      expect(b.effectiveDate).toBe(batch.effectiveDate.slice(2).replace(/-/g, ""));
    }
    expect(parsed.file.footer).toMatchObject({ entryAndAddendaCount: batch.entryCount, totalDebit: batch.totalCents, totalCredit: batch.creditTotalCents });
    expect(batch.entryCount).toBe(claimed.length + claimedPrenotes.length + claimedCredits.length);
    const entriesOf = (sec: string) => parsed.batches.filter((b) => b.entryClassCode === sec).flatMap((b) => b.entries);
    const key = (amount: number, id: string) => `${amount}:${id}`;
    // Borrower-authorised debits: live WEB debits, single or recurring as the payment says; a retry in
    // the RETRY PYMT batch; each under the trace number stored on its row (when one was stored).
    const webDebit = (description: (d: string) => boolean) =>
      parsed.batches
        .filter((b) => b.entryClassCode === "WEB" && description(b.description.trim()))
        .flatMap((b) => b.entries)
        .filter((e) => DEBIT_CODES.has(e.transactionCode))
        .map((e) => `${key(e.amount, e.identificationNumber)}:${e.paymentTypeCode}`)
        .sort();
    const claimedKey = (p: (typeof claimed)[number]) => `${key(p.amountCents, individualIdFor(p.loanId))}:${p.paymentType ?? "S"}`;
    expect(webDebit((d) => d !== "RETRY PYMT")).toEqual(claimed.filter((p) => p.retryOf === null).map(claimedKey).sort());
    expect(webDebit((d) => d === "RETRY PYMT")).toEqual(claimed.filter((p) => p.retryOf !== null).map(claimedKey).sort());
    const traces = new Set(parsed.batches.flatMap((b) => b.entries.map((e) => String(e.traceNumber).padStart(15, "0"))));
    for (const p of claimed) if (p.trace !== null) expect(traces.has(p.trace), `trace ${p.trace} in the file`).toBe(true);
    for (const sec of ["WEB", "PPD", "CCD"] as const) {
      const inFile = entriesOf(sec).filter((e) => PRENOTE_DEBIT_CODES.has(e.transactionCode) || PRENOTE_CREDIT_CODES.has(e.transactionCode));
      const rows = claimedPrenotes.filter((p) => p.secCode === sec);
      expect(inFile.map((e) => (PRENOTE_DEBIT_CODES.has(e.transactionCode) ? "debit" : "credit")).sort(), `${sec} prenotes`).toEqual(rows.map((r) => r.direction).sort());
    }
    for (const sec of ["PPD", "CCD"] as const) {
      const inFile = entriesOf(sec).filter((e) => CREDIT_CODES.has(e.transactionCode));
      const rows = claimedCredits.filter((f) => f.secCode === sec);
      expect(inFile.map((e) => key(e.amount, e.identificationNumber)).sort(), `${sec} credits`).toEqual(rows.map((f) => key(f.amountCents, individualIdFor(f.loanId))).sort());
    }
  }
  return batches.length;
}
