import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CONTRACT_REFERENCE_LINE, disclosureBoxLines, disclosureLineText, noteServicingParagraphs, type NoteFigures } from "~/domain/agreement-terms-text";
import { lateFeeCents, type LateFeePolicy } from "~/domain/loan-servicing";
import { parseMoney, rateFromPercent } from "~/domain/money";
import { servicingTermsFrom, type ServicingTerms } from "~/domain/servicing-terms";

/**
 * The note's servicing paragraphs and the disclosure box's lines say what the ledger does: the late
 * charge a borrower reads is the fee `lateFeeCents` charges, after the same grace days, or none.
 */

const figures: NoteFigures = {
  noteRateMilli: 8_500,
  originationFeeCents: 100_000,
  paymentCents: 102_583,
  finalPaymentCents: 102_590,
  paymentCount: 60,
  firstDueDate: "2027-01-31",
  lastDueDate: "2031-12-31",
  expectedFundingDate: "2026-12-31",
};

const policy = (fee: Partial<LateFeePolicy>): LateFeePolicy => ({ graceDays: 15, flatCents: 2_500, percentMilli: 5_000, capCents: 5_000, ...fee });
const terms = (fee: Partial<LateFeePolicy>, returnedPaymentFeeCents: number | null = null): ServicingTerms => ({ ...servicingTermsFrom(policy(fee)), returnedPaymentFeeCents });

function paragraph(t: ServicingTerms, title: string, f: NoteFigures = figures): string {
  const found = noteServicingParagraphs(t, f).find((p) => p.title === title);
  expect(found, title).toBeDefined();
  return found!.text;
}
const box = (t: ServicingTerms, originationFeeCents = figures.originationFeeCents) => disclosureBoxLines(t, { originationFeeCents }).map(disclosureLineText);

describe("the note's servicing paragraphs", () => {
  it("come in order: interest, payments, late charge, returned payment, prepayment, default", () => {
    expect(noteServicingParagraphs(terms({}), figures).map((p) => p.title)).toEqual(["INTEREST", "PAYMENTS", "LATE CHARGE", "RETURNED PAYMENT", "PREPAYMENT", "DEFAULT"]);
  });

  it("INTEREST: simple interest accrued daily on the unpaid principal, a year of 365 days, from the funding day the figures assume; never one twelfth", () => {
    const text = paragraph(terms({}), "INTEREST");
    expect(text).toContain("from the day the loan's proceeds are credited to my account");
    expect(text).toContain("expected to be credited on Dec 31, 2026, and the disclosures and the payment amounts assume that day; if they are credited later, interest starts later and my final payment is smaller");
    expect(text).toContain("at a yearly rate of 8.50%");
    expect(text).toContain("simple interest accrued daily");
    expect(text).toContain("divided by 365");
    expect(text).toContain("not charged on unpaid interest or on fees");
    expect(text).not.toMatch(/twelfth/i);
    expect(paragraph(terms({}), "INTEREST", { ...figures, noteRateMilli: 7_125 })).toContain("at a yearly rate of 7.125%");
  });

  it("PAYMENTS: the schedule's figures and dates, then fees, interest to the day received, principal; early and late payments and the final one", () => {
    const text = paragraph(terms({}), "PAYMENTS");
    expect(text).toContain("I will pay 59 monthly payments of $1,025.83 and a final payment of $1,025.90.");
    expect(text).toContain("The first payment is due on Jan 31, 2027");
    expect(text).toContain("the last is due on Dec 31, 2031");
    expect(text).toContain("applied first to any fees then due, oldest first, then to the interest accrued to the date the payment is received, and then to principal");
    expect(text).toContain("the final payment is adjusted");
    expect(text).not.toContain("first to interest then due");
    expect(paragraph(terms({}), "PAYMENTS", { ...figures, finalPaymentCents: figures.paymentCents })).toContain("I will pay 60 monthly payments of $1,025.83 each.");
  });

  it("LATE CHARGE: the flat amount and the percent, the larger, capped, after the grace days", () => {
    expect(paragraph(terms({}), "LATE CHARGE")).toBe(
      "If any payment is not received in full within 15 days after its due date, I will pay a late charge of the greater of $25.00 or 5% of the scheduled payment, but no more than $50.00, once for that payment. The late charge does not bear interest.",
    );
  });

  it("LATE CHARGE: a flat fee only, a percent only, a third decimal kept, a grace of one day or none", () => {
    expect(paragraph(terms({ percentMilli: 0 }), "LATE CHARGE")).toContain("I will pay a late charge of $25.00, once for that payment.");
    expect(paragraph(terms({ flatCents: 0 }), "LATE CHARGE")).toContain("a late charge of 5% of the scheduled payment, but no more than $50.00,");
    expect(paragraph(terms({ flatCents: 0, percentMilli: 2_125 }), "LATE CHARGE")).toContain("2.125% of the scheduled payment");
    expect(paragraph(terms({ flatCents: 0, percentMilli: 2_500 }), "LATE CHARGE")).toContain("2.5% of the scheduled payment");
    expect(paragraph(terms({ graceDays: 1 }), "LATE CHARGE")).toContain("within 1 day after its due date");
    expect(paragraph(terms({ graceDays: 0 }), "LATE CHARGE")).toContain("If any payment is not received in full by its due date,");
    // A cap under the flat amount is a flat fee of the cap: that is all the ledger ever charges.
    expect(paragraph(terms({ flatCents: 3_000, capCents: 2_000 }), "LATE CHARGE")).toContain("a late charge of $20.00, once");
  });

  it("LATE CHARGE: none when the terms have none, and when a fee could charge nothing", () => {
    for (const none of [terms({ flatCents: 0, percentMilli: 0 }), terms({ capCents: 0 }), { ...terms({}), lateFee: null }]) {
      const text = paragraph(none, "LATE CHARGE");
      expect(text).toBe("This agreement charges no late charge.");
      expect(box(none)[0]).toBe("Late Charge: This loan has no late charge.");
    }
    expect(servicingTermsFrom(policy({ flatCents: 0, percentMilli: 0 })).lateFee).toBeNull();
    expect(paragraph(terms({}), "LATE CHARGE")).not.toContain("no late");
  });

  it("RETURNED PAYMENT: no fee, or the fee's amount", () => {
    expect(paragraph(terms({}), "RETURNED PAYMENT")).toContain("This agreement charges no fee for a payment returned unpaid by my bank.");
    expect(paragraph(terms({}, 3_500), "RETURNED PAYMENT")).toContain("I will pay a returned payment fee of $35.00.");
  });

  it("PREPAYMENT: no penalty, a partial prepayment keeps the schedule, the origination fee is not refunded (and not mentioned when there is none)", () => {
    const text = paragraph(terms({}), "PREPAYMENT");
    expect(text).toContain("without a prepayment penalty");
    expect(text).toContain("does not change the due dates or the amounts of my monthly payments unless the Lender agrees in writing");
    expect(text).toContain("The Origination Fee of $1,000.00 is a prepaid finance charge, earned when the loan is made, and is not refunded");
    expect(paragraph(terms({}), "PREPAYMENT", { ...figures, originationFeeCents: 0 })).not.toContain("Origination Fee");
  });

  it("DEFAULT: acceleration only after the notice the law requires", () => {
    expect(paragraph(terms({}), "DEFAULT")).toContain("after giving me any notice and any time to cure the default that the law requires, require me to pay at once");
  });
});

