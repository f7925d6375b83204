import { formatDay as formatCalendarDay } from "~/domain/formats";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import { disclosureLineText, type DisclosureLine } from "~/domain/agreement-terms-text";
import { formatMoney } from "~/domain/money";
import {
  AGREEMENT_TITLE,
  TILA_BOX_HEADINGS,
  type AgreementDocument,
  type PostalAddress,
  type TruthInLendingBox,
} from "~/domain/views/loan-agreement";

/**
 * The signed loan agreement as a PDF (decision 0030). pdfkit writes it with the site's own
 * Inter faces (read from disk, so nothing is fetched and the paper matches the brand), text stays
 * extractable (pdfkit adds a ToUnicode map to each embedded subset), and the output is a pure
 * function of the input: the creation date is the signing time and pdfkit derives the file id from it.
 *
 * The Signing Certificate page names the certificate the lender signs the file with (decision 0086):
 * the digital signature itself is added to the finished bytes (agreement-seal.server.ts), so any PDF
 * reader can check that no byte changed since.
 */

const FONT_FILES = { regular: "inter-regular-latin.woff2", semibold: "inter-semibold-latin.woff2", bold: "inter-bold-latin.woff2" };
export type FontName = keyof typeof FONT_FILES;

let fontCache: Record<FontName, Buffer> | undefined;

/** public/fonts in a checkout, build/client/fonts in a build without the sources (shared with servicing-pdfs.server.ts). */
export function fonts(): Record<FontName, Buffer> {
  if (fontCache) return fontCache;
  const dir = [path.resolve("public/fonts"), path.resolve("build/client/fonts")].find((d) => existsSync(path.join(d, FONT_FILES.regular)));
  if (!dir) throw new Error("agreement-pdf: the Inter font files (public/fonts) are missing");
  fontCache = {
    regular: readFileSync(path.join(dir, FONT_FILES.regular)),
    semibold: readFileSync(path.join(dir, FONT_FILES.semibold)),
    bold: readFileSync(path.join(dir, FONT_FILES.bold)),
  };
  return fontCache;
}

// US Letter, 0.75 in margins.
const MARGIN = 54;
const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const FOOTER_SPACE = 24;
const INK = "#111827";
const MUTED = "#4b5563";
const RULE = "#9ca3af";

type Doc = PDFKit.PDFDocument;

/**
 * User-supplied text without control characters (a tab or NUL would print as a box or break the line
 * wrapper); characters the Latin subset lacks still print, as the font's empty glyph, never a crash.
 */
export function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ");
}

/** 'yyyy-MM-dd' → "Jan 5, 2027", without time zones (the date is a calendar day): the one format people read. */
function formatDay(isoDay: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(isoDay) ? formatCalendarDay(isoDay) : clean(isoDay);
}

/** An ISO instant in UTC, to the second: "2026-11-24 15:30:12 UTC". */
function formatInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`agreement-pdf: not an ISO time: ${iso}`);
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

function addressLines(address: PostalAddress): string[] {
  return [address.line1, address.line2 ?? "", `${address.city}, ${address.state} ${address.postalCode}`].filter((l) => l.trim()).map(clean);
}

function boxFigure(box: TruthInLendingBox, key: keyof TruthInLendingBox): string {
  return key === "aprPercent" ? `${clean(box.aprPercent)}%` : formatMoney(box[key]);
}

function newDocument(doc: AgreementDocument): Doc {
  const f = fonts();
  const signedAt = new Date(doc.certificate.signedAt);
  if (Number.isNaN(signedAt.getTime())) throw new RangeError(`agreement-pdf: not an ISO time: ${doc.certificate.signedAt}`);
  const pdf = new PDFDocument({
    size: "LETTER",
    margins: { top: MARGIN, bottom: MARGIN + FOOTER_SPACE, left: MARGIN, right: MARGIN },
    bufferPages: true,
    // Regular Inter from the start, so pdfkit never loads its built-in Helvetica.
    font: f.regular as unknown as string,
    info: {
      Title: AGREEMENT_TITLE,
      Author: clean(doc.lender.name),
      Subject: `Loan agreement ${clean(doc.reference)}`,
      Creator: "Loan portal",
      Producer: "Loan portal",
      CreationDate: signedAt,
      ModDate: signedAt,
    },
  });
  pdf.registerFont("regular", f.regular);
  pdf.registerFont("semibold", f.semibold);
  pdf.registerFont("bold", f.bold);
  pdf.font("regular").fillColor(INK);
  return pdf;
}

