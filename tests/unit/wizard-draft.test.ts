import { describe, expect, it } from "vitest";
import { maskAccount, maskRouting, maskSsn, sizeInKb } from "~/components/apply/review-masks";
import { parseDraft, restoreStep, serializeDraft } from "~/components/apply/wizard-draft";
import { checkDocuments, checkSchemaStep, stepOfField } from "~/components/apply/wizard-steps";
import { buildSubmission, newIdempotencyKey } from "~/components/apply/wizard-submission";
import { applyEstimate, birthYears, composeDateOfBirth, daysInMonth, emptyValues, schemaInput, type WizardValues } from "~/components/apply/wizard-values";
import { estimateKey, isCompleteEstimate, parsePriorEstimate } from "~/domain/calculator-link";
import { APPLICATION_MESSAGES, APPLICATION_TEXT_FIELDS, validateApplicationFields } from "~/domain/validation/application";
import { applicantContact } from "../helpers/applications";
import { expectResults } from "../helpers/expect-results";

/** The wizard's pure logic: estimate hand-off, step checks, the session draft and the submission body. */

function complete(): WizardValues {
  return {
    ...emptyValues("jane@example.com"),
    firstName: "Jane",
    middleInitial: "Q",
    lastName: "Doe-Smith",
    dobMonth: "04",
    dobDay: "12",
    dobYear: "1988",
    ssn: "123-45-6789",
    ...applicantContact,
    loanType: "personal",
    loanAmount: "25,000",
    desiredInterestRate: "9.5",
    loanDuration: "36",
    loanPurpose: "Consolidating two credit cards",
    employmentStatus: "full-time",
    employerName: "Acme Corp",
    monthlyIncome: "8,500",
    hasOutstandingLoans: true,
    accountHolderName: "Jane Doe-Smith",
    bankName: "First Bank",
    accountNumber: "000123456789",
    routingNumber: "021000021",
    agreeToTerms: true,
  };
}

describe("the prior estimate from the query", () => {
  it("reads the calculator's four figures", () => {
    const estimate = parsePriorEstimate(new URLSearchParams("loanAmount=25000&interestRate=9.5&loanTerm=36&monthlyPayment=800.12"));
    expect(estimate).toEqual({ loanAmount: 25000, interestRate: 9.5, loanTerm: 36, monthlyPayment: 800.12 });
    expect(isCompleteEstimate(estimate)).toBe(true);
  });

  it("drops garbage, keeps what is sensible, and is null when nothing is", () => {
    expect(parsePriorEstimate(new URLSearchParams(""))).toBeNull();
    expect(parsePriorEstimate(new URLSearchParams("loanAmount=abc&interestRate=-3&loanTerm=37&monthlyPayment=1e9"))).toBeNull();
    expect(parsePriorEstimate(new URLSearchParams("loanAmount=<script>&interestRate=9.5"))).toEqual({ interestRate: 9.5 });
    const partial = parsePriorEstimate(new URLSearchParams("loanAmount=50,000&loanTerm=60"));
    expect(partial).toEqual({ loanAmount: 50000, loanTerm: 60 });
    expect(isCompleteEstimate(partial)).toBe(false);
    expect(parsePriorEstimate(new URLSearchParams("loanAmount=0&interestRate=101&loanTerm=0"))).toBeNull();
  });

  it("pre-fills amount (with separators), rate and duration", () => {
    const values = applyEstimate(emptyValues(), { loanAmount: 1250000, interestRate: 8.5, loanTerm: 60, monthlyPayment: 1 });
    expect(values.loanAmount).toBe("1,250,000");
    expect(values.desiredInterestRate).toBe("8.5");
    expect(values.loanDuration).toBe("60");
    expect(estimateKey({ loanAmount: 1, interestRate: 2, loanTerm: 6, monthlyPayment: 3 })).toBe("1|2|6|3");
  });

  it("keeps the cents of a hand-off's amount, so step 2 refuses them instead of rounding them away", () => {
    const values = applyEstimate(emptyValues(), { loanAmount: 12345.67, interestRate: 8.5, loanTerm: 60, monthlyPayment: 253.29 });
    expect(values.loanAmount).toBe("12,345.67");
    const check = checkSchemaStep(2, { ...complete(), loanAmount: values.loanAmount });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.first).toEqual({ field: "loanAmount", message: "Please enter the loan amount in whole dollars, without cents" });
  });
});

