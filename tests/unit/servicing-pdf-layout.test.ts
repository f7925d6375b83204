import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expectLaidOut as laidOut } from "../helpers/pdf-words";
import { renderPayoffLetterPdf, renderStatementPdf, type LetterParties } from "~/server/loans/servicing-pdfs.server";

/**
 * Letters and statements lay long values out without overlap: a 60-character reference, a long name,
 * a long payment reference and fee label wrap inside their space and push what follows down. Read back
 * by poppler: every word's box from `pdftotext -bbox` must stay on the page and clear of every other
 * word's, and `pdftoppm` must draw each page.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "servicing-pdf-layout-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const expectLaidOut = (bytes: Buffer, name: string) => laidOut(bytes, dir, name);

const REFERENCE = `LN-${"7".repeat(57)}`;
const NAME = "Maximiliana Alexandrina Wolfeschlegelsteinhausenbergerdorff-Montgomery";
const parties: LetterParties = {
  lender: { name: "Private Loans Lending Company of the Mid-Atlantic, LLC", address: { line1: "100 Market Street, Suite 1200", city: "Wilmington", state: "DE", postalCode: "19801" } },
  borrower: { name: NAME, address: { line1: "12345 Very Long Boulevard Name Extension Road, Apartment 4B", city: "Philadelphia", state: "PA", postalCode: "19103" } },
  loanReference: REFERENCE,
  issuedOn: "2027-03-31",
};

describe("letters and statements with long values", () => {
  it("a statement: the reference, the name, a long payment reference and fee label wrap; the Fees heading stays below the payments", async () => {
    expect(REFERENCE).toHaveLength(60);
    const bytes = await renderStatementPdf({
      ...parties,
      month: "2027-03",
      periodStart: "2027-03-01",
      periodEnd: "2027-03-31",
      principalStartCents: 4_800_000,
      payments: [
        { receivedOn: "2027-03-10", reference: `WIRE-${"A1B2C3D4E5".repeat(6)}-FINAL-CONFIRMATION`, methodLabel: "Wire", amountCents: 1_234_567, feesCents: 2_500, interestCents: 34_567, principalCents: 1_197_500, excessCents: 0 },
        { receivedOn: "2027-03-20", reference: "CHK-1001", methodLabel: "Check", amountCents: 80_372, feesCents: 0, interestCents: 30_000, principalCents: 50_372, excessCents: 0 },
      ],
      fees: [{ assessedOn: "2027-03-16", label: "Late fee on installment 2, assessed after the fifteen-day grace period ended without a payment", amountCents: 2_500 }],
      principalEndCents: 3_552_128,
      interestAccruedEndCents: 12_345,
      feesDueEndCents: 2_500,
      nextDue: { dueDate: "2027-04-10", installmentCents: 80_372, feesCents: 2_500, amountDueCents: 82_872 },
      statusLabel: "Late",
    });
    const words = expectLaidOut(bytes, "statement");
    const text = words.map((w) => w.text).join(" ");
    expect(text).toContain("7".repeat(20));
    expect(text).toContain("Wolfeschlegelsteinhausenbergerdorff-Montgomery");
    // The Fees heading begins below every word of the payments table.
    const fees = words.find((w) => w.text === "Fees" && w.yMin > (words.find((x) => x.text === "Payments")?.yMax ?? 0) && w.xMin < 60);
    const lastPaymentWord = words.filter((w) => w.text.includes("CONFIRMATION") || w.text === "CHK-1001");
    expect(fees).toBeDefined();
    for (const w of lastPaymentWord) expect(w.yMax).toBeLessThan(fees!.yMin);
  });

  it("a payoff letter with the same long values", async () => {
    const bytes = await renderPayoffLetterPdf({
      ...parties,
      quote: { goodThrough: "2027-04-15", principalCents: 3_552_128, interestCents: 45_678, feesCents: 2_500, totalCents: 3_600_306, perDiemCents: 789, perDiemText: "7.8912" },
    } as Parameters<typeof renderPayoffLetterPdf>[0]);
    expectLaidOut(bytes, "payoff");
  });
});
