import { describe, expect, it } from "vitest";
import { coreValues, impactStats, testimonialStats } from "~/content/company";
import { faqCategories } from "~/content/faq";
import { documentChecklists, steps } from "~/content/how-it-works";
import { legalDisclosures, representativeExample } from "~/content/legal/disclosures";
import { formatLegalDate } from "~/content/legal/last-updated";
import { privacyPolicy } from "~/content/legal/privacy";
import { termsOfService } from "~/content/legal/terms";
import { leaders } from "~/content/leaders";
import { testimonials } from "~/content/testimonials";
import { timeline } from "~/content/timeline";
import { estimateLoan } from "~/domain/loan-math";
import { centsFromDollars, rateFromPercent } from "~/domain/money";
import { TESTIMONIAL_MESSAGES, testimonialProblemTitle, testimonialSchema } from "~/domain/validation/testimonial";

/** The static content of the public pages against the spec (docs/requirements.md §1, §2, §4, §10). */

const allText = (value: unknown): string => JSON.stringify(value);

describe("about page content", () => {
  it("has the timeline's years and titles exactly", () => {
    expect(timeline.map((t) => [t.year, t.title])).toEqual([
      ["2009", "Company Founded"],
      ["2012", "$100M Funded"],
      ["2016", "Digital Platform Launch"],
      ["2020", "COVID-19 Support"],
      ["2023", "$2B+ Milestone"],
      ["2024", "Nationwide Expansion"],
    ]);
    for (const item of timeline) expect(item.description.length).toBeGreaterThan(20);
  });

  it("has the four core values in order", () => {
    expect(coreValues.map((v) => v.title)).toEqual(["Trust and Security", "Client First", "Excellence", "Accessibility"]);
  });

  it("has four leaders with photo, bio and education, in the spec's roles", () => {
    expect(leaders).toHaveLength(4);
    const roles = leaders.map((l) => l.title.toLowerCase());
    expect(roles[0]).toMatch(/chief executive/);
    expect(roles[1]).toMatch(/office administrator/);
    expect(roles[2]).toMatch(/compliance/);
    expect(roles[2]).toMatch(/legal counsel/);
    expect(roles[3]).toMatch(/loan officer/);
    expect(roles[3]).toMatch(/lending manager/);
    for (const leader of leaders) {
      expect(leader.name).toMatch(/^\S+ \S+/);
      expect(leader.bio.length).toBeGreaterThan(40);
      expect(leader.education.length).toBeGreaterThan(0);
      expect(leader.image.src).toMatch(/^\/images\/leaders\/[a-z-]+\.svg$/);
      expect(leader.image.alt).toContain(leader.name);
      expect(leader.image.width).toBeGreaterThan(0);
      expect(leader.image.height).toBeGreaterThan(0);
    }
  });

  it("shows the claims: 15 years, $2.5B+, 150K+, 4.9/5, decision within 24 hours", () => {
    const text = allText(impactStats);
    for (const claim of ["15", "$2.5B+", "150K+", "4.9/5", "24"]) expect(text).toContain(claim);
  });
});

describe("how it works content", () => {
  it("has the four steps in order and checklists for personal and business loans", () => {
    expect(steps.map((s) => s.title)).toEqual(["Apply", "Underwriting", "Approval", "Disbursement"]);
    expect(documentChecklists.map((c) => c.title)).toEqual(["Personal Loans", "Business Loans"]);
    expect(allText(steps)).toContain("1-3 business days");
  });
});

describe("faq content", () => {
  it("has six categories, each with questions", () => {
    expect(faqCategories).toHaveLength(6);
    expect(new Set(faqCategories.map((c) => c.id)).size).toBe(6);
    for (const category of faqCategories) expect(category.items.length).toBeGreaterThan(0);
  });

  it("carries the FAQ's own facts (72-hour decision, 1-3 days, 1-5% fee, ~7 years, LTV)", () => {
    const text = allText(faqCategories);
    for (const fact of ["within 72 hours", "1 to 3 business days", "1% to 5%", "about 7 years", "65% to 75%", "up to 80%", "5.99% to 35.99% APR"]) expect(text).toContain(fact);
  });
});

describe("testimonials content", () => {
  it("has nine testimonials with whole-star ratings from 1 to 5", () => {
    expect(testimonials).toHaveLength(9);
    for (const t of testimonials) {
      expect(t.name.trim()).not.toBe("");
      expect(t.role.trim()).not.toBe("");
      expect(t.content.length).toBeGreaterThan(40);
      expect(Number.isInteger(t.rating)).toBe(true);
      expect(t.rating).toBeGreaterThanOrEqual(1);
      expect(t.rating).toBeLessThanOrEqual(5);
    }
  });

  it("has the stats band of the testimonials page", () => {
    expect(testimonialStats.map((s) => s.value)).toEqual(["150K+", "$2.5B+", "4.9/5", "1-5"]);
    expect(allText(testimonialStats)).toContain("Business Days");
  });
});

