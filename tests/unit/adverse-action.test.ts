import { describe, expect, it } from "vitest";
import { CONSUMER_REPORT_DISCLOSURE, CREDIT_SCORE_DISCLOSURE, denialSourceNotice, OWN_INFORMATION_NOTICE, readDenialSource } from "~/domain/adverse-action";
import { denySchema, REVIEW_MESSAGES } from "~/domain/validation/review";
import { CONTROL_CHARACTER_MESSAGE } from "~/domain/validation/text-rules";
import { applicationDeniedEmail } from "~/server/platform/mail/templates.server";

/**
 * The deny dialog's schema (where the information came from) and the notice of action taken with and
 * without a consumer report: the FCRA disclosures in the words of Regulation B's model form C-3.
 */

const APP = "3f0c8a52-9d4e-4b7a-8f3e-2a1b0c9d8e7f";
const base = { intent: "deny", applicationId: APP, reasons: ["Credit history"] };
const bureau = {
  creditSource: "consumer_report",
  agencyName: "Equifax Information Services LLC",
  agencyAddress: "P.O. Box 740241, Atlanta, GA 30374",
  agencyPhone: "1-800-685-1111",
};
const score = {
  scoreUsed: "yes",
  creditScore: "580",
  scoreRangeLow: "300",
  scoreRangeHigh: "850",
  scoreDate: "2026-11-20",
  keyFactors: ["Serious delinquency", "Proportion of balances to credit limits is too high", "", ""],
  inquiriesFactor: "yes",
};
const errorsOf = (input: Record<string, unknown>) => {
  const result = denySchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("the deny dialog's schema", () => {
  it("without a source the decision rests on the applicant's own information", () => {
    expect(denySchema.parse(base)).toEqual({ ...base, source: { kind: "applicant" } });
    expect(denySchema.parse({ ...base, creditSource: "applicant", agencyName: "ignored" }).source).toEqual({ kind: "applicant" });
  });

  it("a consumer report needs its agency; the phone is kept as (XXX) XXX-XXXX", () => {
    expect(errorsOf({ ...base, creditSource: "consumer_report" })).toEqual({
      agencyName: REVIEW_MESSAGES.agencyName,
      agencyAddress: REVIEW_MESSAGES.agencyAddress,
      agencyPhone: REVIEW_MESSAGES.agencyPhone,
    });
    expect(denySchema.parse({ ...base, ...bureau }).source).toEqual({
      kind: "consumer_report",
      agency: { name: "Equifax Information Services LLC", address: "P.O. Box 740241, Atlanta, GA 30374", phone: "(800) 685-1111" },
      score: null,
    });
    expect(errorsOf({ ...base, ...bureau, agencyPhone: "555-0100" })).toEqual({ agencyPhone: REVIEW_MESSAGES.agencyPhone });
    expect(errorsOf({ ...base, creditSource: "a friend" })).toEqual({ creditSource: REVIEW_MESSAGES.creditSource });
  });

  it("a score comes with its range, date and one to four key factors (blank factors dropped), inquiries apart", () => {
    expect(denySchema.parse({ ...base, ...bureau, ...score }).source).toMatchObject({
      score: {
        score: 580,
        rangeLow: 300,
        rangeHigh: 850,
        scoreDate: "2026-11-20",
        keyFactors: ["Serious delinquency", "Proportion of balances to credit limits is too high"],
        inquiriesFactor: true,
      },
    });
    expect(errorsOf({ ...base, ...bureau, ...score, creditScore: "900" })).toEqual({ creditScore: REVIEW_MESSAGES.creditScore });
    expect(errorsOf({ ...base, ...bureau, ...score, scoreRangeLow: "850", scoreRangeHigh: "300" })).toMatchObject({ scoreRangeLow: REVIEW_MESSAGES.scoreRange });
    expect(errorsOf({ ...base, ...bureau, ...score, scoreDate: "2999-01-01" })).toEqual({ scoreDate: REVIEW_MESSAGES.scoreDate });
    expect(errorsOf({ ...base, ...bureau, ...score, scoreDate: "2026-02-30x" })).toEqual({ scoreDate: REVIEW_MESSAGES.scoreDate });
    expect(errorsOf({ ...base, ...bureau, ...score, keyFactors: ["", ""] })).toEqual({ keyFactors: REVIEW_MESSAGES.keyFactorsRequired });
    expect(errorsOf({ ...base, ...bureau, ...score, keyFactors: ["a", "b", "c", "d", "e"] })).toEqual({ keyFactors: REVIEW_MESSAGES.keyFactorsTooMany });
    expect(errorsOf({ ...base, ...bureau, ...score, keyFactors: ["x".repeat(201)] })).toEqual({ keyFactors: REVIEW_MESSAGES.keyFactorTooLong });
  });

  it("control characters in any source field are refused with the field named", () => {
    for (const field of ["agencyName", "agencyAddress", "agencyPhone", "creditScore", "scoreDate"]) {
      expect(errorsOf({ ...base, ...bureau, ...score, [field]: "Equi\u0000fax" }), field).toEqual({ [field]: CONTROL_CHARACTER_MESSAGE });
    }
    expect(errorsOf({ ...base, ...bureau, ...score, keyFactors: ["late\u001bpayments"] })).toEqual({ keyFactors: CONTROL_CHARACTER_MESSAGE });
  });
});

describe("the notice of action taken", () => {
  const email = (source?: Parameters<typeof applicationDeniedEmail>[0]["source"]) =>
    applicationDeniedEmail({ applicantName: "Maria Lopez", loanType: "personal", applicationId: APP, baseUrl: "https://x.example", reasons: ["Credit history"], source });

  it("with a consumer report: model form C-3's paragraphs, the agency, the score, its range, key factors and date", () => {
    const source = denySchema.parse({ ...base, ...bureau, ...score }).source;
    const mail = email(source);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain(CONSUMER_REPORT_DISCLOSURE);
      expect(body).toContain(CREDIT_SCORE_DISCLOSURE);
      expect(body).toContain("Equifax Information Services LLC");
      expect(body).toContain("P.O. Box 740241, Atlanta, GA 30374");
      expect(body).toContain("(800) 685-1111");
      expect(body).toContain("a low of 300 to a high of 850");
      expect(body).toContain("Nov 20, 2026");
      expect(body).toContain("Serious delinquency");
      expect(body).toContain("Number of recent inquiries on your consumer report");
      expect(body).not.toContain(OWN_INFORMATION_NOTICE);
    }
    expect(mail.text).toContain("Your credit score: 580");
    // The model form's own words, as the brief quotes them (not only our constant).
    expect(mail.text.replace(/\s+/g, " ")).toContain(
      "The reporting agency played no part in our decision and is unable to supply specific reasons why we have denied credit to you. You also have a right to a free copy of your report from the reporting agency, if you request it no later than 60 days after you receive this notice.",
    );
    expect(mail.text.replace(/\s+/g, " ")).toContain("Your credit score can change, depending on how the information in your consumer report changes.");
  });

  it("a consumer report without a score: the agency block and no score paragraph", () => {
    const mail = email(denySchema.parse({ ...base, ...bureau }).source);
    expect(mail.text).toContain(CONSUMER_REPORT_DISCLOSURE);
    expect(mail.text).not.toContain(CREDIT_SCORE_DISCLOSURE);
    expect(mail.text).not.toContain("Key factors");
  });

  it("without a consumer report: the own-information wording and no bureau block", () => {
    for (const mail of [email({ kind: "applicant" }), email(undefined)]) {
      expect(mail.text).toContain("Our credit decision was based in whole or in part on information obtained from you");
      expect(mail.text).not.toContain("consumer reporting agency");
      expect(mail.text).not.toContain("Fair Credit Reporting Act");
      expect(mail.text).not.toContain("credit score");
    }
  });

  it("a stored value that is not a source reads as the applicant's own information", () => {
    expect(denialSourceNotice(readDenialSource({ kind: "consumer_report" }))).toEqual([{ kind: "p", text: OWN_INFORMATION_NOTICE }]);
    expect(denialSourceNotice(readDenialSource("junk"))).toEqual([{ kind: "p", text: OWN_INFORMATION_NOTICE }]);
  });
});