function heading(pdf: Doc, text: string, size = 14) {
  pdf.font("bold").fontSize(size).fillColor(INK).text(text, MARGIN, pdf.y, { width: CONTENT_WIDTH });
  pdf.moveDown(0.4);
}

function labelValue(pdf: Doc, label: string, value: string) {
  pdf.font("semibold").fontSize(10).fillColor(INK).text(`${label}: `, MARGIN, pdf.y, { continued: true, width: CONTENT_WIDTH });
  pdf.font("regular").text(clean(value));
}

function partiesAndTerms(pdf: Doc, doc: AgreementDocument) {
  heading(pdf, AGREEMENT_TITLE, 18);
  pdf.font("regular").fontSize(10).fillColor(MUTED).text(`Agreement ${clean(doc.reference)}`, { width: CONTENT_WIDTH });
  pdf.moveDown(0.8);

  const top = pdf.y;
  const half = CONTENT_WIDTH / 2 - 8;
  const party = (x: number, role: string, lines: string[]) => {
    pdf.font("semibold").fontSize(9).fillColor(MUTED).text(role, x, top, { width: half });
    pdf.font("regular").fontSize(10).fillColor(INK);
    for (const line of lines) pdf.text(line, x, pdf.y, { width: half });
    return pdf.y;
  };
  const lender = [clean(doc.lender.name), ...addressLines(doc.lender.address), ...(doc.lender.nmlsId ? [`NMLS ID ${clean(doc.lender.nmlsId)}`] : [])];
  const borrower = [clean(doc.borrower.name), ...addressLines(doc.borrower.address), clean(doc.borrower.email)];
  const bottom = Math.max(party(MARGIN, "LENDER", lender), party(MARGIN + half + 16, "BORROWER", borrower));
  pdf.y = bottom + 16;

  disclosureBox(pdf, doc.disclosure, doc.disclosureLines);

  heading(pdf, "Loan Terms", 13);
  const t = doc.terms;
  labelValue(pdf, "Loan amount", formatMoney(t.amountCents));
  labelValue(pdf, "Note rate", `${t.noteRatePercent}%`);
  labelValue(pdf, "Annual percentage rate", `${t.aprPercent}%`);
  labelValue(pdf, "Term", `${t.termMonths} months`);
  labelValue(pdf, "Monthly payment", formatMoney(t.monthlyPaymentCents));
  labelValue(pdf, "First payment due", formatDay(t.firstPaymentDue));
  labelValue(pdf, "Origination fee (prepaid finance charge)", formatMoney(t.originationFeeCents));
}

/**
 * The four boxed figures side by side, as on Regulation Z's model forms, the first two in bold; under
 * them, in the same frame, the box's lines (Late Charge, Prepayment, the contract reference), each
 * wrapping inside the frame. The whole box stays on one page.
 */
