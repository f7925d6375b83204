import { describe, expect, it } from "vitest";
import { ACCOUNT_NUMBER_HINT, ACCOUNT_NUMBER_MESSAGE, isValidAccountNumber } from "~/domain/bank-account-number";
import { APPLICATION_MESSAGES, validateApplicationFields } from "~/domain/validation/application";
import { checkDraftFields } from "~/domain/validation/application-draft";
import { validFields } from "../helpers/applications";

const problemWith = (changes: Record<string, string>) => {
  const result = validateApplicationFields({ ...validFields, ...changes });
  return result.ok ? null : result.problem;
};

describe("bank account number rule", () => {
  it("accepts 4 to 17 digits, as credit unions and banks issue them", () => {
    for (const good of ["1234", "123456", "123456789", "1234567890", "12345678901234567"]) expect(isValidAccountNumber(good), good).toBe(true);
    for (const bad of ["", "123", "123456789012345678", "12a456", "12 3456", "-123456", "１２３４５６"]) expect(isValidAccountNumber(bad), bad).toBe(false);
  });

  it("says the same range in the hint and in the message", () => {
    expect(ACCOUNT_NUMBER_HINT).toBe("4-17 digits");
    expect(ACCOUNT_NUMBER_MESSAGE).toBe("Account number must be between 4 and 17 digits");
    expect(APPLICATION_MESSAGES.account).toBe(ACCOUNT_NUMBER_MESSAGE);
  });

  it("lets an application with a 6-digit account number through the server's schema, spaces removed", () => {
    const result = validateApplicationFields({ ...validFields, accountNumber: "482 913" });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.accountNumber).toBe("482913");
  });

  it("refuses 3 digits and 18 digits with the message, on step 4", () => {
    for (const bad of ["123", "123456789012345678"]) {
      expect(problemWith({ accountNumber: bad })).toEqual({ step: 4, field: "accountNumber", message: "Account number must be between 4 and 17 digits" });
    }
  });

  it("keeps a draft's 4-digit account number and refuses a 3-digit one", () => {
    expect(checkDraftFields({ accountNumber: "4821" })).toEqual({ ok: true, value: { accountNumber: "4821" } });
    expect(checkDraftFields({ accountNumber: "482" })).toMatchObject({ ok: false, problem: { field: "accountNumber", message: ACCOUNT_NUMBER_MESSAGE } });
  });
});
