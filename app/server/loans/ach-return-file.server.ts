/**
 * The bank's ACH return file (docs/decisions/0095-ach-return-file-import.md): a NACHA file the bank
 * sends back with one Entry Detail record (6) per returned entry, each followed by its Addenda record
 * (7) of type "99" that names the return reason code and the ORIGINAL entry's trace number. Read here
 * field by field (the registry's parser knows only the "05" payment addenda). Pure: no database, no
 * clock; `readReturnFile` checks every record and answers every bad one with its line number, so the
 * import can refuse a file line by line before anything changes.
 *
 * Records (94 characters, positions 1-based):
 *   1 File Header · 5 Batch Header (effective entry date YYMMDD at 70–75) · 6 Entry Detail
 *   (transaction code 2–3, receiving DFI 4–11, check digit 12, account 13–29, amount 30–39, individual
 *   id 40–54, name 55–76, addenda indicator 79, trace 80–94) · 7 Addenda 99 (return reason 4–6,
 *   original trace 7–21, date of death 22–27, original receiving DFI 28–35, addenda information 36–79,
 *   trace 80–94) · 8 Batch Control · 9 File Control · then lines of 9s up to a block of ten.
 */

import { isRealDay } from "~/domain/dates";
import { ACH_RETURN_CODES } from "~/domain/servicing-enums";
import { NACHA_RECORD_LENGTH } from "./nacha.server";

/** Larger than any return file a small lender receives; a file over it is refused before it is read. */
export const ACH_RETURN_FILE_MAX_BYTES = 960 * 1024;
export const ACH_RETURN_FILE_MAX_RECORDS = 10_000;

export const ACH_RETURN_FILE_MESSAGES = {
  tooLarge: `The return file is larger than 960 KB: that is not a return file this lender receives. Check the file.`,
  tooManyRecords: `The return file has more than ${ACH_RETURN_FILE_MAX_RECORDS.toLocaleString("en-US")} records: that is not a return file this lender receives. Check the file.`,
  empty: "The return file is empty.",
  notText: "The return file is not a NACHA text file (it holds characters a NACHA file never has).",
  noEntries: "The return file has no returned entries.",
} as const;

/** One bad line of a return file: its number (from 1) and why. */
export type ReturnFileLineError = { line: number; reason: string };

/** One returned entry: the Entry Detail record and its Addenda 99, with the batch's effective date. */
export type ReturnEntry = {
  /** The line of the Entry Detail record (its addenda is the next line). */
  line: number;
  transactionCode: string;
  /** The 8-digit receiving DFI of the return entry (the lender's bank). */
  receivingDfi: string;
  accountNumber: string;
  amountCents: number;
  individualId: string;
  returnCode: string;
  /** The trace number of the entry we sent. */
  originalTrace: string;
  /** The 8-digit routing number (without check digit) the original entry went to. */
  originalReceivingDfi: string;
  dateOfDeath: string | null;
  /** YYYY-MM-DD: the return batch's effective entry date. */
  effectiveDate: string;
};

export type ReadReturnFile = { ok: true; entries: ReturnEntry[]; recordCount: number } | { ok: false; errors: ReturnFileLineError[] };

const KNOWN_CODES: ReadonlySet<string> = new Set(ACH_RETURN_CODES.map((c) => c.code));

