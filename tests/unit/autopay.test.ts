import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  autopayAmountCents,
  autopayCancelCutoff,
  autopayDebitDay,
  autopayQueueDay,
  bankingDayOnOrBefore,
  canStopAutopayDebit,
  firstQueueDay,
  nextAutopayInstallment,
  queueDayAfter,
  unpaidThroughCents,
} from "~/domain/autopay";
import {
  AUTOPAY_AUTHORIZATION_STATEMENT,
  AUTOPAY_AUTHORIZATION_TEMPLATE,
  AUTOPAY_AUTHORIZATION_VERSION,
  autopayAmountPhrase,
  autopayAuthorizationText,
  autopayTimingPhrase,
} from "~/domain/autopay-authorization";
import { AUTOPAY_MESSAGES, autopaySchema } from "~/domain/validation/autopay";

describe("autopay days", () => {
  it("the debit day is the due date or N days before, moved back to a banking day", () => {
    expect(autopayDebitDay("2027-02-16", 0)).toBe("2027-02-16"); // a Tuesday
    expect(autopayDebitDay("2026-12-20", 0)).toBe("2026-12-18"); // Sunday → Friday
    expect(autopayDebitDay("2027-01-20", 2)).toBe("2027-01-15"); // Monday 01-18 is MLK Day → Friday
    expect(autopayDebitDay("2027-01-02", 0)).toBe("2026-12-31"); // Saturday → Friday 01-01 is a holiday → Thursday
    expect(bankingDayOnOrBefore("2026-12-25")).toBe("2026-12-24");
  });
  it("queued ten days before the debit day; cancellable through three banking days before it, and never once in a file", () => {
    expect(autopayQueueDay("2026-12-18")).toBe("2026-12-08");
    expect(autopayCancelCutoff("2026-12-18")).toBe("2026-12-15"); // Fri → Thu, Wed, Tue
    expect(autopayCancelCutoff("2026-12-28")).toBe("2026-12-22"); // Mon → Thu 24 (25th a holiday), Wed, Tue
    expect(canStopAutopayDebit("2026-12-18", "2026-12-15", false)).toBe(true);
    expect(canStopAutopayDebit("2026-12-18", "2026-12-16", false)).toBe(false);
    expect(canStopAutopayDebit("2026-12-18", "2026-12-10", true)).toBe(false);
  });
  it("the first installment covered is the first unpaid one whose debit day is on or after the next banking day", () => {
    const rows = [
      { number: 1, dueDate: "2026-12-20", paid: false },
      { number: 2, dueDate: "2027-01-20", paid: false },
      { number: 3, dueDate: "2027-02-20", paid: false },
    ];
    expect(nextAutopayInstallment(rows, 0, "2026-12-01")?.number).toBe(1);
    expect(nextAutopayInstallment(rows, 0, "2026-12-17")?.number).toBe(1); // next banking day 12-18 = the debit day
    expect(nextAutopayInstallment(rows, 0, "2026-12-18")?.number).toBe(2); // overdue or today: paid by hand
    expect(nextAutopayInstallment(rows, 0, "2026-12-01", new Set([1]))?.number).toBe(2);
    expect(firstQueueDay(rows, 0, "2026-12-01")).toBe("2026-12-08");
    expect(firstQueueDay(rows, 0, "2026-12-10")).toBe("2026-12-10"); // queue day passed: queued at once
    expect(queueDayAfter(rows, 1, 0)).toBe("2027-01-10");
    expect(queueDayAfter(rows, 3, 0)).toBeNull();
  });
});

describe("autopay amounts", () => {
  const base = { kind: "installment" as const, fixedAmountCents: null, installmentPaymentCents: 88_849, unpaidThroughCents: 88_849, feesDueCents: 0, pendingCents: 0, payoffCents: 1_000_000 };
  it("the installment due, with the fees the ledger takes first", () => {
    expect(autopayAmountCents(base)).toBe(88_849);
    expect(autopayAmountCents({ ...base, feesDueCents: 2500 })).toBe(91_349);
  });
  it("never more than one installment plus fees, less what other pending debits pay", () => {
    expect(autopayAmountCents({ ...base, unpaidThroughCents: 177_698 })).toBe(88_849);
    expect(autopayAmountCents({ ...base, unpaidThroughCents: 177_698, pendingCents: 88_849 })).toBe(88_849);
    expect(autopayAmountCents({ ...base, pendingCents: 88_849 })).toBe(0);
  });
  it("the fixed amount; never above the payoff on the debit day; nothing when paid by hand", () => {
    expect(autopayAmountCents({ ...base, kind: "fixed", fixedAmountCents: 100_000 })).toBe(100_000);
    expect(autopayAmountCents({ ...base, kind: "fixed", fixedAmountCents: 100_000, payoffCents: 40_000 })).toBe(40_000);
    expect(autopayAmountCents({ ...base, payoffCents: 50_000 })).toBe(50_000);
    expect(autopayAmountCents({ ...base, unpaidThroughCents: 0 })).toBe(0);
  });
  it("what is unpaid through an installment", () => {
    const rows = [
      { number: 1, paymentCents: 100 },
      { number: 2, paymentCents: 100 },
    ];
    expect(unpaidThroughCents(rows, 2, 150)).toBe(50);
    expect(unpaidThroughCents(rows, 1, 150)).toBe(0);
  });
});