describe("the disclosure box's lines (model form H-2)", () => {
  it("Late Charge, Prepayment with the origination fee not refunded, and the contract reference", () => {
    expect(box(terms({}))).toEqual([
      "Late Charge: If a payment is more than 15 days late, you will be charged the greater of $25.00 or 5% of the payment, up to $50.00.",
      "Prepayment: If you pay off early, you will not have to pay a penalty, and you will not be entitled to a refund of part of the finance charge: the $1,000.00 origination fee is not refunded. Interest is charged only for the days the principal is unpaid.",
      "See your contract documents for any additional information about nonpayment, default, any required repayment in full before the scheduled date, and prepayment refunds and penalties.",
    ]);
    expect(disclosureBoxLines(terms({}), figures).at(-1)).toEqual({ label: null, text: CONTRACT_REFERENCE_LINE });
  });

  it("each late-fee variant, and a prepayment line without a refund clause when there is no origination fee", () => {
    expect(box(terms({ percentMilli: 0 }))[0]).toBe("Late Charge: If a payment is more than 15 days late, you will be charged $25.00.");
    expect(box(terms({ flatCents: 0 }))[0]).toBe("Late Charge: If a payment is more than 15 days late, you will be charged 5% of the payment, up to $50.00.");
    expect(box(terms({ graceDays: 0 }))[0]).toMatch(/^Late Charge: If a payment is late, you will be charged/);
    expect(box(terms({}), 0)[1]).toBe("Prepayment: If you pay off early, you will not have to pay a penalty. Interest is charged only for the days the principal is unpaid.");
  });

  it("states exactly the fee the ledger charges, after exactly its grace days, for any policy and installment", () => {
    const arbitraryPolicy = fc.record({
      graceDays: fc.integer({ min: 0, max: 30 }),
      flatCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
      percentMilli: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 25_000 })),
      capCents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000 })),
    });
    fc.assert(
      fc.property(arbitraryPolicy, fc.integer({ min: 1, max: 10_000_000 }), (p, installmentCents) => {
        const line = box(servicingTermsFrom(p))[0]!;
        const charged = lateFeeCents(installmentCents, p);
        if (line === "Late Charge: This loan has no late charge.") return charged === 0;
        const m = /^Late Charge: If a payment is (?:late|more than (\d+) days? late), you will be charged (?:the greater of (\$[\d,.]+) or )?(?:([\d.]+)% of the payment, up to (\$[\d,.]+)|(\$[\d,.]+))\.$/.exec(line);
        if (!m) throw new Error(`unexpected line: ${line}`);
        if (Number(m[1] ?? 0) !== p.graceDays) return false;
        const stated = m[5]
          ? parseMoney(m[5])!
          : Math.min(parseMoney(m[4]!)!, Math.max(m[2] ? parseMoney(m[2])! : 0, lateFeeCents(installmentCents, { ...p, flatCents: 0, capCents: Number.MAX_SAFE_INTEGER, percentMilli: rateFromPercent(Number(m[3])) })));
        return stated === charged;
      }),
      { numRuns: 2_000 },
    );
  });
});
