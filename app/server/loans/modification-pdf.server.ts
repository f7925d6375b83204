import { site } from "~/content/site";
import { signedDifference, type PlanTotals } from "~/domain/hardship-plans";
import type { PaymentRow } from "~/domain/loan-schedule";
import { formatMoney } from "~/domain/money";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { signPdf } from "~/server/platform/crypto/pdf-signature.server";
import type { SigningIdentity } from "~/server/platform/crypto/signing-identity.server";
import { clean, tableCells, tableCellsHeight, tableColumns } from "~/server/offers/index.server";
import { CONTENT_WIDTH, figureRow, finish, INK, letterhead, MARGIN, MUTED, newDocument, PAGE_HEIGHT, paragraph, rule, type Doc, type LetterParties } from "./servicing-pdfs.server";

/**
 * The signed loan modification agreement (a hardship plan) as a PDF: the parties and the loan, the
 * plan in words, its effect on the total cost (what is left to pay and the interest in it, before and
 * after, and the difference), the new Payment Schedule from the plan's first installment, and the
 * signature block with the borrower's typed name and evidence (time, address, browser, E-SIGN consent).
 * Then the lender signs every byte with the certificate that signs loan agreements (decision 0086), so
 * `pdfsig` and `npm run agreement:verify` check it the same way. A pure function of its data: the same
 * data, certificate and time give the same bytes. No account or routing number appears in it.
 */

export type ModificationSignature = {
  typedName: string;
  signerEmail: string;
  /** ISO time. */
  signedAt: string;
  ipAddress: string;
  userAgent: string;
  consentVersion: string;
  consentedAt: string;
};

export type ModificationDocument = LetterParties & {
  kindLabel: string;
  /** The plan in one sentence (planSentence of the signed change). */
  sentence: string;
  /** The schedule in force and the new one, from the plan's first installment on. */
  before: PaymentRow[];
  after: PaymentRow[];
  totals: PlanTotals;
  signature: ModificationSignature;
};

// Built on first use: the offers module (tableColumns) and this one import each other's front doors.
const columns = () =>
  tableColumns(CONTENT_WIDTH, {
    text: [["No.", 40], ["Due Date", 120]],
    figures: [["Payment", 80], ["Principal", 80], ["Interest", 76]],
    last: "Balance",
  });

function heading(pdf: Doc, text: string) {
  if (pdf.y + 60 > PAGE_HEIGHT - MARGIN - 24) pdf.addPage();
  pdf.font("bold").fontSize(12).fillColor(INK).text(text, MARGIN, pdf.y, { width: CONTENT_WIDTH });
  pdf.moveDown(0.3);
}

function scheduleRow(pdf: Doc, cells: string[], font: "regular" | "semibold") {
  const COLUMNS = columns();
  pdf.font(font).fontSize(9).fillColor(INK);
  const height = Math.max(14, tableCellsHeight(pdf, COLUMNS, cells) + 3);
  if (pdf.y + height > PAGE_HEIGHT - MARGIN - 24) pdf.addPage();
  const y = pdf.y;
  pdf.font(font).fontSize(9).fillColor(INK);
  tableCells(pdf, COLUMNS, cells, MARGIN, y);
  pdf.y = y + height;
  pdf.x = MARGIN;
}

/** The agreement's pages, unsigned. */
export function renderModificationPdf(doc: ModificationDocument): Promise<Buffer> {
  const pdf = newDocument("Loan Modification Agreement", `Loan modification agreement for loan ${doc.loanReference}`, doc.issuedOn);
  const { before, after } = doc.totals;
  return finish(
    pdf,
    () => {
      letterhead(pdf, doc, "Loan Modification Agreement");
      paragraph(
        pdf,
        `This agreement between ${doc.lender.name} (the lender) and ${doc.borrower.name} (the borrower) changes the Payment Schedule of loan ${doc.loanReference}. ` +
          "Every other term of the loan agreement, including the interest rate, stays as it is.",
      );
      heading(pdf, `The plan: ${doc.kindLabel}`);
      paragraph(pdf, doc.sentence);
      paragraph(
        pdf,
        `The loan is serviced by the new schedule from ${formatAgreementDay(doc.issuedOn)}, the day this agreement is signed. Interest keeps accruing daily on the principal balance, as the loan agreement says. ` +
          "No late fee is assessed on the installments this plan covers.",
      );

      heading(pdf, "Effect on the total cost");
      paragraph(pdf, "From the plan's first installment on, if each payment arrives on its due date:");
      figureRow(pdf, "Total of remaining payments before the plan", formatMoney(before.paymentsCents));
      figureRow(pdf, "Total of remaining payments with the plan", formatMoney(after.paymentsCents));
      figureRow(pdf, "Difference in total of payments", signedDifference(before.paymentsCents, after.paymentsCents), true);
      rule(pdf);
      figureRow(pdf, "Finance charge (interest) before the plan", formatMoney(before.interestCents));
      figureRow(pdf, "Finance charge (interest) with the plan", formatMoney(after.interestCents));
      figureRow(pdf, "Difference in finance charge", signedDifference(before.interestCents, after.interestCents), true);
      rule(pdf);
      figureRow(pdf, "Number of remaining payments before the plan", String(before.installments));
      figureRow(pdf, "Number of remaining payments with the plan", String(after.installments));
      figureRow(pdf, "Last payment due before the plan", before.lastDueDate ? formatAgreementDay(before.lastDueDate) : "—");
      figureRow(pdf, "Last payment due with the plan", after.lastDueDate ? formatAgreementDay(after.lastDueDate) : "—");
      pdf.moveDown(0.6);

      heading(pdf, "New Payment Schedule");
      scheduleRow(pdf, columns().map((c) => c.title), "semibold");
      rule(pdf);
      for (const row of doc.after)
        scheduleRow(pdf, [String(row.number), formatAgreementDay(row.dueDate), formatMoney(row.paymentCents), formatMoney(row.principalCents), formatMoney(row.interestCents), formatMoney(row.balanceCents)], "regular");
      pdf.moveDown(0.8);

      heading(pdf, "Signatures");
      const s = doc.signature;
      paragraph(pdf, `Signed electronically by the borrower: ${clean(s.typedName)} (typed name), ${clean(s.signerEmail)}, at ${s.signedAt.slice(0, 19).replace("T", " ")} UTC.`);
      pdf.font("regular").fontSize(9).fillColor(MUTED);
      for (const line of [
        `IP address: ${clean(s.ipAddress) || "not recorded"}`,
        `Browser: ${clean(s.userAgent) || "not recorded"}`,
        `E-SIGN consent: version ${clean(s.consentVersion)}, given ${s.consentedAt.slice(0, 19).replace("T", " ")} UTC`,
      ])
        pdf.text(line, MARGIN, pdf.y, { width: CONTENT_WIDTH });
      pdf.moveDown(0.6);
      paragraph(pdf, `For the lender: ${doc.lender.name}, by its digital signature on this document.`);
    },
    doc,
  );
}

/** The agreement rendered and digitally signed by the lender at the borrower's signing time. */
export async function sealedModificationPdf(doc: ModificationDocument, identity: SigningIdentity, signedAt: Date): Promise<Buffer> {
  return signPdf(await renderModificationPdf(doc), identity, {
    reason: `Loan modification ${doc.loanReference}, signed electronically by the borrower`,
    name: identity.subject,
    location: "United States",
    contactInfo: site.email,
    signingTime: signedAt,
  });
}
