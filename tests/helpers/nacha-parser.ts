import { createRequire } from "node:module";
import { expect } from "vitest";
import { individualIdFor } from "~/server/loans/ach-batches.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { achBatches, loanPayments } from "~/server/platform/db/schema.server";

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
    expect(debits.length + credits.length, "every entry a live debit or credit").toBe(batch.entries.length);
    expect(batch.serviceClassCode).toBe(debits.length && credits.length ? 200 : credits.length ? 220 : 225);
    if (batch.entryClassCode === "WEB") for (const e of batch.entries) expect(e.paymentTypeCode, "a WEB entry's Payment Type Code").toBe("S");
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
  expect(new Set(parsed.batches.map((b) => b.entryClassCode)).size, "one batch per Standard Entry Class").toBe(parsed.batches.length);
  return parsed;
}

/**
 * Every ACH file stored in `db`, parsed and checked as above, against what the database says of it:
 * the batch row's count, total and effective date, and the payments it claimed (one WEB debit each, of
 * the payment's amount, for the payment's loan). For a test file's afterAll, so no file a test made
 * goes unread.
 */
export async function expectStoredAchFilesMatch(db: DbOrTx): Promise<number> {
  const batches = await db.select().from(achBatches);
  const payments = await db.select({ batchId: loanPayments.achBatchId, amountCents: loanPayments.amountCents, loanId: loanPayments.loanId }).from(loanPayments);
  for (const batch of batches) {
    const parsed = checkNachaFile(decryptField(batch.content, ENCRYPTION_PURPOSES.achFile));
    const claimed = payments.filter((p) => p.batchId === batch.id);
    // Borrower-authorised one-time debits only: one WEB batch of debits.
    expect(parsed.batches.map((b) => [b.entryClassCode, b.serviceClassCode])).toEqual([["WEB", 225]]);
    const [web] = parsed.batches;
    expect(web!.effectiveDate).toBe(batch.effectiveDate.slice(2).replace(/-/g, ""));
    expect(parsed.file.footer).toMatchObject({ entryAndAddendaCount: batch.entryCount, totalDebit: batch.totalCents, totalCredit: 0 });
    const key = (amount: number, id: string) => `${amount}:${id}`;
    expect(web!.entries.map((e) => key(e.amount, e.identificationNumber)).sort()).toEqual(claimed.map((p) => key(p.amountCents, individualIdFor(p.loanId))).sort());
  }
  return batches.length;
}
