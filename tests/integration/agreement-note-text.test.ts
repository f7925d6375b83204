import { expectedFundingDate } from "~/domain/funding";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servicingTermsFrom } from "~/domain/servicing-terms";
import { disclosure } from "~/domain/truth-in-lending";
import { formatMoney, rateFromPercent } from "~/domain/money";
import { agreementPreview, signedAgreementDocument } from "~/server/offers/agreement-document.server";
import { renderAgreementPdf } from "~/server/offers/agreement-pdf.server";
import type { OfferRow } from "~/server/offers/offers.server";
import { loadConfig, setConfig } from "~/server/platform/config.server";
import { expectLaidOut } from "../helpers/pdf-words";

/**
 * The signed agreement says what the ledger does: built from an offer's stored row and its servicing
 * terms as the signing does it, rendered, and read back with poppler's pdftotext. The note's interest,
 * payments, late charge, returned payment, prepayment and default paragraphs and the disclosure box's
 * Late Charge, Prepayment and contract-reference lines carry the offer's own figures; the old note's
 * "one twelfth" and "no late fee" are gone when the terms say otherwise.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agreement-note-text-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeAll(() => setConfig(loadConfig({ DATA_DIR: dir, APP_SECRET: "n".repeat(48), LENDER_NOTIFY_EMAIL: "lender@example.com" })));

const SIGNED_ON = "2027-01-15";

/** An offer row as insertOffer stores it: $50,000 at 8.5 % for 60 months with a 2 % origination fee. */
function offerRow(lateFee: { graceDays: number; flatCents: number; percentMilli: number; capCents: number }): OfferRow {
  const figures = disclosure({ amountCents: 5_000_000, noteRateMilli: 8_500, termMonths: 60, originationFeeMilli: 2_000, signedOn: SIGNED_ON, fundedOn: expectedFundingDate(SIGNED_ON) });
  return {
    id: "3f2a9c1e-7b4d-4e21-9a0c-5d6e7f809102",
    applicationId: "a1b2c3d4-0000-4000-8000-000000000001",
    userId: "user-1",
    status: "offered",
    isCounteroffer: false,
    counterofferReasons: [],
    amountCents: figures.amountCents,
    noteRateMilli: 8_500,
    termMonths: 60,
    originationFeeMilli: 2_000,
    originationFeeCents: figures.originationFeeCents,
    amountFinancedCents: figures.amountFinancedCents,
    paymentCents: figures.paymentCents,
    finalPaymentCents: figures.schedule.at(-1)!.paymentCents,
    financeChargeCents: figures.financeChargeCents,
    totalOfPaymentsCents: figures.totalOfPaymentsCents,
    aprMilli: rateFromPercent(figures.aprPercent),
    servicingTerms: servicingTermsFrom(lateFee),
    expiresAt: new Date("2027-01-30T00:00:00Z"),
    createdBy: null,
    createdAt: new Date("2027-01-10T00:00:00Z"),
    decidedAt: null,
    decidedBy: null,
    withdrawReason: null,
  };
}

async function signedPdf(row: OfferRow): Promise<Buffer> {
  const borrower = { firstName: "Dana", middleInitial: null, lastName: "Whitfield", email: "dana@example.com", addressLine1: "12 Elm Road", addressLine2: null, city: "Albany", state: "NY", zipCode: "12203" };
  const preview = agreementPreview(row, borrower, SIGNED_ON);
  const document = signedAgreementDocument(preview, { kind: "typed", name: "Dana Whitfield" }, {
    signerName: "Dana Whitfield",
    signerEmail: "dana@example.com",
    signedAt: `${SIGNED_ON}T15:30:12.000Z`,
    ipAddress: "203.0.113.9",
    userAgent: "Mozilla/5.0",
    consentVersion: "esign-2026-11-01",
    consentedAt: `${SIGNED_ON}T15:21:40.000Z`,
  });
  return renderAgreementPdf(document, { subject: "Harbor Street Lending, LLC", certificateSha256: "3f".repeat(32) });
}

/** The PDF's text with every run of white space (line breaks included) as one space, so wrapped sentences read whole. */
function pdfText(bytes: Buffer, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
}

const LATE_FEE = { graceDays: 15, flatCents: 2_500, percentMilli: 5_000, capCents: 5_000 };