describe("the signed-in account's name and e-mail", () => {
  it("fill step 1's names and e-mail: the last word is the last name", () => {
    expect(emptyValues("jane@example.com", "Jane Applicant")).toMatchObject({ firstName: "Jane", lastName: "Applicant", email: "jane@example.com" });
    expect(emptyValues("", "  Mary  Ann   Doe-Smith ")).toMatchObject({ firstName: "Mary Ann", lastName: "Doe-Smith" });
    expect(emptyValues("", "Cher")).toMatchObject({ firstName: "Cher", lastName: "" });
    expect(emptyValues()).toMatchObject({ firstName: "", lastName: "", email: "" });
  });
});

describe("step checks", () => {
  it("step 1: empty → the required message on the first field", () => {
    const check = checkSchemaStep(1, emptyValues());
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.first).toEqual({ field: "firstName", message: APPLICATION_MESSAGES.requiredStep1 });
    expect(check.errors.dateOfBirth).toBe(APPLICATION_MESSAGES.requiredStep1);
    expect(check.errors.email).toBe(APPLICATION_MESSAGES.requiredStep1);
  });

  it("step 1: ZIP and a partly chosen date of birth", () => {
    const check = checkSchemaStep(1, { ...complete(), zipCode: "123" });
    expect(check.ok ? null : check.first).toEqual({ field: "zipCode", message: APPLICATION_MESSAGES.zip });
    expect(composeDateOfBirth({ dobMonth: "4", dobDay: "2", dobYear: "1990" })).toBe("1990-04-02");
    expect(composeDateOfBirth({ dobMonth: "04", dobDay: "", dobYear: "1990" })).toBe("");
  });

  it("every step of a complete application passes", () => {
    for (const step of [1, 2, 3, 4, 5] as const) expect(checkSchemaStep(step, complete()).ok).toBe(true);
  });

  it("fields of another loan type are neither checked nor sent", () => {
    const values = { ...complete(), loanType: "personal", businessYears: "-4", propertyAddress: "somewhere" };
    expect(checkSchemaStep(2, values).ok).toBe(true);
    expect(schemaInput(values).businessYears).toBe("");
    expect(schemaInput(values).propertyAddress).toBe("");
    const hardMoney = checkSchemaStep(2, { ...complete(), loanType: "hard-money", loanAmount: "250,000" });
    expect(hardMoney.ok ? null : hardMoney.first.field).toBe("propertyAddress");
  });

  it("step 3: credit score range; step 4: documents before bank fields", () => {
    const score = checkSchemaStep(3, { ...complete(), creditScore: "900" });
    expect(score.ok ? null : score.first.message).toBe(APPLICATION_MESSAGES.creditScore);
    const docs = checkDocuments({ idCardFront: { name: "a.png", size: 1 } });
    expect(docs.ok ? null : docs.first).toEqual({ field: "idCardBack", message: APPLICATION_MESSAGES.documents });
    expect(docs.ok ? {} : docs.errors).not.toHaveProperty("collateralDocs");
    const routing = checkSchemaStep(4, { ...complete(), routingNumber: "02100002" });
    expect(routing.ok ? null : routing.first.message).toBe(APPLICATION_MESSAGES.routing);
  });

  it("knows which step each server field belongs to", () => {
    expectResults(stepOfField, [
      ["zipCode", 1],
      ["loanPurpose", 2],
      ["creditScore", 3],
      ["idCardBack", 4],
      ["routingNumber", 4],
      ["signature", 5],
      ["agreeToTerms", 5],
      ["nope", null],
    ]);
  });
});

