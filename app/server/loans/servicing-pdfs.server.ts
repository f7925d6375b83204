import PDFDocument from "pdfkit";
import type { PayoffQuote } from "~/domain/loan-servicing";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { formatMonth } from "~/domain/views/borrower-loan";
import { type PostalAddress } from "~/domain/views/loan-agreement";
import { clean, collect, fonts, tableCells, tableCellsHeight, tableColumns } from "~/server/offers/index.server";
import { formatMoney } from "~/domain/money";

/**
 * The servicing letters and statements as PDFs: the payoff quote letter, the monthly
 * statement and the paid-in-full letter. pdfkit with the agreement's Inter faces (agreement-pdf.server.ts),
 * text extractable (tests read it back with pdftotext); each document is a pure function of its data
 * (its creation date is the day it is dated). No account or routing numbers appear in any of them.
 */

export type LetterParties = {
  lender: { name: string; address: PostalAddress; nmlsId?: string };
  borrower: { name: string; address: PostalAddress };
  /** "LN-1A2B3C4D". */
  loanReference: string;
  /** The day the document is dated, 'yyyy-MM-dd'. */
  issuedOn: string;
};

export type PayoffLetterData = LetterParties & { quote: PayoffQuote };

export type StatementPayment = { receivedOn: string; reference: string; methodLabel: string; amountCents: number; feesCents: number; interestCents: number; principalCents: number; excessCents: number };
export type StatementFee = { assessedOn: string; label: string; amountCents: number };
export type StatementData = LetterParties & {
  /** 'yyyy-MM'. */
  month: string;
  periodStart: string;
  periodEnd: string;
  principalStartCents: number;
  payments: StatementPayment[];
  fees: StatementFee[];
  principalEndCents: number;
  interestAccruedEndCents: number;
  feesDueEndCents: number;
  nextDue: { dueDate: string; installmentCents: number; feesCents: number; amountDueCents: number } | null;
  statusLabel: string;
};

export type PaidInFullLetterData = LetterParties & { amountCents: number; startDate: string; paidOffOn: string; totalPaidCents: number };

export const MARGIN = 54;
const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const INK = "#111827";
export const MUTED = "#4b5563";
const RULE = "#9ca3af";
export type Doc = PDFKit.PDFDocument;

export function newDocument(title: string, subject: string, issuedOn: string): Doc {
  const f = fonts();
  const dated = new Date(`${issuedOn}T12:00:00Z`);
  if (Number.isNaN(dated.getTime())) throw new RangeError(`servicing-pdfs: not a day: ${issuedOn}`);
  const pdf = new PDFDocument({
    size: "LETTER",
    margins: { top: MARGIN, bottom: MARGIN + 24, left: MARGIN, right: MARGIN },
    font: f.regular as unknown as string,
    info: { Title: title, Subject: subject, Creator: "Loan portal", Producer: "Loan portal", CreationDate: dated, ModDate: dated },
  });
  pdf.registerFont("regular", f.regular);
  pdf.registerFont("semibold", f.semibold);
  pdf.registerFont("bold", f.bold);
  pdf.font("regular").fillColor(INK);
  return pdf;
}

function addressLines(address: PostalAddress): string[] {
  return [address.line1, address.line2 ?? "", `${address.city}, ${address.state} ${address.postalCode}`].filter((l) => l.trim()).map(clean);
}

export function letterhead(pdf: Doc, parties: LetterParties, title: string) {
  const { lender, borrower } = parties;
  pdf.font("bold").fontSize(13).fillColor(INK).text(clean(lender.name), MARGIN, MARGIN, { width: CONTENT_WIDTH });
  pdf.font("regular").fontSize(9).fillColor(MUTED);
  for (const line of [...addressLines(lender.address), ...(lender.nmlsId ? [`NMLS ID ${clean(lender.nmlsId)}`] : [])]) pdf.text(line, { width: CONTENT_WIDTH });
  pdf.moveDown(1.2);
  pdf.font("regular").fontSize(10).fillColor(INK).text(formatAgreementDay(parties.issuedOn), { width: CONTENT_WIDTH });
  pdf.moveDown(0.8);
  for (const line of [clean(borrower.name), ...addressLines(borrower.address)]) pdf.text(line, { width: CONTENT_WIDTH });
  pdf.moveDown(1.2);
  pdf.font("bold").fontSize(16).text(title, { width: CONTENT_WIDTH });
  pdf.font("regular").fontSize(10).fillColor(MUTED).text(`Loan ${clean(parties.loanReference)}`, { width: CONTENT_WIDTH });
  pdf.fillColor(INK).moveDown(0.8);
}