function disclosureBox(pdf: Doc, box: TruthInLendingBox, lines: readonly DisclosureLine[]) {
  const width = CONTENT_WIDTH / 4;
  const height = 118;
  const linesWidth = CONTENT_WIDTH - 12;
  // Measured in the semibold face, the wider of the two a line is printed in, so the estimate is never short.
  pdf.font("semibold").fontSize(9);
  const linesHeight = lines.reduce((sum, line) => sum + pdf.heightOfString(disclosureLineText(line), { width: linesWidth }) + 4, lines.length ? 10 : 0);
  if (pdf.y + height + linesHeight > PAGE_HEIGHT - MARGIN - FOOTER_SPACE) pdf.addPage();
  const y0 = pdf.y;
  TILA_BOX_HEADINGS.forEach((item, i) => {
    const x = MARGIN + i * width;
    const inner = width - 12;
    pdf.lineWidth(i < 2 ? 1.5 : 0.75).strokeColor(INK).rect(x, y0, width, height).stroke();
    pdf.font("bold").fontSize(8.5).fillColor(INK).text(item.heading, x + 6, y0 + 6, { width: inner });
    pdf.font("regular").fontSize(7.5).fillColor(MUTED).text(item.description, x + 6, pdf.y + 2, { width: inner });
    pdf.font(i < 2 ? "bold" : "semibold").fontSize(13).fillColor(INK).text(boxFigure(box, item.key), x + 6, y0 + height - 24, { width: inner });
  });
  let bottom = y0 + height;
  if (lines.length) {
    pdf.y = bottom + 6;
    for (const line of lines) {
      if (line.label) {
        pdf.font("semibold").fontSize(9).fillColor(INK).text(`${clean(line.label)}: `, MARGIN + 6, pdf.y, { width: linesWidth, continued: true });
        pdf.font("regular").text(clean(line.text));
      } else {
        pdf.font("regular").fontSize(9).fillColor(INK).text(clean(line.text), MARGIN + 6, pdf.y, { width: linesWidth });
      }
      pdf.y += 4;
    }
    const linesBottom = pdf.y + 2;
    pdf.lineWidth(0.75).strokeColor(INK).rect(MARGIN, bottom, CONTENT_WIDTH, linesBottom - bottom).stroke();
    bottom = linesBottom;
  }
  pdf.y = bottom + 18;
  pdf.x = MARGIN;
}

/** A column of a table in a PDF: its heading, its width in points and how its cells align. */
export type TableColumn = { title: string; width: number; align: "left" | "right" };

/**
 * The columns of a table across `width` points: its text columns left-aligned, then its figure columns
 * right-aligned (so the digits line up), each [title, width]; the last figure column takes what is left.
 */
export function tableColumns(width: number, columns: { text: [string, number][]; figures: [string, number][]; last: string }): TableColumn[] {
  const column = (align: TableColumn["align"]) => ([title, width]: [string, number]): TableColumn => ({ title, width, align });
  const sized = [...columns.text.map(column("left")), ...columns.figures.map(column("right"))];
  return [...sized, { title: columns.last, width: width - sized.reduce((sum, c) => sum + c.width, 0), align: "right" }];
}

/**
 * The height a row of cells takes in the font already set: a cell longer than its column (4 points
 * short of the next) wraps inside it, so the row is as tall as its tallest cell.
 */
export function tableCellsHeight(pdf: Doc, columns: readonly TableColumn[], cells: readonly string[]): number {
  return Math.max(0, ...columns.map((column, i) => pdf.heightOfString(cells[i] ?? "", { width: column.width - 4, align: column.align })));
}

/** One row of cells from `x` at `y`, each wrapping inside its column, in the font already set; returns the row's height. */
export function tableCells(pdf: Doc, columns: readonly TableColumn[], cells: readonly string[], x: number, y: number): number {
  const height = tableCellsHeight(pdf, columns, cells);
  columns.forEach((column, i) => {
    pdf.text(cells[i] ?? "", x, y, { width: column.width - 4, align: column.align });
    x += column.width;
  });
  return height;
}

const COLUMNS = tableColumns(CONTENT_WIDTH, {
  text: [["No.", 40], ["Due Date", 108]],
  figures: [["Payment", 80], ["Principal", 80], ["Interest", 80]],
  last: "Balance",
});
const ROW_HEIGHT = 14;

function tableRow(pdf: Doc, cells: string[], font: "regular" | "semibold") {
  const y = pdf.y;
  pdf.font(font).fontSize(9).fillColor(INK);
  tableCells(pdf, COLUMNS, cells, MARGIN, y + 2);
  pdf.y = y + ROW_HEIGHT;
}

