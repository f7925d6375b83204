import { describe, expect, it } from "vitest";
import { offerDeclinedEmail, offerDeclinedNoticeEmail, offerExpiredEmail, offerExpiredNoticeEmail, type ClosedOfferEmailData } from "~/server/offers/offer-emails.server";
import { applicationDeniedEmail } from "~/server/platform/mail/templates.server";

/**
 * The e-mails of an offer that closes unsigned (issue 20): a Counteroffer's are Reg B notices of action
 * taken (the reasons, the creditor, the ECOA notice), built from the same parts as the denial notice; a
 * plain offer's are short. Pure functions.
 */

const base: ClosedOfferEmailData = {
  applicantName: "Quinn Offeree",
  loanType: "personal",
  applicationId: "0b5e3f4e-8a4c-4c33-9a55-2f0f3a1e9c10",
  baseUrl: "https://loans.example.com/",
  requestedAmountCents: 2_500_000,
  amountCents: 1_800_000,
  noteRateMilli: 9500,
  termMonths: 36,
  counterofferReasons: ["Insufficient income", "<b>Excessive</b> obligations"],
  decidedAt: new Date("2026-11-24T12:00:00Z"),
};
const ECOA = "The federal Equal Credit Opportunity Act prohibits creditors from discriminating";

describe("offer e-mails", () => {
  it.each([
    ["declined", offerDeclinedNoticeEmail, "offer-declined-notice", "You declined the Counteroffer"],
    ["expired", offerExpiredNoticeEmail, "offer-expired-notice", "The Counteroffer expired without being signed"],
  ] as const)("a %s Counteroffer: a notice of action taken with the reasons, the creditor and the ECOA notice", (_, render, template, action) => {
    const mail = render(base);
    expect(mail.template).toBe(template);
    expect(mail.subject).toBe("Notice of action taken on your Private Loans application");
    expect(mail.text).toContain("Hello Quinn,");
    expect(mail.text).toContain(action);
    expect(mail.text).toContain("Counteroffer: $18,000.00 at 9.50% for 36 months");
    expect(mail.text).toContain("Amount requested: $25,000.00");
    expect(mail.text).toContain("Date: Nov 24, 2026");
    expect(mail.text).toMatch(/Creditor: Private Loans, .+/);
    expect(mail.text).toContain("  - Insufficient income");
    expect(mail.text).toContain("You have the right to a statement of the specific reasons for this decision.");
    expect(mail.text).toContain(ECOA);
    expect(mail.text).toContain(`https://loans.example.com/dashboard/applications/${base.applicationId}`);
    // Reasons are text, escaped in the HTML.
    expect(mail.html).toContain("&lt;b&gt;Excessive&lt;/b&gt; obligations");
    expect(mail.html).not.toContain("<b>Excessive</b>");
  });

  it("plain offers: a short confirmation or courtesy notice, no Reg B notice", () => {
    for (const [render, template] of [
      [offerDeclinedEmail, "offer-declined"],
      [offerExpiredEmail, "offer-expired"],
    ] as const) {
      const mail = render({ ...base, counterofferReasons: [], amountCents: 2_500_000 });
      expect(mail.template).toBe(template);
      expect(mail.text).toContain("$25,000.00 at 9.50% for 36 months");
      expect(mail.text).not.toContain(ECOA);
      expect(mail.text).not.toContain("Counteroffer");
      expect(mail.text).toContain(`/dashboard/applications/${base.applicationId}`);
    }
  });

  it("the denial notice keeps its wording with the shared parts", () => {
    const withReasons = applicationDeniedEmail({ applicantName: "Jane Doe", loanType: "personal", applicationId: base.applicationId, baseUrl: "https://x.example", reasons: ["Credit history"] });
    expect(withReasons.text).toContain("Principal reason(s) for our decision:\n\n  - Credit history");
    expect(withReasons.text).toContain(ECOA);
    const without = applicationDeniedEmail({ applicantName: "Jane Doe", loanType: "personal", applicationId: base.applicationId, baseUrl: "https://x.example", reasons: [] });
    expect(without.text).toContain("You have the right to a statement of the specific reasons why your application was denied.");
  });
});