export function paragraph(pdf: Doc, text: string) {
  pdf.font("regular").fontSize(10).fillColor(INK).text(clean(text), MARGIN, pdf.y, { width: CONTENT_WIDTH });
  pdf.moveDown(0.6);
}

/** Label on the left (wrapping in its space when long), figure right-aligned; `strong` for totals. */
export function figureRow(pdf: Doc, label: string, value: string, strong = false) {
  pdf.font(strong ? "bold" : "regular").fontSize(10).fillColor(INK);
  const labelWidth = CONTENT_WIDTH - 148;
  const height = pdf.heightOfString(label, { width: labelWidth });
  if (pdf.y + height > PAGE_HEIGHT - MARGIN - 24) pdf.addPage();
  const y = pdf.y;
  pdf.text(label, MARGIN, y, { width: labelWidth });
  pdf.text(value, MARGIN + CONTENT_WIDTH - 140, y, { width: 140, align: "right", lineBreak: false });
  pdf.y = y + Math.max(16, height + 4);
  pdf.x = MARGIN;
}

export function rule(pdf: Doc) {
  pdf.lineWidth(0.5).strokeColor(RULE).moveTo(MARGIN, pdf.y).lineTo(MARGIN + CONTENT_WIDTH, pdf.y).stroke();
  pdf.y += 4;
}

export function footer(pdf: Doc, parties: LetterParties) {
  const bottom = pdf.page.margins.bottom;
  pdf.page.margins.bottom = 0;
  pdf.font("regular").fontSize(8).fillColor(MUTED).text(`${clean(parties.lender.name)} · Loan ${clean(parties.loanReference)}`, MARGIN, PAGE_HEIGHT - MARGIN, {
    width: CONTENT_WIDTH,
    align: "center",
    lineBreak: false,
  });
  pdf.page.margins.bottom = bottom;
}

export async function finish(pdf: Doc, draw: () => void, parties: LetterParties): Promise<Buffer> {
  const done = collect(pdf);
  draw();
  footer(pdf, parties);
  pdf.end();
  return done;
}

/** The payoff quote letter: principal, interest to the good-through date, fees, the total and the per diem. */
export function renderPayoffLetterPdf(data: PayoffLetterData): Promise<Buffer> {
  const pdf = newDocument("Payoff Quote", `Payoff quote for loan ${data.loanReference}`, data.issuedOn);
  const q = data.quote;
  return finish(
    pdf,
    () => {
      letterhead(pdf, data, "Payoff Quote");
      paragraph(pdf, `This letter states the amount that pays your loan in full if we receive it on ${formatAgreementDay(q.goodThrough)} (the good-through date).`);
      pdf.moveDown(0.4);
      figureRow(pdf, "Principal balance", formatMoney(q.principalCents));
      figureRow(pdf, `Interest accrued through ${formatAgreementDay(q.goodThrough)}`, formatMoney(q.interestCents));
      figureRow(pdf, "Unpaid fees", formatMoney(q.feesCents));
      rule(pdf);
      figureRow(pdf, `Total payoff amount`, formatMoney(q.totalCents), true);
      pdf.moveDown(0.6);
      figureRow(pdf, "Per diem interest", `$${q.perDiemText} per day`);
      pdf.moveDown(0.6);
      paragraph(
        pdf,
        `Interest accrues at the per diem amount above for each day after the good-through date until the payoff is received. Payments that are pending, returned or reversed after the date of this letter change the amount due. Payments received are applied to fees, then to accrued interest, then to principal.`,
      );
      paragraph(pdf, "When your loan is paid in full, we will send you a paid-in-full letter. Questions: send us a message from your dashboard.");
    },
    data,
  );
}