/** Points left above the footer on the current page. */
function roomLeft(pdf: Doc): number {
  return PAGE_HEIGHT - MARGIN - FOOTER_SPACE - pdf.y;
}

/**
 * Starts a section where the previous one ended, on a new page only when not even its heading and
 * `keep` points of it fit: a section that always opened a fresh page left page 1 mostly blank.
 */
function section(pdf: Doc, title: string, keep: number) {
  pdf.moveDown(1);
  if (roomLeft(pdf) < 40 + keep) pdf.addPage();
  heading(pdf, title, 13);
}

/** The schedule after the terms, its header repeated at the top of each page it runs onto. */
function schedule(pdf: Doc, doc: AgreementDocument) {
  // The heading, the column header and at least three rows together.
  section(pdf, "Payment Schedule", 4 * ROW_HEIGHT + 2);
  const header = () => {
    tableRow(pdf, COLUMNS.map((c) => c.title), "semibold");
    pdf.lineWidth(0.5).strokeColor(RULE).moveTo(MARGIN, pdf.y).lineTo(MARGIN + CONTENT_WIDTH, pdf.y).stroke();
    pdf.y += 2;
  };
  header();
  const bottom = PAGE_HEIGHT - MARGIN - FOOTER_SPACE;
  for (const row of doc.schedule) {
    if (pdf.y + ROW_HEIGHT > bottom) {
      pdf.addPage();
      pdf.font("regular").fontSize(9).fillColor(MUTED).text("Payment Schedule (continued)", MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.3);
      header();
    }
    tableRow(
      pdf,
      [String(row.number), formatDay(row.dueDate), formatMoney(row.paymentCents), formatMoney(row.principalCents), formatMoney(row.interestCents), formatMoney(row.balanceCents)],
      "regular",
    );
  }
}

function noteTermsAndSignature(pdf: Doc, doc: AgreementDocument) {
  // The heading with a few lines of the first paragraph.
  section(pdf, "Note Terms", 60);
  pdf.font("regular").fontSize(10).fillColor(INK);
  for (const paragraph of doc.noteTerms) {
    pdf.text(clean(paragraph), MARGIN, pdf.y, { width: CONTENT_WIDTH, align: "left" });
    pdf.moveDown(0.6);
  }

  // Keep the signature block on one page.
  const blockHeight = 150;
  if (pdf.y + blockHeight > PAGE_HEIGHT - MARGIN - FOOTER_SPACE) pdf.addPage();
  pdf.moveDown(0.6);
  heading(pdf, "Signature", 13);
  pdf.font("regular").fontSize(10).text("By signing below, the borrower agrees to the terms of this agreement and acknowledges receipt of the disclosures above.", {
    width: CONTENT_WIDTH,
  });
  pdf.moveDown(0.8);
  const top = pdf.y;
  const signatureHeight = 60;
  if (doc.signature.kind === "drawn") {
    pdf.image(Buffer.from(doc.signature.png), MARGIN, top, { fit: [240, signatureHeight], valign: "bottom" });
  } else {
    // A long typed name shrinks to fit the signature line rather than running off it.
    const name = clean(doc.signature.name);
    pdf.font("semibold").fontSize(20);
    const size = Math.max(6, Math.min(20, (20 * 280) / Math.max(1, pdf.widthOfString(name))));
    pdf.fontSize(size).fillColor(INK).text(name, MARGIN, top + signatureHeight - 4 - size * 1.25, { width: 280, lineBreak: false });
  }
  const lineY = top + signatureHeight + 4;
  pdf.lineWidth(0.75).strokeColor(INK).moveTo(MARGIN, lineY).lineTo(MARGIN + 280, lineY).stroke();
  pdf.font("regular").fontSize(9).fillColor(MUTED);
  pdf.text(`Borrower: ${clean(doc.certificate.signerName)}`, MARGIN, lineY + 4, { width: 280 });
  pdf.text(`Signed electronically ${formatInstant(doc.certificate.signedAt)}`, MARGIN, pdf.y, { width: 280 });
  pdf.text(doc.signature.kind === "drawn" ? "Drawn signature" : "Typed signature", MARGIN, pdf.y, { width: 280 });
}