describe("the session draft", () => {
  it("never holds the SSN, the bank numbers or the consent", () => {
    const raw = serializeDraft({ userId: "u1", step: 3, values: complete(), estimateKey: "k" });
    expect(raw).not.toContain("6789");
    expect(raw).not.toContain("021000021");
    expect(raw).not.toContain("agreeToTerms");
    const draft = parseDraft(raw, "u1")!;
    expect(draft.step).toBe(3);
    expect(draft.values.firstName).toBe("Jane");
    expect(draft.values.hasOutstandingLoans).toBe(true);
    expect(draft.values.ssn).toBeUndefined();
    expect(draft.estimateKey).toBe("k");
  });

  it("ignores another user's draft, bad JSON, wrong types and unknown or sensitive keys", () => {
    const raw = serializeDraft({ userId: "u1", step: 2, values: complete(), estimateKey: null });
    expect(parseDraft(raw, "u2")).toBeNull();
    expect(parseDraft("{not json", "u1")).toBeNull();
    expect(parseDraft(JSON.stringify({ v: 1, userId: "u1", step: 9, values: {} }), "u1")).toBeNull();
    const tampered = parseDraft(
      JSON.stringify({ v: 1, userId: "u1", step: 2, values: { firstName: 5, city: "Dover", ssn: "123456789", evil: "x", hasOutstandingLoans: "yes" } }),
      "u1",
    )!;
    expect(tampered.values).toEqual({ city: "Dover" });
  });

  it("reopens on the saved step, at most step 4, or on the first earlier step that no longer passes", () => {
    expect(restoreStep(3, complete())).toBe(3);
    expect(restoreStep(5, complete())).toBe(4);
    expect(restoreStep(3, { ...complete(), zipCode: "" })).toBe(1);
    expect(restoreStep(4, { ...complete(), employerName: "" })).toBe(3);
  });
});

describe("the submission body", () => {
  it("carries exactly the fields the server accepts, the files, the signature PNG and the key", async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
    const doc = new File(["%PDF-1.4"], "statement.pdf", { type: "application/pdf" });
    const body = buildSubmission(complete(), { idCardFront: doc, bankStatement1: doc }, png, "0f8b2d4e-1c1a-4d8e-9a55-2f0c4c7b9e11");
    const textFields = [...body.entries()].filter(([, v]) => typeof v === "string").map(([k]) => k);
    expect(new Set(textFields)).toEqual(new Set(APPLICATION_TEXT_FIELDS));
    expect(textFields.length).toBe(APPLICATION_TEXT_FIELDS.length);
    expect(body.get("agreeToTerms")).toBe("true");
    expect(body.get("hasOutstandingLoans")).toBe("true");
    expect(body.get("authorizeCreditReport")).toBe("");
    expect(body.get("dateOfBirth")).toBe("1988-04-12");
    expect((body.get("signature") as File).name).toBe("signature.png");
    expect((body.get("idCardFront") as File).name).toBe("statement.pdf");
    expect(body.get("idCardBack")).toBeNull();
    const fields = Object.fromEntries([...body.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    expect(validateApplicationFields(fields).ok).toBe(true);
  });

  it("makes v4 UUID idempotency keys the server accepts, with or without crypto.randomUUID", () => {
    const pattern = /^[A-Za-z0-9_-]{16,64}$/;
    expect(newIdempotencyKey()).toMatch(pattern);
    const fallback = newIdempotencyKey({ getRandomValues: (a) => crypto.getRandomValues(a) });
    expect(fallback).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("formats for the wizard", () => {
  it("masks sensitive values for the review", () => {
    expect(maskSsn("123-45-6789")).toBe("***-**-6789");
    expect(maskSsn("")).toBe("");
    expect(maskAccount("000123456789")).toBe("••••6789");
    expect(maskRouting("021000021")).toBe("•••••••21");
  });

  it("sizes in KB, days in a month, years from now down to 1900", () => {
    expect(sizeInKb(2048)).toBe("2.0 KB");
    expect(sizeInKb(5 * 1024 * 1024)).toBe("5,120.0 KB");
    expect(daysInMonth(2, 2023)).toBe(28);
    expect(daysInMonth(2)).toBe(29);
    expect(daysInMonth(4, 1990)).toBe(30);
    const years = birthYears(new Date("2026-05-01T12:00:00Z"));
    expect(years[0]).toBe(2026);
    expect(years.at(-1)).toBe(1900);
    expect(years.length).toBe(127);
  });
});