describe("legal content", () => {
  it("formats 'Last Updated' in en-US", () => {
    expect(formatLegalDate(new Date("2026-11-22T15:00:00Z"), "UTC")).toBe("Nov 22, 2026");
    expect(formatLegalDate(new Date("2026-11-23T03:00:00Z"), "America/New_York")).toBe("Nov 22, 2026");
    // Without a time zone: the process's own, the same day `new Date()` shows here.
    const now = new Date();
    expect(formatLegalDate(now)).toBe(now.toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" }));
  });

  it("privacy policy has the GLBA 'Facts' notice, opt-out rights, encryption at rest and MFA", () => {
    const text = allText(privacyPolicy);
    expect(privacyPolicy.sections[0]!.heading).toBe("Facts: What does Private Loans do with your personal information?");
    expect(text).toContain("Why can't I limit all sharing?");
    expect(text).toMatch(/opt-out/i);
    expect(text).toMatch(/encrypt(ed|ion) at rest|Encryption at rest/);
    expect(text).toContain("Multi-factor authentication (MFA)");
    expect(text).toContain("about 7 years");
  });

  it("terms state eligibility 18+, no guarantee of approval and Delaware law", () => {
    const text = allText(termsOfService);
    for (const fact of ["at least 18 years old", "does not guarantee approval", "laws of the State of Delaware"]) expect(text).toContain(fact);
  });

  it("disclosures state the APR range, fee, ECOA, E-SIGN, licensing and the estimates-only disclaimer", () => {
    const text = allText(legalDisclosures);
    for (const fact of ["5.99% to 35.99% APR", "1% to 5%", "Equal Credit Opportunity Act", "E-SIGN"]) expect(text).toContain(fact);
    expect(text).toMatch(/State licensing/);
    expect(text).toContain("estimates only");
  });

  it("computes a consistent representative example", () => {
    const ex = representativeExample;
    // The signed loan's level payment under daily interest, a few cents from the calculator's estimate ($543.44).
    const estimate = estimateLoan(centsFromDollars(ex.amount), rateFromPercent(ex.rate), ex.months)!.monthlyPaymentCents;
    expect(estimate).toBe(54_344);
    expect(Math.abs(ex.paymentCents - estimate)).toBeLessThan(100);
    expect(ex.finalPaymentCents).toBeLessThanOrEqual(ex.paymentCents);
    // The fee makes the APR higher than the note rate, but within the advertised range.
    expect(ex.apr).toBeGreaterThan(ex.rate);
    expect(ex.apr).toBeLessThan(35.99);
    // The installments it names add up to the total it states (the last one pays the loan off).
    expect(ex.paymentCents * (ex.months - 1) + ex.finalPaymentCents).toBe(ex.totalPaymentCents);
    const text = legalDisclosures.sections.flatMap((section) => JSON.stringify(section)).join(" ");
    expect(text).toContain(ex.finalPaymentCents === ex.paymentCents ? `${ex.months} monthly payments of` : `${ex.months - 1} monthly payments of`);
    // Signed on January 1, 2026, interest accruing daily (actual/365), the level payment (the smallest whole
    // cents whose last payment is not larger; $543.38 would leave $544.14): recomputed by an independent
    // script (exact fractions, the Python calendar, Newton's method for the APR), as in truth-in-lending.test.ts.
    expect(text).toContain("a $25,000 loan repaid over 60 months at an interest rate of 10.99% with a 3% origination fee ($750.00, deducted from the loan proceeds) has an APR of 12.32% and 59 monthly payments of $543.39 and a final payment of $543.35, for a total of $32,603.36.");
  });

  it("gives every legal section a unique anchor", () => {
    for (const doc of [privacyPolicy, termsOfService, legalDisclosures]) {
      const ids = doc.sections.map((s) => s.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});

describe("testimonial schema", () => {
  it("requires a rating with the spec's message, and falls back / nulls the optional fields", () => {
    const missing = testimonialSchema.safeParse({ fullName: "A B", role: "Owner", content: "Great" });
    expect(missing.success).toBe(false);
    const message = missing.error!.issues.find((i) => i.path[0] === "rating")!.message;
    expect(message).toBe(TESTIMONIAL_MESSAGES.ratingRequired);
    expect(testimonialProblemTitle(message)).toBe("Rating Required");

    const ok = testimonialSchema.parse({ rating: "4", fullName: " Jane Roe ", displayName: "  ", role: "Owner", location: "", content: "Great" });
    expect(ok).toEqual({ rating: 4, fullName: "Jane Roe", displayName: "Jane Roe", role: "Owner", location: null, content: "Great" });
  });

  it("refuses out-of-range ratings and over-long reviews", () => {
    for (const rating of ["0", "6", "2.5", 7]) {
      const r = testimonialSchema.safeParse({ rating, fullName: "A", role: "B", content: "C" });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.message).toBe(TESTIMONIAL_MESSAGES.ratingRange);
    }
    const long = testimonialSchema.safeParse({ rating: 5, fullName: "A", role: "B", content: "x".repeat(2001) });
    expect(long.error!.issues[0]!.message).toBe(TESTIMONIAL_MESSAGES.contentTooLong);
    expect(testimonialSchema.safeParse({ rating: 5, fullName: "A", role: "B", content: "x".repeat(2000) }).success).toBe(true);
  });
});
