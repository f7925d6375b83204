import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ACH_AUTHORIZATION_STATEMENT, ACH_AUTHORIZATION_TEMPLATE, ACH_AUTHORIZATION_VERSION, achAuthorizationText } from "~/domain/ach-authorization";
import { loanDocumentQuerySchema, makePaymentSchema, parseDollarsToCents } from "~/domain/validation/make-payment";

describe("ACH debit authorisation (Reg E / NACHA)", () => {
  it("names the amount, the account's last four, the date, one time only and how to revoke", () => {
    const text = achAuthorizationText({ lender: "Private Loans", amount: "$812.34", account: "checking account ending in 1234", date: "November 24, 2026" }).join("\n");
    expect(text).toContain("one-time electronic debit (ACH) of $812.34 from my checking account ending in 1234 on or after November 24, 2026");
    expect(text).toMatch(/revoke this authorization/);
    expect(text).toMatch(/does not authorize any other or recurring debits/);
    expect(text).not.toMatch(/\{(lender|amount|account|date)\}/);
  });
  it("a changed word needs a new version: the version is pinned to the template's hash", () => {
    // When this fails you changed the authorisation text: give it a new ACH_AUTHORIZATION_VERSION and
    // update both values here. Payments already authorised keep the version they were given under.
    const hash = createHash("sha256")
      .update([...ACH_AUTHORIZATION_TEMPLATE, ACH_AUTHORIZATION_STATEMENT].join("\n"))
      .digest("hex")
      .slice(0, 16);
    expect({ version: ACH_AUTHORIZATION_VERSION, hash }).toEqual({ version: "2026-11-24.1", hash: PINNED_HASH });
  });
});

describe("Make a Payment schema", () => {
  const base = { intent: "pay", bankAccountId: "0b0e4b1c-1111-4222-8333-444455556666", authorize: "on" };
  it("parses dollars to cents without floats", () => {
    expect(parseDollarsToCents("0.10")).toBe(10);
    expect(parseDollarsToCents("$1,234.5")).toBe(123_450);
    expect(parseDollarsToCents("19.99")).toBe(1999);
    for (const bad of ["", "1e3", "-1", "1.234", "12,34", "abc", "1 000"]) expect(parseDollarsToCents(bad), bad).toBeNull();
  });
  it("needs an amount only for 'amount', more than zero; the checkbox; a uuid account", () => {
    expect(makePaymentSchema.safeParse({ ...base, choice: "installment" }).success).toBe(true);
    expect(makePaymentSchema.safeParse({ ...base, choice: "amount" }).success).toBe(false);
    expect(makePaymentSchema.safeParse({ ...base, choice: "amount", amount: "0.00" }).success).toBe(false);
    expect(makePaymentSchema.safeParse({ ...base, choice: "amount", amount: "25" }).data?.amountCents).toBe(2500);
    expect(makePaymentSchema.safeParse({ ...base, choice: "payoff", authorize: undefined }).success).toBe(false);
    expect(makePaymentSchema.safeParse({ ...base, choice: "payoff", bankAccountId: "1" }).success).toBe(false);
    expect(makePaymentSchema.safeParse({ ...base, choice: "other" }).success).toBe(false);
  });
  it("document queries", () => {
    expect(loanDocumentQuerySchema.safeParse({ kind: "payoff", date: "2026-12-01" }).success).toBe(true);
    expect(loanDocumentQuerySchema.safeParse({ kind: "payoff", date: "2026-02-30" }).success).toBe(false);
    expect(loanDocumentQuerySchema.safeParse({ kind: "statement", month: "2026-11" }).success).toBe(true);
    expect(loanDocumentQuerySchema.safeParse({ kind: "statement", month: "2026-1" }).success).toBe(false);
    expect(loanDocumentQuerySchema.safeParse({ kind: "paid-in-full" }).success).toBe(true);
  });
});

const PINNED_HASH = "9004ece17aa3b25a";
