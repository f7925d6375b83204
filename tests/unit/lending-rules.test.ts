import { describe, expect, it } from "vitest";
import { loans } from "~/content/loans";
import { LOAN_TYPES } from "~/domain/enums";
import { durationsFor, employerRequired, isValidSsn, LOAN_RANGES } from "~/domain/lending-rules";
import { isFederalReserveRoutingSymbol, isValidRoutingNumber, routingNumberProblem } from "~/domain/routing-number";
import { APPLICATION_MESSAGES, validateApplicationFields } from "~/domain/validation/application";
import { validFields } from "../helpers/applications";

const problemWith = (changes: Record<string, string>) => {
  const result = validateApplicationFields({ ...validFields, ...changes });
  return result.ok ? null : result.problem;
};

describe("lending rules", () => {
  it("accepts real ABA routing numbers and refuses a wrong checksum", () => {
    for (const good of ["021000021", "111000025", "031000053", "026009593", "011000015", "122105278", "091000019", "322271627", "061000104"]) {
      expect(isValidRoutingNumber(good)).toBe(true);
    }
    for (const bad of ["123456789", "000000000", "021000022", "02100002", "0210000210", "02100002a"]) expect(isValidRoutingNumber(bad)).toBe(false);
  });

  it("refuses a routing number whose first two digits are no Federal Reserve routing symbol, even with a right check digit", () => {
    const symbols = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0")).filter(isFederalReserveRoutingSymbol);
    const expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 80];
    expect(symbols).toEqual(expected.map((n) => String(n).padStart(2, "0")));
    // Each has a right check digit: only the routing symbol is wrong.
    for (const bad of ["000000000", "130000006", "200000009", "501200312", "600000002", "730000005", "810000008", "999999992"]) {
      expect(routingNumberProblem(bad), bad).toBe("routingSymbol");
      expect(problemWith({ routingNumber: bad })).toEqual({ step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingSymbol });
    }
    expect(problemWith({ routingNumber: "021000022" })).toEqual({ step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingChecksum });
  });

  it("accepts SSNs the SSA issues and refuses area 000, 666, 900-999, group 00 and serial 0000", () => {
    for (const good of ["123-45-6789", "123456789", "665-01-0001", "899-99-9999"]) expect(isValidSsn(good)).toBe(true);
    for (const bad of ["000-00-0000", "000-12-3456", "666-12-3456", "900-12-3456", "999-12-3456", "123-00-4567", "123-45-0000", "12-345-6789"]) {
      expect(isValidSsn(bad)).toBe(false);
    }
  });

  it("asks retired and unemployed applicants for no employer", () => {
    expect(employerRequired("full-time")).toBe(true);
    expect(employerRequired("self-employed")).toBe(true);
    expect(employerRequired("retired")).toBe(false);
    expect(employerRequired("unemployed")).toBe(false);
  });

  it("has one range per loan type, the one the loan pages advertise", () => {
    expect(Object.keys(LOAN_RANGES).sort()).toEqual([...LOAN_TYPES].sort());
    for (const loan of loans) {
      const range = LOAN_RANGES[loan.loanType];
      expect(loan.amount).toMatchObject({ min: range.minAmount, max: range.maxAmount });
      expect(loan.term).toMatchObject({ minMonths: range.minMonths, maxMonths: range.maxMonths });
    }
    expect(durationsFor("hard-money")).toEqual([6, 12, 18, 24, 36]);
    expect(durationsFor(undefined)).toContain(360);
  });
});

describe("the application schema applies the lending rules", () => {
  it("accepts the test fixture", () => {
    expect(validateApplicationFields(validFields).ok).toBe(true);
  });

  it("refuses an amount outside the loan type's range, naming the range", () => {
    expect(problemWith({ loanAmount: "1,000" })).toEqual({ step: 2, field: "loanAmount", message: "Personal Loan amounts are from $5,000 to $5,000,000." });
    expect(problemWith({ loanAmount: "5,000,001" })?.field).toBe("loanAmount");
    expect(problemWith({ loanAmount: "5,000" })).toBeNull();
    expect(problemWith({ loanType: "business", loanAmount: "50,000" })?.message).toBe("Business Loan amounts are from $100,000 to $50,000,000.");
  });

  it("leaves the range to the type and amount rules when those fail", () => {
    expect(problemWith({ loanType: "payday", loanAmount: "abc" })?.field).toBe("loanType");
    expect(problemWith({ loanAmount: "ten" })).toEqual({ step: 2, field: "loanAmount", message: APPLICATION_MESSAGES.amount });
  });

  it("refuses a term outside the loan type's range", () => {
    const hardMoney = { loanType: "hard-money", loanAmount: "250,000", propertyAddress: "1 Main St" };
    expect(problemWith({ ...hardMoney, loanDuration: "60" })).toEqual({
      step: 2,
      field: "loanDuration",
      message: "Hard Money / Bridge Loan terms are from 6 to 36 months.",
    });
    expect(problemWith({ ...hardMoney, loanDuration: "36" })).toBeNull();
  });

  it("refuses a routing number with a wrong checksum and an SSN the SSA never issues", () => {
    expect(problemWith({ routingNumber: "123456789" })).toEqual({ step: 4, field: "routingNumber", message: APPLICATION_MESSAGES.routingChecksum });
    expect(problemWith({ routingNumber: "12345678" })?.message).toBe(APPLICATION_MESSAGES.routing);
    expect(problemWith({ ssn: "000-00-0000" })).toEqual({ step: 1, field: "ssn", message: APPLICATION_MESSAGES.ssnNotIssued });
    expect(problemWith({ ssn: "123-45-678" })?.message).toBe(APPLICATION_MESSAGES.ssn);
    expect(problemWith({ ssn: "" })).toBeNull();
  });

  it("needs an employer name unless the applicant is retired or unemployed", () => {
    expect(problemWith({ employerName: "" })).toEqual({ step: 3, field: "employerName", message: APPLICATION_MESSAGES.requiredStep3 });
    expect(problemWith({ employmentStatus: "retired", employerName: "" })).toBeNull();
    expect(problemWith({ employmentStatus: "unemployed", employerName: "" })).toBeNull();
  });
});