describe("the agreement's note and disclosure box, read back from the PDF", () => {
  it("with a late fee: the fee in the note and in the box, interest accrued daily, fees first, prepayment and the contract reference", async () => {
    const row = offerRow(LATE_FEE);
    const text = pdfText(await signedPdf(row), "late-fee");

    // The box (model form H-2).
    expect(text).toContain("Late Charge: If a payment is more than 15 days late, you will be charged the greater of $25.00 or 5% of the payment, up to $50.00.");
    expect(text).toContain(
      "Prepayment: If you pay off early, you will not have to pay a penalty, and you will not be entitled to a refund of part of the finance charge: the $1,000.00 origination fee is not refunded.",
    );
    expect(text).toContain("See your contract documents for any additional information about nonpayment, default, any required repayment in full before the scheduled date, and prepayment refunds and penalties.");

    // The note, numbered, its servicing paragraphs between the promise to pay and the governing law.
    expect(text).toContain("1. PROMISE TO PAY. In return for a loan of $50,000.00");
    // Signed on Friday January 15, 2027: the first banking day after it is Tuesday January 19 (Monday is
    // Martin Luther King Jr. Day), the day the figures' interest starts; the due dates count from signing.
    expect(text).toContain("2. INTEREST. Interest is charged on the unpaid principal from the day the loan's proceeds are credited to my account until the principal is paid in full, at a yearly rate of 8.50%. The proceeds are expected to be credited on Jan 19, 2027, and the disclosures and the payment amounts assume that day");
    expect(text).toContain("divided by 365");
    // The note's regular payment is the one the terms and the schedule print (the signing day's level payment).
    const regular = /Monthly payment: (\$[\d,.]+)/.exec(text)?.[1];
    expect(regular).toMatch(/^\$1,02\d\.\d\d$/);
    // (pdftotext may read the first row's date before the header's last word: the amount follows it.)
    expect(text).toMatch(new RegExp(`1 Feb 15, 2027 (\\S+ ){0,4}\\${regular} `));
    expect(text).toMatch(new RegExp(`3\\. PAYMENTS\\. I will pay (59 monthly payments of \\${regular} and a final payment of \\$[\\d,.]+|60 monthly payments of \\${regular} each)\\.`));
    expect(text).toContain("applied first to any fees then due, oldest first, then to the interest accrued to the date the payment is received, and then to principal");
    expect(text).toContain(
      "4. LATE CHARGE. If any payment is not received in full within 15 days after its due date, I will pay a late charge of the greater of $25.00 or 5% of the scheduled payment, but no more than $50.00, once for that payment.",
    );
    expect(text).toContain("5. RETURNED PAYMENT. This agreement charges no fee for a payment returned unpaid by my bank.");
    expect(text).toContain("6. PREPAYMENT. I may pay all or part of the principal at any time without a prepayment penalty");
    expect(text).toContain("The Origination Fee of $1,000.00 is a prepaid finance charge, earned when the loan is made, and is not refunded");
    expect(text).toContain("7. DEFAULT. I will be in default");
    expect(text).toContain("8. GOVERNING LAW.");
    expect(text).toContain("9. ELECTRONIC SIGNATURE.");

    // What the note used to say, and the ledger never did.
    expect(text).not.toMatch(/one twelfth/i);
    expect(text).not.toMatch(/no late (fee|charge)/i);
    expect(text).not.toContain("first to interest then due");
  });

  it("without a late fee: the note and the box say there is none, and nothing else changes", async () => {
    const text = pdfText(await signedPdf(offerRow({ graceDays: 15, flatCents: 0, percentMilli: 0, capCents: 5_000 })), "no-late-fee");
    expect(text).toContain("Late Charge: This loan has no late charge.");
    expect(text).toContain("4. LATE CHARGE. This agreement charges no late charge.");
    expect(text).not.toMatch(/\$25\.00|5% of the/);
    expect(text).toContain("Prepayment: If you pay off early, you will not have to pay a penalty");
    expect(text).toContain("See your contract documents for any additional information");
    expect(text).not.toMatch(/one twelfth/i);
  });

  it("lays the box's lines out inside the page without overlapping the figures or each other", async () => {
    const row = offerRow(LATE_FEE);
    const words = expectLaidOut(await signedPdf(row), dir, "layout");
    // The box's lines sit under its four figures and above the Loan Terms, on page 1.
    const firstPage = words.filter((w) => w.page === 1);
    const y = (text: string) => firstPage.find((w) => w.text === text)?.yMin ?? Number.NaN;
    expect(y("Charge:")).toBeGreaterThan(y(formatMoney(row.totalOfPaymentsCents)));
    expect(y("Charge:")).toBeLessThan(y("Prepayment:"));
    expect(y("Prepayment:")).toBeLessThan(y("Terms"));
  });
});
