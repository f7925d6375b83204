import { describe, expect, it } from "vitest";
import { APPROVE_PREVIEW_MESSAGES, previewApproval } from "~/components/admin/applications/approve-dialog";
import { disclosure } from "~/domain/truth-in-lending";

/** The approve dialog's live preview (issue 20): the Truth in Lending payment and APR, and the Counteroffer rule. */

const requested = { requestedAmount: 50_000, desiredInterestRate: 8.5, loanDuration: 60 };
const values = (over: Partial<Record<"approvedAmount" | "interestRate" | "termMonths" | "originationFeePercent", string>> = {}) => ({
  approvedAmount: "50000",
  interestRate: "8.5",
  termMonths: "60",
  originationFeePercent: "1.00",
  ...over,
});

describe("previewApproval", () => {
  it("gives the disclosure's payment and APR; the requested terms are no Counteroffer", () => {
    const expected = disclosure({ amountCents: 5_000_000, noteRatePercent: 8.5, termMonths: 60, originationFeePercent: 1, signedOn: "2026-11-24" });
    expect(previewApproval(values(), requested)).toEqual({ kind: "ok", paymentCents: expected.paymentCents, aprPercent: expected.aprPercent, counteroffer: false });
  });

  it("less money, a higher rate or another term is a Counteroffer; more money or a lower rate alone is not", () => {
    const counter = (over: Parameters<typeof values>[0]) => {
      const p = previewApproval(values(over), requested);
      return p.kind === "ok" ? p.counteroffer : p.kind;
    };
    expect(counter({ approvedAmount: "49999.99" })).toBe(true);
    expect(counter({ interestRate: "8.51" })).toBe(true);
    expect(counter({ termMonths: "48" })).toBe(true);
    expect(counter({ termMonths: "72" })).toBe(true);
    expect(counter({ approvedAmount: "60000" })).toBe(false);
    expect(counter({ interestRate: "7.99" })).toBe(false);
    expect(counter({ originationFeePercent: "5" })).toBe(false);
  });

  it("is incomplete while a term is not valid (a fee over 10 %, a term over 480 months), and gives the server's message for terms the disclosure cannot describe", () => {
    expect(previewApproval(values({ originationFeePercent: "10.01" }), requested)).toEqual({ kind: "incomplete" });
    expect(previewApproval(values({ termMonths: "481" }), requested)).toEqual({ kind: "incomplete" });
    expect(previewApproval(values({ approvedAmount: "" }), requested)).toEqual({ kind: "incomplete" });
    expect(previewApproval(values({ approvedAmount: "0.01", interestRate: "35", termMonths: "480" }), requested)).toEqual({
      kind: "error",
      field: "termMonths",
      message: APPROVE_PREVIEW_MESSAGES.notAmortising,
    });
  });

  it("refuses an APR above MAX_APR with the computed APR in the message: a 10 % fee on a 35.99 % loan, or a note rate over the cap", () => {
    const high = previewApproval(values({ interestRate: "35.99", originationFeePercent: "10", termMonths: "12" }), requested);
    const expected = disclosure({ amountCents: 5_000_000, noteRatePercent: 35.99, termMonths: 12, originationFeePercent: 10, signedOn: "2026-11-24" });
    expect(expected.aprPercent).toBeGreaterThan(50);
    expect(high).toMatchObject({ kind: "ok", aprPercent: expected.aprPercent });
    expect(high.kind === "ok" && high.aboveCap).toEqual({
      field: "originationFeePercent",
      message: `The APR of these terms is ${expected.aprPercent.toFixed(2)}%, above the 35.99% APR we offer at most. Choose a lower interest rate or origination fee.`,
    });
    // The note rate alone over a lower cap points at Interest Rate.
    const rate = previewApproval(values({ interestRate: "30", originationFeePercent: "0" }), requested, 29.5);
    expect(rate.kind === "ok" && rate.aboveCap?.field).toBe("interestRate");
    // At the cap exactly, and under it, nothing is refused.
    const atCap = previewApproval(values({ interestRate: "35.99", originationFeePercent: "0" }), requested);
    expect(atCap).toMatchObject({ kind: "ok", aprPercent: 35.99 });
    expect(atCap.kind === "ok" && atCap.aboveCap).toBeFalsy();
    expect(previewApproval(values(), requested, 8.5)).toMatchObject({ kind: "ok", aboveCap: { field: "originationFeePercent" } });
  });
});
