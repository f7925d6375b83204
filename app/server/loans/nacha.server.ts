/**
 * NACHA (ACH) files (docs/decisions/0033-nacha-ach-files.md, 0088-ach-entry-classes-and-banking-days.md):
 * the published fixed-width format, written here because the npm packages for it are small and barely
 * maintained. A file is 94-character records, blocked in tens:
 *   1 File Header · per Standard Entry Class one batch: 5 Batch Header, 6 Entry Detail per entry,
 *   8 Batch Control · 9 File Control · lines of 9s up to a multiple of ten records.
 * A batch's service class says what its entries move: 225 debits only, 220 credits only, 200 both.
 * Transaction codes: 22/27 checking credit/debit, 32/37 savings credit/debit. A WEB entry (a debit the
 * consumer authorised on the website) carries its Payment Type Code in positions 77–78, where other
 * classes have Discretionary Data.
 * Pure: no database, no clock (the caller passes the creation time), no secrets kept. The entries hold
 * decrypted account numbers, so the file is built on the server and only ever leaves it as the
 * audited staff download.
 */

import anyAscii from "any-ascii";
import { isValidRoutingNumber } from "~/domain/routing-number";

/** The routing number rule (Federal Reserve routing symbol and check digit) is the domain's one rule. */
export { isValidRoutingNumber };

export const NACHA_RECORD_LENGTH = 94;
export const NACHA_BLOCKING_FACTOR = 10;

export type NachaOriginator = {
  /** The lender's bank: 9-digit routing number. */
  immediateDestination: string;
  /** The lender's bank's name, up to 23 characters (File Header positions 41–63). */
  immediateDestinationName: string;
  /** 10 characters (the company id the bank assigned, often "1" + tax id). */
  immediateOrigin: string;
  companyId: string;
  /** Up to 16 characters, shown on the borrower's statement. */
  companyName: string;
  /** 8 digits: the lender bank's routing number without its check digit. */
  originatingDfi: string;
};

type NachaEntryFields = {
  /** Money out of the receiver's account (debit) or into it (credit). */
  direction: "debit" | "credit";
  /** 9-digit ABA routing number of the receiver's bank. */
  routingNumber: string;
  /** Up to 17 characters. */
  accountNumber: string;
  accountType: "checking" | "savings";
  amountCents: number;
  /** Up to 15 characters identifying the borrower or loan to the lender. */
  individualId: string;
  /** Up to 22 characters: the account holder. */
  individualName: string;
  /**
   * A zero-dollar prenotification: tells the receiver's bank an entry of this direction will follow, so
   * a bad account comes back before money moves. Its amount must be 0 and it carries a prenote code.
   */
  prenote?: boolean;
  /**
   * This entry's Company Entry Description when it differs from the file's (a reinitiated debit must
   * read "RETRY PYMT"): entries of one class with different descriptions go in separate batches.
   */
  entryDescription?: string;
};

/**
 * An entry and its Standard Entry Class: WEB for a consumer's debit authorised over the internet, with
 * its Payment Type Code (S: a single entry, authorised for this one payment; R: recurring); PPD for a
 * consumer's entry authorised otherwise (in writing: the loan's proceeds); CCD for a business's account.
 * Positions 77–78 stay blank outside WEB.
 */
export type NachaEntry = NachaEntryFields & ({ secCode: "WEB"; paymentType: "S" | "R" } | { secCode: "PPD" } | { secCode: "CCD" });

export type NachaFileInput = {
  originator: NachaOriginator;
  entries: NachaEntry[];
  /** The file's creation time (UTC fields are used). */
  createdAt: Date;
  /** YYYY-MM-DD: the banking day the entries should settle. */
  effectiveDate: string;
  /** A–Z or 0–9: tells files created on the same day apart. */
  fileIdModifier: string;
  /** Up to 10 characters; by default "LOAN PMT" for WEB debits and "LOAN FUNDS" for the PPD/CCD proceeds. */
  entryDescription?: string;
  /**
   * The first entry's trace sequence (1–9,999,999; default 1). Trace numbers must be unique per
   * originator and day across files, so the caller reserves a range for the day (ach_trace_sequences).
   */
  firstTraceSequence?: number;
};

export type NachaFile = {
  content: string;
  batchCount: number;
  entryCount: number;
  totalDebitCents: number;
  totalCreditCents: number;
  entryHash: number;
  blockCount: number;
  /** Each input entry's trace number, in the order the entries were given. */
  traceNumbers: string[];
};

export class NachaInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NachaInputError";
  }
}

/**
 * Upper-case, the characters NACHA allows in alphanumeric fields (printable ASCII). Other scripts are
 * transliterated (any-ascii: "Мария" → "MARIYA", "王小明" → "WANGXIAOMING"), so a name never becomes a
 * blank field; symbols are dropped, and what still has no letter or digit is refused (nachaName).
 */