/** One month's statement: its payments and how each was applied, its fees, the balance at the month's end and the next payment due. */
export function renderStatementPdf(data: StatementData): Promise<Buffer> {
  const pdf = newDocument(`Statement ${formatMonth(data.month)}`, `Loan statement ${data.month} for loan ${data.loanReference}`, data.issuedOn);
  return finish(
    pdf,
    () => {
      letterhead(pdf, data, `Statement for ${formatMonth(data.month)}`);
      paragraph(pdf, `Statement period: ${formatAgreementDay(data.periodStart)} through ${formatAgreementDay(data.periodEnd)}. Loan status at the end of the period: ${data.statusLabel}.`);
      figureRow(pdf, "Principal balance at the start of the period", formatMoney(data.principalStartCents));
      pdf.moveDown(0.4);

      pdf.font("bold").fontSize(12).text("Payments", MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.3);
      if (data.payments.length === 0) paragraph(pdf, "No payments were posted in this period.");
      const cols = tableColumns(CONTENT_WIDTH, {
        text: [["Date", 92], ["Reference", 92]],
        figures: [["Amount", 68], ["Fees", 56], ["Interest", 64]],
        last: "Principal",
      });
      const row = (cells: string[], font: "regular" | "semibold") => {
        pdf.font(font).fontSize(9).fillColor(INK);
        const height = Math.max(14, tableCellsHeight(pdf, cols, cells) + 3);
        if (pdf.y + height > PAGE_HEIGHT - MARGIN - 24) pdf.addPage();
        const y = pdf.y;
        pdf.font(font).fontSize(9).fillColor(INK);
        tableCells(pdf, cols, cells, MARGIN, y);
        pdf.y = y + height;
        pdf.x = MARGIN;
      };
      if (data.payments.length > 0) {
        row(cols.map((c) => c.title), "semibold");
        rule(pdf);
        for (const p of data.payments)
          row([formatAgreementDay(p.receivedOn), clean(p.reference), formatMoney(p.amountCents), formatMoney(p.feesCents), formatMoney(p.interestCents), formatMoney(p.principalCents)], "regular");
        const excess = data.payments.reduce((s, p) => s + p.excessCents, 0);
        if (excess > 0) paragraph(pdf, `${formatMoney(excess)} paid beyond the payoff is being returned to you.`);
        pdf.moveDown(0.4);
      }

      pdf.font("bold").fontSize(12).text("Fees", MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.3);
      if (data.fees.length === 0) paragraph(pdf, "No fees were assessed in this period.");
      for (const fee of data.fees) figureRow(pdf, `${formatAgreementDay(fee.assessedOn)} ${clean(fee.label)}`, formatMoney(fee.amountCents));
      pdf.moveDown(0.4);

      pdf.font("bold").fontSize(12).text(`Balance on ${formatAgreementDay(data.periodEnd)}`, MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.3);
      figureRow(pdf, "Principal balance", formatMoney(data.principalEndCents));
      figureRow(pdf, "Interest accrued, unpaid", formatMoney(data.interestAccruedEndCents));
      figureRow(pdf, "Fees due", formatMoney(data.feesDueEndCents));
      rule(pdf);
      figureRow(pdf, "Total to pay off on that day", formatMoney(data.principalEndCents + data.interestAccruedEndCents + data.feesDueEndCents), true);
      pdf.moveDown(0.6);
      pdf.font("bold").fontSize(12).text("Next Payment", MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.3);
      if (data.nextDue) {
        // A payment pays fees first: the amount due includes them, so paying it brings the loan current.
        if (data.nextDue.feesCents > 0) {
          figureRow(pdf, "Installment", formatMoney(data.nextDue.installmentCents));
          figureRow(pdf, "Fees due, paid first", formatMoney(data.nextDue.feesCents));
        }
        figureRow(pdf, "Amount due", formatMoney(data.nextDue.amountDueCents));
        figureRow(pdf, "Due date", formatAgreementDay(data.nextDue.dueDate));
      } else paragraph(pdf, "No payment is due: the loan is paid in full.");
    },
    data,
  );
}

/** The paid-in-full letter. */
export function renderPaidInFullLetterPdf(data: PaidInFullLetterData): Promise<Buffer> {
  const pdf = newDocument("Paid-in-Full Letter", `Paid-in-full letter for loan ${data.loanReference}`, data.issuedOn);
  return finish(
    pdf,
    () => {
      letterhead(pdf, data, "Paid in Full");
      paragraph(pdf, `Dear ${clean(data.borrower.name)},`);
      paragraph(
        pdf,
        `This letter confirms that your loan ${clean(data.loanReference)} of ${formatMoney(data.amountCents)}, made on ${formatAgreementDay(data.startDate)}, was paid in full on ${formatAgreementDay(data.paidOffOn)}. Nothing more is owed on it: the principal, the interest and any fees are paid, and the loan is closed.`,
      );
      figureRow(pdf, "Original loan amount", formatMoney(data.amountCents));
      figureRow(pdf, "Total of the payments applied", formatMoney(data.totalPaidCents));
      figureRow(pdf, "Balance", formatMoney(0), true);
      pdf.moveDown(0.6);
      paragraph(pdf, "Please keep this letter with your records. Thank you for borrowing with us.");
      paragraph(pdf, clean(data.lender.name));
    },
    data,
  );
}
