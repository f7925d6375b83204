import { describe, expect, it } from "vitest";
import { achActionSchema, achFormInput } from "~/domain/validation/ach";
import { recordValidationSchema, STAFF_VALIDATION_METHODS } from "~/domain/validation/account-validation";
import { borrowerValidationText, isValidated, validationStateText, type AccountValidationView } from "~/domain/views/account-validation";

/**
 * The forms and words of bank account validation: Record Validation's schema (no prenote by hand, a
 * reference of 3–100 characters), the ACH page's Mark Returned for a prenote, and what staff and the
 * borrower read for each state.
 */

const base: AccountValidationView = {
  validationId: "11111111-1111-4111-8111-111111111111",
  bankAccountId: "22222222-2222-4222-8222-222222222222",
  status: "pending",
  method: "prenote",
  secCode: "PPD",
  direction: "credit",
  effectiveDate: null,
  readyOn: null,
  validatedAt: null,
  returnCode: null,
  returnedOn: null,
  reference: null,
  recordedBy: null,
};

describe("Record Validation's schema", () => {
  const valid = { intent: "record-validation", bankAccountId: base.bankAccountId, method: "bank_letter", reference: "Letter of 20 Nov" };
  it("takes a staff method and a reference, trimmed", () => {
    expect(recordValidationSchema.parse({ ...valid, reference: "  AVS-1  " })).toMatchObject({ method: "bank_letter", reference: "AVS-1" });
    expect(STAFF_VALIDATION_METHODS).toEqual(["prior_payment", "account_verification_service", "bank_letter"]);
  });
  it("refuses a prenote by hand, a short or long reference, control characters and a bad account id", () => {
    expect(recordValidationSchema.safeParse({ ...valid, method: "prenote" }).success).toBe(false);
    expect(recordValidationSchema.safeParse({ ...valid, reference: "ab" }).success).toBe(false);
    expect(recordValidationSchema.safeParse({ ...valid, reference: "x".repeat(101) }).success).toBe(false);
    expect(recordValidationSchema.safeParse({ ...valid, reference: "abc\u0000def" }).success).toBe(false);
    expect(recordValidationSchema.safeParse({ ...valid, bankAccountId: "nope" }).success).toBe(false);
    expect(recordValidationSchema.safeParse({ ...valid, reference: undefined }).success).toBe(false);
  });
});

describe("Mark Returned for a prenote (the ACH page)", () => {
  const form = (fields: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) data.set(k, v);
    return achActionSchema.safeParse(achFormInput(data));
  };
  it("takes the prenote, a listed return code and a real date", () => {
    expect(form({ intent: "return-prenote", validationId: base.validationId, returnCode: "R03", returnedOn: "2026-11-25" }).success).toBe(true);
  });
  it("refuses an unknown code, an impossible date and a missing prenote", () => {
    expect(form({ intent: "return-prenote", validationId: base.validationId, returnCode: "R99", returnedOn: "2026-11-25" }).success).toBe(false);
    expect(form({ intent: "return-prenote", validationId: base.validationId, returnCode: "R03", returnedOn: "2026-02-30" }).success).toBe(false);
    expect(form({ intent: "return-prenote", returnCode: "R03", returnedOn: "2026-11-25" }).success).toBe(false);
  });
});

describe("the words for each state", () => {
  it("staff", () => {
    expect(validationStateText(null)).toBe("Not validated: no prenote or other validation is on file.");
    expect(validationStateText(base)).toBe("Prenote queued for the next ACH file.");
    expect(validationStateText({ ...base, status: "sent", effectiveDate: "2026-11-25", readyOn: "2026-11-30" })).toBe("Prenote sent, effective Nov 25, 2026: validated on Nov 30, 2026 unless the bank returns it.");
    expect(validationStateText({ ...base, status: "validated", method: "bank_letter", validatedAt: "2026-11-20T15:00:00.000Z" })).toBe("Validated (Bank letter or voided check) on Nov 20, 2026.");
    expect(validationStateText({ ...base, status: "failed", returnCode: "R03", returnedOn: "2026-11-26" })).toBe(
      "Prenote returned (R03 No Account/Unable to Locate Account) on Nov 26, 2026: another account is needed.",
    );
  });
  it("the borrower", () => {
    expect(borrowerValidationText({ ...base, status: "validated" })).toBe("Validated");
    expect(borrowerValidationText({ ...base, status: "sent", effectiveDate: "2026-11-25", readyOn: "2026-11-30" })).toBe("Being validated: ready by Nov 30, 2026");
    expect(borrowerValidationText({ ...base, status: "failed", returnCode: "R02" })).toBe("Returned by the bank: add another account");
    expect(isValidated({ ...base, status: "validated" })).toBe(true);
    expect(isValidated(base)).toBe(false);
    expect(isValidated(null)).toBe(false);
  });
});