function alpha(value: string): string {
  // Only letters, marks, digits and the allowed punctuation are transliterated: any-ascii spells
  // symbols out (an emoji becomes ":slight_smile:"), which has no place in a name.
  return anyAscii(value.normalize("NFC").replace(/[^\p{L}\p{M}\p{N}\s&.,'/()-]/gu, " "))
    .toUpperCase()
    .replace(/[^A-Z0-9 &.,'/()-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The Individual Name as the file will carry it (22 characters); empty when nothing readable is left. */
export function nachaName(value: string): string {
  const name = alpha(value).slice(0, 22).trim();
  return /[A-Z0-9]/.test(name) ? name : "";
}

/** Left-justified, space-filled, cut to `width`. */
function left(value: string, width: number): string {
  return value.slice(0, width).padEnd(width, " ");
}

/** Right-justified, zero-filled; refuses a number that does not fit. */
function num(value: number | string, width: number): string {
  const text = String(value);
  if (!/^\d+$/.test(text) || text.length > width) throw new NachaInputError(`A numeric field does not fit in ${width} digits.`);
  return text.padStart(width, "0");
}

function yymmdd(date: string): string {
  return date.slice(2, 4) + date.slice(5, 7) + date.slice(8, 10);
}

function record(...fields: string[]): string {
  const line = fields.join("");
  if (line.length !== NACHA_RECORD_LENGTH) throw new Error(`NACHA record of ${line.length} characters (must be 94): ${line.slice(0, 1)}`);
  return line;
}

function checkOriginator(o: NachaOriginator): void {
  if (!isValidRoutingNumber(o.immediateDestination)) throw new NachaInputError("The immediate destination must be a valid 9-digit routing number.");
  if (!alpha(o.immediateDestinationName)) throw new NachaInputError("The immediate destination name (the lender's bank) must be filled.");
  if (!/^\d{8}$/.test(o.originatingDfi)) throw new NachaInputError("The originating DFI id must be 8 digits.");
  if (o.immediateOrigin.length !== 10) throw new NachaInputError("The immediate origin must be 10 characters.");
  if (o.companyId.length !== 10) throw new NachaInputError("The company id must be 10 characters.");
}

function checkEntry(e: NachaEntry, index: number): void {
  const which = `Entry ${index + 1}`;
  if (!isValidRoutingNumber(e.routingNumber)) throw new NachaInputError(`${which}: the routing number is not a valid 9-digit ABA number.`);
  if (!/^[0-9A-Za-z-]{1,17}$/.test(e.accountNumber)) throw new NachaInputError(`${which}: the account number must be 1 to 17 letters or digits.`);
  if (e.prenote) {
    if (e.amountCents !== 0) throw new NachaInputError(`${which}: a prenote's amount must be zero.`);
  } else if (!Number.isSafeInteger(e.amountCents) || e.amountCents <= 0 || e.amountCents > 99_999_999_99) throw new NachaInputError(`${which}: the amount must be whole cents from 0.01 to 99,999,999.99.`);
  if (!nachaName(e.individualName)) throw new NachaInputError(`${which}: the individual name has no letter or digit the file can carry.`);
}

/** Transaction code by direction and account type: live entries, and zero-dollar prenotes (23/28, 33/38). */
const TRANSACTION_CODES = {
  checking: { credit: "22", debit: "27" },
  savings: { credit: "32", debit: "37" },
} as const;
const PRENOTE_CODES = {
  checking: { credit: "23", debit: "28" },
  savings: { credit: "33", debit: "38" },
} as const;

export function transactionCodeOf(e: Pick<NachaEntry, "accountType" | "direction" | "prenote">): string {
  return (e.prenote ? PRENOTE_CODES : TRANSACTION_CODES)[e.accountType][e.direction];
}

/** Service class code of a batch: 225 debits only, 220 credits only, 200 both. */
function serviceClassOf(entries: readonly NachaEntry[]): "200" | "220" | "225" {
  const debits = entries.some((e) => e.direction === "debit");
  const credits = entries.some((e) => e.direction === "credit");
  return debits && credits ? "200" : credits ? "220" : "225";
}

/** Positions 77–78 of an Entry Detail: WEB's Payment Type Code, blank Discretionary Data otherwise. */
function discretionaryField(e: NachaEntry): string {
  return left(e.secCode === "WEB" ? e.paymentType : "", 2);
}

/**
 * Builds the file: one batch per Standard Entry Class, in the order the classes first appear among the
 * entries, numbered from 1; trace sequences run on through the file in its order. Throws NachaInputError
 * on an entry that cannot be sent.
 */
export function buildNachaFile(input: NachaFileInput): NachaFile {
  const { originator: o, entries } = input;
  checkOriginator(o);
  if (entries.length === 0) throw new NachaInputError("A NACHA file needs at least one entry.");
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier)) throw new NachaInputError("The file id modifier must be one letter A–Z or digit.");
  entries.forEach(checkEntry);
  const firstTrace = input.firstTraceSequence ?? 1;
  if (!Number.isSafeInteger(firstTrace) || firstTrace < 1 || firstTrace + entries.length - 1 > 9_999_999) throw new NachaInputError("The trace sequence must stay between 1 and 9,999,999.");

  const created = input.createdAt.toISOString();
  const creationDate = yymmdd(created.slice(0, 10));
  const creationTime = created.slice(11, 13) + created.slice(14, 16);
  const companyName = left(alpha(o.companyName), 16);
  const companyId = left(o.companyId, 10);

  const lines: string[] = [];
  lines.push(
    record(
      "1",
      "01",
      " " + o.immediateDestination,
      left(o.immediateOrigin, 10),
      creationDate,
      creationTime,
      input.fileIdModifier,
      "094",
      "10",
      "1",
      left(alpha(o.immediateDestinationName), 23),
      left(alpha(o.companyName), 23),
      left("", 8),
    ),
  );

  // One batch per Standard Entry Class and Company Entry Description, in the order they first appear.
  const descriptionOf = (e: NachaEntry) => e.entryDescription ?? input.entryDescription ?? (e.secCode === "WEB" ? "LOAN PMT" : "LOAN FUNDS");
  const batchKey = (e: NachaEntry) => `${e.secCode}|${descriptionOf(e)}`;
  const classes = [...new Set(entries.map(batchKey))];
  const traceNumbers: string[] = new Array<string>(entries.length);
  let nextTrace = firstTrace;
  let fileHash = 0;
  let fileDebit = 0;
  let fileCredit = 0;
  classes.forEach((key, batchIndex) => {
    const batch = entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => batchKey(entry) === key);
    const secCode = batch[0]!.entry.secCode;
    const serviceClass = serviceClassOf(batch.map((b) => b.entry));
    const batchNumber = num(batchIndex + 1, 7);
    lines.push(
      record(
        "5",
        serviceClass,
        companyName,
        left("", 20),
        companyId,
        secCode,
        left(alpha(descriptionOf(batch[0]!.entry)), 10),
        left("", 6),
        yymmdd(input.effectiveDate),
        "   ",
        "1",
        o.originatingDfi,
        batchNumber,
      ),
    );
    let hash = 0;
    let debit = 0;
    let credit = 0;
    for (const { entry: e, index } of batch) {
      const trace = o.originatingDfi + num(nextTrace++, 7);
      traceNumbers[index] = trace;
      hash += Number(e.routingNumber.slice(0, 8));
      if (e.direction === "debit") debit += e.amountCents;
      else credit += e.amountCents;
      lines.push(
        record(
          "6",
          transactionCodeOf(e),
          e.routingNumber.slice(0, 8),
          e.routingNumber.slice(8, 9),
          left(e.accountNumber.toUpperCase(), 17),
          num(e.amountCents, 10),
          left(alpha(e.individualId), 15),
          left(nachaName(e.individualName), 22),
          discretionaryField(e),
          "0",
          trace,
        ),
      );
    }
    lines.push(
      record(
        "8",
        serviceClass,
        num(batch.length, 6),
        num(hash % 10_000_000_000, 10),
        num(debit, 12),
        num(credit, 12),
        companyId,
        left("", 19),
        left("", 6),
        o.originatingDfi,
        batchNumber,
      ),
    );
    fileHash += hash;
    fileDebit += debit;
    fileCredit += credit;
  });

  // The File Control's hash is the sum of the batches' hashes, again cut to its last 10 digits.
  const entryHash = fileHash % 10_000_000_000;
  const recordCount = lines.length + 1;
  const blockCount = Math.ceil(recordCount / NACHA_BLOCKING_FACTOR);
  lines.push(record("9", num(classes.length, 6), num(blockCount, 6), num(entries.length, 8), num(entryHash, 10), num(fileDebit, 12), num(fileCredit, 12), left("", 39)));
  while (lines.length % NACHA_BLOCKING_FACTOR !== 0) lines.push("9".repeat(NACHA_RECORD_LENGTH));

  return {
    content: lines.join("\n") + "\n",
    batchCount: classes.length,
    entryCount: entries.length,
    totalDebitCents: fileDebit,
    totalCreditCents: fileCredit,
    entryHash,
    blockCount,
    traceNumbers,
  };
}