describe("autopay authorisation (Reg E 1005.10(b), (e))", () => {
  it("says the debits recur, their amount and timing, the account, how to cancel, and that autopay is optional", () => {
    const text = autopayAuthorizationText({ lender: "Private Loans", amount: autopayAmountPhrase("$950.00"), timing: autopayTimingPhrase(3), account: "Checking ••••1234" }).join("\n");
    expect(text).toContain("recurring electronic debits (ACH) from my Checking ••••1234, once a month");
    expect(text).toContain("until the loan is paid in full or I cancel autopay");
    expect(text).toContain("$950.00 each month");
    expect(text).toContain("3 days before each installment's due date");
    expect(text).toContain("the banking day before");
    expect(text).toContain("at least 10 days before");
    expect(text).toContain("Cancel Autopay on my loan's page");
    expect(text).toContain("at least 3 business days before a scheduled debit");
    expect(text).toContain("the loan is not conditioned on it");
    expect(text).not.toMatch(/\{(lender|amount|timing|account)\}/);
    expect(autopayTimingPhrase(0)).toBe("on each installment's due date");
    expect(autopayAmountPhrase(null)).toContain("including any fees due");
  });
  it("a changed word needs a new version: the version is pinned to the template's hash", () => {
    // When this fails you changed the authorisation text: give it a new AUTOPAY_AUTHORIZATION_VERSION and
    // update both values here. Authorisations already given keep the version they were given under.
    const hash = createHash("sha256")
      .update([...AUTOPAY_AUTHORIZATION_TEMPLATE, AUTOPAY_AUTHORIZATION_STATEMENT].join("\n"))
      .digest("hex")
      .slice(0, 16);
    expect({ version: AUTOPAY_AUTHORIZATION_VERSION, hash }).toEqual({ version: "2026-12-06.1", hash: PINNED_HASH });
  });
});

describe("autopay schema", () => {
  const base = { intent: "setup-autopay", bankAccountId: "0B0E4B1C-1111-4222-8333-444455556666", amountKind: "installment", daysBeforeDue: "0", authorize: "on" };
  it("parses a set up, a change and a cancel", () => {
    expect(autopaySchema.safeParse(base).data).toEqual({ intent: "setup-autopay", bankAccountId: "0b0e4b1c-1111-4222-8333-444455556666", amountKind: "installment", fixedAmountCents: null, daysBeforeDue: 0, authorize: true });
    expect(autopaySchema.safeParse({ ...base, intent: "change-autopay", amountKind: "fixed", fixedAmount: "$1,000.50", daysBeforeDue: "5" }).data).toMatchObject({ fixedAmountCents: 100_050, daysBeforeDue: 5 });
    expect(autopaySchema.safeParse({ intent: "cancel-autopay" }).data).toEqual({ intent: "cancel-autopay" });
  });
  it("refuses a missing or malformed amount, a day beyond 5, no checkbox, a bad account, an unknown intent", () => {
    const message = (v: Record<string, unknown>) => autopaySchema.safeParse(v).error?.issues[0]?.message;
    expect(message({ ...base, amountKind: "fixed" })).toBe(AUTOPAY_MESSAGES.amountRequired);
    expect(message({ ...base, amountKind: "fixed", fixedAmount: "1e3" })).toBe(AUTOPAY_MESSAGES.amountFormat);
    expect(message({ ...base, amountKind: "fixed", fixedAmount: "0" })).toBe(AUTOPAY_MESSAGES.amountFormat);
    expect(message({ ...base, daysBeforeDue: "6" })).toBe(AUTOPAY_MESSAGES.daysBeforeDue);
    expect(message({ ...base, daysBeforeDue: "-1" })).toBe(AUTOPAY_MESSAGES.daysBeforeDue);
    expect(message({ ...base, authorize: undefined })).toBe(AUTOPAY_MESSAGES.authorize);
    expect(message({ ...base, bankAccountId: "1" })).toBe(AUTOPAY_MESSAGES.bankAccount);
    expect(autopaySchema.safeParse({ ...base, intent: "pay" }).success).toBe(false);
  });
});

const PINNED_HASH = "813db17b102130db";