/** YYMMDD (a NACHA date) as YYYY-MM-DD, or null when it is not a real day. */
export function nachaDate(yymmdd: string): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const day = `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  return isRealDay(day) ? day : null;
}

const field = (record: string, from: number, to: number) => record.slice(from - 1, to);

/** The records of a file: its lines without line ends (CRLF or LF), trailing blank lines dropped. */
export function returnFileLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Reads a return file: every record's length and type in the file's order, each Entry Detail followed
 * by an Addenda 99 with a return code this product handles, an original trace of 15 digits and real
 * dates. Every bad record is listed (not only the first). Size limits are checked first.
 */
export function readReturnFile(text: string): ReadReturnFile {
  if (Buffer.byteLength(text, "utf8") > ACH_RETURN_FILE_MAX_BYTES) return { ok: false, errors: [{ line: 0, reason: ACH_RETURN_FILE_MESSAGES.tooLarge }] };
  if (/[^\x20-\x7e\r\n]/.test(text)) return { ok: false, errors: [{ line: 0, reason: ACH_RETURN_FILE_MESSAGES.notText }] };
  const lines = returnFileLines(text);
  if (lines.length === 0) return { ok: false, errors: [{ line: 0, reason: ACH_RETURN_FILE_MESSAGES.empty }] };
  if (lines.length > ACH_RETURN_FILE_MAX_RECORDS) return { ok: false, errors: [{ line: 0, reason: ACH_RETURN_FILE_MESSAGES.tooManyRecords }] };

  const errors: ReturnFileLineError[] = [];
  const bad = (line: number, reason: string) => errors.push({ line, reason });
  const entries: ReturnEntry[] = [];
  let batchDate: string | null = null;
  let inBatch = false;
  let sawHeader = false;
  let sawControl = false;
  let pending: { line: number; record: string } | null = null;
  // A record already refused: an addenda right after it is not refused again as following no entry.
  let afterBadRecord = false;

  lines.forEach((record, index) => {
    const line = index + 1;
    const wasAfterBad = afterBadRecord;
    afterBadRecord = false;
    if (record.length !== NACHA_RECORD_LENGTH) {
      bad(line, `The record is ${record.length} characters long; NACHA records are ${NACHA_RECORD_LENGTH}.`);
      pending = null;
      afterBadRecord = true;
      return;
    }
    const type = record[0]!;
    if (pending && type !== "7") {
      bad(pending.line, "The returned entry has no Addenda record (type 7) after it.");
      pending = null;
    }
    if (sawControl) {
      if (!/^9{94}$/.test(record)) bad(line, "Only lines of 9s may follow the File Control record.");
      return;
    }
    switch (type) {
      case "1":
        if (sawHeader || line !== 1) bad(line, "The File Header record (type 1) must be the first line, once.");
        sawHeader = true;
        return;
      case "5": {
        if (!sawHeader) bad(line, "A Batch Header record (type 5) before the File Header.");
        if (inBatch) bad(line, "A Batch Header record (type 5) inside a batch (the previous batch has no Batch Control).");
        inBatch = true;
        batchDate = nachaDate(field(record, 70, 75));
        if (!batchDate) bad(line, `The batch's effective entry date "${field(record, 70, 75)}" is not a date (YYMMDD).`);
        return;
      }
      case "6": {
        if (!inBatch) bad(line, "An Entry Detail record (type 6) outside a batch.");
        if (!/^\d{2}$/.test(field(record, 2, 3))) bad(line, "The transaction code is not two digits.");
        if (!/^\d{10}$/.test(field(record, 30, 39))) bad(line, "The amount is not ten digits.");
        if (field(record, 79, 79) !== "1") bad(line, "The addenda record indicator is not 1: a returned entry carries an addenda.");
        pending = { line, record };
        return;
      }
      case "7": {
        const entry = pending as { line: number; record: string } | null;
        pending = null;
        if (!entry) {
          if (!wasAfterBad) bad(line, "An Addenda record (type 7) that follows no Entry Detail record.");
          return;
        }
        const addendaType = field(record, 2, 3);
        if (addendaType !== "99") {
          bad(line, `The addenda type is "${addendaType}"; a return's addenda is type 99.`);
          return;
        }
        const code = field(record, 4, 6);
        const originalTrace = field(record, 7, 21);
        const death = field(record, 22, 27);
        const rdfi = field(record, 28, 35);
        let ok = true;
        if (!/^R\d{2}$/.test(code)) {
          bad(line, `The return reason code "${code}" is not R followed by two digits.`);
          ok = false;
        } else if (!KNOWN_CODES.has(code)) {
          bad(line, `The return reason code ${code} is not one this product handles: record this return by hand.`);
          ok = false;
        }
        if (!/^\d{15}$/.test(originalTrace)) {
          bad(line, "The original entry trace number is not 15 digits.");
          ok = false;
        }
        if (death.trim() !== "" && !nachaDate(death)) {
          bad(line, `The date of death "${death}" is not a date (YYMMDD).`);
          ok = false;
        }
        if (!/^\d{8}$/.test(rdfi)) {
          bad(line, "The original receiving DFI is not 8 digits.");
          ok = false;
        }
        const amount = field(entry.record, 30, 39);
        if (!ok || !batchDate || !/^\d{10}$/.test(amount)) return;
        entries.push({
          line: entry.line,
          transactionCode: field(entry.record, 2, 3),
          receivingDfi: field(entry.record, 4, 11),
          accountNumber: field(entry.record, 13, 29).trim(),
          amountCents: Number(amount),
          individualId: field(entry.record, 40, 54).trim(),
          returnCode: code,
          originalTrace,
          originalReceivingDfi: rdfi,
          dateOfDeath: death.trim() === "" ? null : nachaDate(death),
          effectiveDate: batchDate,
        });
        return;
      }
      case "8":
        if (!inBatch) bad(line, "A Batch Control record (type 8) outside a batch.");
        inBatch = false;
        batchDate = null;
        return;
      case "9":
        if (inBatch) bad(line, "The File Control record (type 9) inside a batch (the batch has no Batch Control).");
        sawControl = true;
        return;
      default:
        afterBadRecord = true;
        bad(line, `The record type "${type}" is not a NACHA record type (1, 5, 6, 7, 8 or 9).`);
    }
  });
  if (pending) bad((pending as { line: number }).line, "The returned entry has no Addenda record (type 7) after it.");
  if (!sawHeader && !errors.some((e) => e.line === 1)) bad(1, "The file has no File Header record (type 1).");
  if (!sawControl) bad(lines.length, "The file has no File Control record (type 9).");
  if (errors.length === 0 && entries.length === 0) bad(0, ACH_RETURN_FILE_MESSAGES.noEntries);
  errors.sort((a, b) => a.line - b.line);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, entries, recordCount: lines.length };
}

/** Our own sent entry read from a stored file: the fields a return must repeat. */
export type SentEntry = { receivingDfi: string; accountNumber: string; amountCents: number; transactionCode: string };

/** The Entry Detail records of one of our NACHA files, by trace number. */
export function sentEntriesByTrace(content: string): Map<string, SentEntry> {
  const out = new Map<string, SentEntry>();
  for (const record of returnFileLines(content)) {
    if (record[0] !== "6" || record.length !== NACHA_RECORD_LENGTH) continue;
    out.set(field(record, 80, 94), {
      transactionCode: field(record, 2, 3),
      receivingDfi: field(record, 4, 11),
      accountNumber: field(record, 13, 29).trim(),
      amountCents: Number(field(record, 30, 39)),
    });
  }
  return out;
}
