import type { DbOrTx } from "~/server/platform/db/client.server";
import { achBatches } from "~/server/platform/db/schema.server";
import { ENCRYPTION_PURPOSES } from "~/server/platform/crypto/encryption-purposes.server";
import { decryptField } from "~/server/platform/crypto/field-encryption.server";

/**
 * A bank's return file as the bank would send it, built FROM the entries of our own ACH files (what we
 * sent is what the bank returns): one Entry Detail per returned entry with the return's transaction code
 * (a debit comes back as 26/36, a credit as 21/31), the original account and amount, and its Addenda 99
 * (return code, original trace, original receiving DFI). Written from the published record layout, not
 * with the product's reader. A field can be overridden to make a bad line (amount, account, addenda
 * type, code, trace).
 */

export type ReturnFileEntry = {
  /** The original entry's trace number (15 digits) in one of `files`. */
  traceNumber: string;
  returnCode: string;
  /** Overrides: what a wrong line says instead of the original's. */
  amountCents?: number;
  accountNumber?: string;
  addendaType?: string;
  /** The original trace written in the addenda (default traceNumber). */
  originalTrace?: string;
  dateOfDeath?: string;
};

export type ReturnFileOptions = {
  /** Our NACHA files' contents (storedAchFiles, or the test's own files). */
  files: string[];
  entries: ReturnFileEntry[];
  /** YYYY-MM-DD: the return batch's effective entry date. */
  effectiveDate: string;
  /** Line ends (default "\n"). */
  eol?: string;
};

/** Every stored ACH file of the database, decrypted. */
export async function storedAchFiles(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ content: achBatches.content }).from(achBatches);
  return rows.map((r) => decryptField(r.content, ENCRYPTION_PURPOSES.achFile));
}

const pad = (value: string, length: number) => value.slice(0, length).padEnd(length, " ");
const num = (value: number, length: number) => String(value).padStart(length, "0").slice(-length);
const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10);

/** The ABA check digit of an 8-digit routing prefix. */
function checkDigit(prefix8: string): string {
  const d = prefix8.split("").map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return String((10 - (sum % 10)) % 10);
}

const RETURN_TRANSACTION_CODE: Record<string, string> = { "27": "26", "37": "36", "28": "26", "38": "36", "22": "21", "32": "31", "23": "21", "33": "31" };

export function achReturnFile(options: ReturnFileOptions): string {
  const originals = new Map<string, string>();
  let odfi = "09100001";
  for (const file of options.files) {
    for (const line of file.split(/\r?\n/)) {
      if (line[0] === "6") originals.set(line.slice(79, 94), line);
      if (line[0] === "5") odfi = line.slice(79, 87);
    }
  }
  const lines: string[] = [];
  lines.push("1" + "01" + " " + odfi + checkDigit(odfi) + pad("1234567890", 10) + yymmdd(options.effectiveDate) + "0600" + "A" + "094" + "10" + "1" + pad("OUR BANK", 23) + pad("RETURNS", 23) + pad("", 8));
  lines.push("5" + "200" + pad("PRIVATE LOANS", 16) + pad("", 20) + pad("1234567890", 10) + "WEB" + pad("RETURN", 10) + pad("", 6) + yymmdd(options.effectiveDate) + "   " + "1" + odfi + num(1, 7));
  let hash = 0;
  let debit = 0;
  let credit = 0;
  options.entries.forEach((e, i) => {
    const original = originals.get(e.traceNumber);
    if (!original) throw new Error(`achReturnFile: no entry with trace ${e.traceNumber} in the files given`);
    const code = RETURN_TRANSACTION_CODE[original.slice(1, 3)] ?? "26";
    const amount = e.amountCents ?? Number(original.slice(29, 39));
    const account = e.accountNumber ?? original.slice(12, 29).trimEnd();
    const originalRdfi = original.slice(3, 11);
    const trace = originalRdfi + num(9000 + i, 7);
    hash += Number(odfi);
    // A returned debit credits the lender back; a returned credit debits it.
    if (code === "21" || code === "31") debit += amount;
    else credit += amount;
    lines.push("6" + code + odfi + checkDigit(odfi) + pad(account, 17) + num(amount, 10) + pad(original.slice(39, 54), 15) + pad(original.slice(54, 76), 22) + "  " + "1" + trace);
    lines.push("7" + (e.addendaType ?? "99") + pad(e.returnCode, 3) + pad(e.originalTrace ?? e.traceNumber, 15) + pad(e.dateOfDeath ?? "", 6) + originalRdfi + pad("", 44) + trace);
  });
  const count = options.entries.length * 2;
  lines.push("8" + "200" + num(count, 6) + num(hash % 1e10, 10) + num(debit, 12) + num(credit, 12) + pad("1234567890", 10) + pad("", 19) + pad("", 6) + odfi + num(1, 7));
  lines.push("9" + num(1, 6) + num(Math.ceil((lines.length + 1) / 10), 6) + num(count, 8) + num(hash % 1e10, 10) + num(debit, 12) + num(credit, 12) + pad("", 39));
  while (lines.length % 10 !== 0) lines.push("9".repeat(94));
  const eol = options.eol ?? "\n";
  return lines.join(eol) + eol;
}

/** achReturnFile from every ACH file stored in `db` (the usual case: the entries the product sent). */
export async function storedAchReturnFile(db: DbOrTx, options: Omit<ReturnFileOptions, "files">): Promise<string> {
  return achReturnFile({ ...options, files: await storedAchFiles(db) });
}