/** The certificate the finished file is digitally signed with, as the Signing Certificate page names it. */
export type AgreementSeal = { subject: string; certificateSha256: string };

function certificatePage(pdf: Doc, doc: AgreementDocument, seal: AgreementSeal) {
  pdf.addPage();
  heading(pdf, "Signing Certificate", 18);
  pdf.font("regular").fontSize(10).fillColor(MUTED).text(
    "This page records how the agreement on the preceding pages was signed electronically under the federal E-SIGN Act (15 U.S.C. 7001).",
    { width: CONTENT_WIDTH },
  );
  pdf.moveDown(0.8);
  const c = doc.certificate;
  labelValue(pdf, "Agreement", doc.reference);
  labelValue(pdf, "Signer", c.signerName);
  labelValue(pdf, "E-mail", c.signerEmail);
  labelValue(pdf, "Signed at", formatInstant(c.signedAt));
  labelValue(pdf, "IP address", c.ipAddress);
  labelValue(pdf, "User agent", c.userAgent);
  labelValue(pdf, "E-SIGN consent version", c.consentVersion);
  labelValue(pdf, "Consent given at", formatInstant(c.consentedAt));
  labelValue(pdf, "Signature", doc.signature.kind === "drawn" ? "drawn on screen" : "typed name");
  pdf.moveDown(0.8);
  pdf.font("semibold").fontSize(10).fillColor(INK).text("Digital signature", { width: CONTENT_WIDTH });
  pdf.font("regular").fontSize(9).fillColor(INK).text(
    `This file is digitally signed by the lender, ${clean(seal.subject)}, at the time above. Any PDF reader can check the signature: it shows whether any byte of the file changed since signing.`,
    { width: CONTENT_WIDTH },
  );
  pdf.moveDown(0.4);
  labelValue(pdf, "Signing certificate", seal.subject);
  labelValue(pdf, "Certificate SHA-256", seal.certificateSha256);
}

/**
 * "Page n of m" on every page, written last (bufferPages), inside the reserved footer space; m counts
 * the file's own pages, the Signing Certificate's included (a footer that left it out said "of 3" on a
 * four-page file).
 */
function footers(pdf: Doc, doc: AgreementDocument, agreementPages: number) {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    const page = `Page ${i + 1 - range.start} of ${range.count}`;
    const label = i - range.start < agreementPages ? page : `Signing Certificate · ${page}`;
    pdf.switchToPage(i);
    const bottomMargin = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0; // else text below the margin starts a new page
    pdf.font("regular").fontSize(8).fillColor(MUTED).text(
      `${clean(doc.lender.name)} · Agreement ${clean(doc.reference)} · ${label}`,
      MARGIN,
      PAGE_HEIGHT - MARGIN,
      { width: CONTENT_WIDTH, align: "center", lineBreak: false },
    );
    pdf.page.margins.bottom = bottomMargin;
  }
}

export function collect(pdf: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
}

/** The agreement and its Signing Certificate page, unsigned: the seal is added to these bytes. */
export async function renderAgreementPdf(doc: AgreementDocument, seal: AgreementSeal): Promise<Buffer> {
  const pdf = newDocument(doc);
  const done = collect(pdf); // listeners first: pdfkit streams as it goes
  partiesAndTerms(pdf, doc);
  schedule(pdf, doc);
  noteTermsAndSignature(pdf, doc);
  const agreementPages = pdf.bufferedPageRange().count;
  certificatePage(pdf, doc, seal);
  footers(pdf, doc, agreementPages);
  pdf.end();
  return done;
}
