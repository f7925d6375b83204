import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { LOAN_TYPES } from "~/domain/enums";
import { RATE_BOUNDS } from "~/domain/loan-math";
import { LOAN_SLUGS, loanByPathname, loanBySlug, loans } from "~/content/loans";
import { benefits, claims } from "~/content/benefits";

/** docs/requirements.md §10's table: amount and term of each loan, in the spec's order. */
const SPEC_TABLE = [
  { slug: "personal", title: "Personal Loans", amount: "$5,000 to $5,000,000", min: 5_000, max: 5_000_000, term: "6 months to 30 years" },
  { slug: "business", title: "Business Loans", amount: "$100,000 to $50,000,000", min: 100_000, max: 50_000_000, term: "6 months to 30 years" },
  { slug: "private", title: "Private Loans", amount: "$100,000 to $10,000,000", min: 100_000, max: 10_000_000, term: "6 months to 30 years" },
  { slug: "hard-money", title: "Hard Money / Bridge Loans", amount: "$100,000 to $50,000,000", min: 100_000, max: 50_000_000, term: "6 to 36 months" },
  { slug: "debt-consolidation", title: "Debt Consolidation Loans", amount: "$50,000 to $2,000,000", min: 50_000, max: 2_000_000, term: "6 months to 30 years" },
  { slug: "auto", title: "Auto Loans", amount: "$10,000 to $1,000,000", min: 10_000, max: 1_000_000, term: "6 months to 30 years" },
  { slug: "home-improvement", title: "Home Improvement Loans", amount: "$50,000 to $5,000,000", min: 50_000, max: 5_000_000, term: "6 months to 30 years" },
] as const;

/** docs/requirements.md §2, loan detail pages: Apply Now goes to /auth on four pages and to /apply on three. */
const APPLY_HREF = {
  personal: "/auth",
  business: "/auth",
  private: "/auth",
  "hard-money": "/auth",
  "debt-consolidation": "/apply",
  auto: "/apply",
  "home-improvement": "/apply",
} as const;

describe("loan content", () => {
  it("has the seven loans in the spec's order with the spec's amounts and terms", () => {
    expect(loans).toHaveLength(7);
    expect(loans.map((loan) => loan.slug)).toEqual(SPEC_TABLE.map((row) => row.slug));
    for (const [i, row] of SPEC_TABLE.entries()) {
      const loan = loans[i]!;
      expect(loan.title).toBe(row.title);
      expect(loan.amount).toEqual({ min: row.min, max: row.max, display: row.amount });
      expect(loan.term.display).toBe(row.term);
    }
  });

  it("gives every loan the same rate, 5.99% to 35.99% APR", () => {
    for (const loan of loans) {
      expect(loan.rate).toEqual({ min: 5.99, max: 35.99, display: "5.99% to 35.99% APR" });
      expect([loan.rate.min, loan.rate.max]).toEqual([RATE_BOUNDS.min, RATE_BOUNDS.max]);
    }
  });

  it("has term ranges in months that match the displays, inside the 6 to 360 month durations", () => {
    for (const loan of loans) {
      expect(loan.term.minMonths).toBe(6);
      expect(loan.term.maxMonths).toBe(loan.slug === "hard-money" ? 36 : 360);
    }
  });

  it("states the hard-money closing time and LTV, and the spec's benefit texts", () => {
    const hardMoney = loanBySlug("hard-money")!;
    expect(hardMoney.closing).toBe("7 to 14 days");
    expect(hardMoney.benefits.join(" | ")).toContain("Closing in 7 to 14 days");
    expect(hardMoney.benefits.join(" | ")).toMatch(/65 to 75%, up to 80% for bridge/);
    expect(loanBySlug("debt-consolidation")!.benefits).toContain("Repayment up to 7 years");
    expect(loanBySlug("auto")!.benefits).toContain("Terms from 2 to 7 years");
    expect(loanBySlug("home-improvement")!.benefits).toContain("Repayment up to 20 years");
    for (const loan of loans) {
      expect(loan.benefits.length).toBeGreaterThanOrEqual(4);
      expect(loan.benefits.length).toBeLessThanOrEqual(5);
    }
  });

  it("sends Apply Now to /auth or /apply exactly as the spec says", () => {
    expect(Object.fromEntries(loans.map((loan) => [loan.slug, loan.applyHref]))).toEqual(APPLY_HREF);
  });

  it("maps each loan to the wizard's loan type, each type once", () => {
    expect(loans.map((loan) => loan.loanType).sort()).toEqual([...LOAN_TYPES].sort());
    expect(loanBySlug("auto")!.loanType).toBe("auto-loans");
  });

  it("links each loan to /services/<slug>, a route that exists, with its own image", () => {
    const routePaths = routes.map((route) => route.path);
    for (const loan of loans) {
      expect(loan.href).toBe(`/services/${loan.slug}`);
      expect(routePaths).toContain(`services/${loan.slug}`);
      expect(routes.find((route) => route.path === `services/${loan.slug}`)?.id).toBe(`loan-${loan.slug}`);
      expect(loan.image.src).toBe(`/images/loans/${loan.slug}.svg`);
      expect(loan.image.alt.length).toBeGreaterThan(10);
    }
    // Every loan-detail route has a loan (no page without content).
    const detailRoutes = routes.filter((route) => route.file === "routes/_site/loan-detail.tsx");
    expect(detailRoutes.map((route) => route.path).sort()).toEqual(LOAN_SLUGS.map((slug) => `services/${slug}`).sort());
  });

  it("finds loans by slug and by pathname, and nothing for anything else", () => {
    expect(loanBySlug("auto")?.title).toBe("Auto Loans");
    expect(loanBySlug("auto-loans")).toBeUndefined();
    expect(loanBySlug(undefined)).toBeUndefined();
    expect(loanByPathname("/services/hard-money")?.slug).toBe("hard-money");
    expect(loanByPathname("/services/hard-money/")?.slug).toBe("hard-money");
    expect(loanByPathname("/services")).toBeUndefined();
    expect(loanByPathname("/services/unknown")).toBeUndefined();
    expect(loanByPathname("/services/auto/extra")).toBeUndefined();
  });
});

describe("home content", () => {
  it("has the four benefits of the spec", () => {
    expect(benefits.map((b) => b.title)).toEqual([
      "Fast and Reliable Funding",
      "Private and Discreet Process",
      "Flexible Loan Solutions",
      "Secure and Transparent",
    ]);
  });

  it("has the claims of docs/requirements.md §1", () => {
    expect(claims.map((c) => c.value)).toEqual(["24 Hours", "15 Years", "$2.5B+", "150K+", "4.9/5"]);
  });
});
