import { describe, expect, it } from "vitest";
import { APPROVE_PREVIEW_MESSAGES, previewApproval } from "~/components/admin/applications/approve-dialog";
import { disclosure } from "~/domain/truth-in-lending";

/** The approve dialog's live preview (issue 20): the Truth in Lending payment and APR, and the Counteroffer rule. */

/** The signing day the previews are computed for (the figures depend on it: interest accrues by the day). */
const DAY = "2026-11-24";
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
    const expected = disclosure({ amountCents: 5_000_000, noteRateMilli: 8500, termMonths: 60, originationFeeMilli: 1000, signedOn: DAY });
    expect(previewApproval(values(), requested, undefined, DAY)).toEqual({ kind: "ok", paymentCents: expected.paymentCents, aprPercent: expected.aprPercent, counteroffer: false });
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
    const high = previewApproval(values({ interestRate: "35.99", originationFeePercent: "10", termMonths: "12" }), requested, undefined, DAY);
    const expected = disclosure({ amountCents: 5_000_000, noteRateMilli: 35_990, termMonths: 12, originationFeeMilli: 10_000, signedOn: DAY });
    expect(expected.aprPercent).toBeGreaterThan(50);
    expect(high).toMatchObject({ kind: "ok", aprPercent: expected.aprPercent });
    expect(high.kind === "ok" && high.aboveCap).toEqual({
      field: "originationFeePercent",
      message: `The APR of these terms is ${expected.aprPercent.toFixed(2)}%, above the 35.99% APR we offer at most. Choose a lower interest rate or origination fee.`,
    });
    // The note rate alone over a lower cap points at Interest Rate.
    const rate = previewApproval(values({ interestRate: "30", originationFeePercent: "0" }), requested, 29.5, DAY);
    expect(rate.kind === "ok" && rate.aboveCap?.field).toBe("interestRate");
    // At the cap exactly, and under it, nothing is refused. Interest accrues by the day, so the APR of a
    // fee-free loan is the note rate only on some signing days: signed November 24, 2026, $50,000 at
    // 35.99 % for 60 months has an APR of 35.99 % (recomputed by an independent script; signed
    // December 5 it would be 36.01 %, above the cap).
    const atCap = previewApproval(values({ interestRate: "35.99", originationFeePercent: "0" }), requested, undefined, DAY);
    expect(atCap).toMatchObject({ kind: "ok", aprPercent: 35.99 });
    expect(atCap.kind === "ok" && atCap.aboveCap).toBeFalsy();
    const dayLater = previewApproval(values({ interestRate: "35.99", originationFeePercent: "0" }), requested, undefined, "2026-12-05");
    expect(dayLater).toMatchObject({ kind: "ok", aprPercent: 36.01 });
    expect(dayLater.kind === "ok" && dayLater.aboveCap?.message).toMatch(/^The APR of these terms is 36\.01%, above the 35\.99% APR/);
    expect(previewApproval(values(), requested, 8.5, DAY)).toMatchObject({ kind: "ok", aboveCap: { field: "originationFeePercent" } });
  });
});
