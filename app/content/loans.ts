import type { LoanType } from "~/domain/enums";
import { LOAN_RANGES } from "~/domain/loan-ranges";
import { centsFromDollars, formatMoney } from "~/domain/money";
import { RATE_BOUNDS } from "~/domain/loan-math";
import { illustration, type Illustration } from "~/content/illustration";

/**
 * The seven loan products (docs/requirements.md §1, §2, §4 "Loan product", §9 table). The one source for every page
 * that shows loans: home cards and hover grid, the services list, the loan detail pages. Amounts and terms
 * are the spec's figures; change them here and every page follows.
 */

/** The path segment after /services/ (the routes in app/routes.ts use the same list). */
export const LOAN_SLUGS = [
  "personal",
  "business",
  "private",
  "hard-money",
  "debt-consolidation",
  "auto",
  "home-improvement",
] as const;
export type LoanSlug = (typeof LOAN_SLUGS)[number];

/** Which icon stands for the loan in small places (tiles, lists); mapped to an icon component by the UI. */
export type LoanIconName = "user" | "briefcase" | "gem" | "building" | "layers" | "car" | "hammer";

export type LoanProduct = {
  slug: LoanSlug;
  /** The application wizard's loan type (docs/requirements.md §4 enumeration). */
  loanType: LoanType;
  title: string;
  tagline: string;
  /** Two or three sentences. */
  description: string;
  amount: { min: number; max: number; display: string };
  rate: { min: number; max: number; display: string };
  term: { minMonths: number; maxMonths: number; display: string };
  /** Hard money only: how fast the loan closes. */
  closing?: string;
  benefits: readonly string[];
  image: Illustration;
  icon: LoanIconName;
  /** The loan's own page. */
  href: `/services/${LoanSlug}`;
  /** Where 'Apply Now' leads (docs/requirements.md §2, loan detail pages). */
  applyHref: "/auth" | "/apply";
};

/** Whole US dollars: "$5,000". */
export function formatDollars(value: number): string {
  return formatMoney(centsFromDollars(value), { cents: false });
}

/** "$5,000 to $5,000,000" */
export function formatAmountRange(min: number, max: number): string {
  return `${formatDollars(min)} to ${formatDollars(max)}`;
}

/** The loan's amounts, from the range the application form enforces. */
function amount(loanType: LoanType): LoanProduct["amount"] {
  const { minAmount: min, maxAmount: max } = LOAN_RANGES[loanType];
  return { min, max, display: formatAmountRange(min, max) };
}

/** Interest rate for all loans (docs/requirements.md §10). */
export const LOAN_RATE: LoanProduct["rate"] = {
  min: RATE_BOUNDS.min,
  max: RATE_BOUNDS.max,
  display: `${RATE_BOUNDS.min}% to ${RATE_BOUNDS.max}% APR`,
};

/** Every loan but hard money: 6 months to 30 years. */
const STANDARD_TERM: LoanProduct["term"] = { minMonths: 6, maxMonths: 360, display: "6 months to 30 years" };

const IMAGE_SIZE = { width: 480, height: 320 } as const;

function image(slug: LoanSlug, alt: string): Illustration {
  return illustration("loans", slug, alt, IMAGE_SIZE);
}

export const loans: readonly LoanProduct[] = [
  {
    slug: "personal",
    loanType: "personal",
    title: "Personal Loans",
    tagline: "Flexible funding for life's important moments.",
    description:
      "A personal loan from a private lender who looks at your whole situation, not just a score. Use it for a major purchase, a wedding, medical bills or an unexpected expense, with a fixed monthly payment you can plan around.",
    amount: amount("personal"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Borrow from $5,000 up to $5,000,000",
      "Fixed monthly payments over 6 months to 30 years",
      "A decision within 24 hours of a complete application",
      "Funds in your account in 1 to 3 business days after approval",
      "Use the funds for almost any personal purpose",
    ],
    image: image("personal", "A person beside a stack of gold coins and a signed loan agreement"),
    icon: "user",
    href: "/services/personal",
    applyHref: "/auth",
  },
  {
    slug: "business",
    loanType: "business",
    title: "Business Loans",
    tagline: "Capital to launch, grow and run your company.",
    description:
      "Working capital, equipment, inventory, expansion or an acquisition: our business loans are underwritten around your company's cash flow and plans. We move at the speed business needs, with terms shaped to your revenue cycle.",
    amount: amount("business"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Business financing from $100,000 to $50,000,000",
      "Terms from 6 months to 30 years",
      "Underwriting based on cash flow and business plans, not a checklist",
      "For start-ups and established companies alike",
      "Personal service from a dedicated loan officer",
    ],
    image: image("business", "A briefcase in front of a rising bar chart"),
    icon: "briefcase",
    href: "/services/business",
    applyHref: "/auth",
  },
  {
    slug: "private",
    loanType: "private",
    title: "Private Loans",
    tagline: "Discreet, tailored financing beyond the banks.",
    description:
      "When a bank's rules do not fit your situation, a private loan can. We structure each loan individually for high-net-worth individuals, investors and unusual circumstances, and handle every file with complete confidentiality.",
    amount: amount("private"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Loans from $100,000 to $10,000,000",
      "Terms from 6 months to 30 years, structured around you",
      "Confidential handling of every application",
      "Flexible collateral and income documentation",
      "Decisions made by people, within 24 hours",
    ],
    image: image("private", "A locked safe with a gold key and a shield"),
    icon: "gem",
    href: "/services/private",
    applyHref: "/auth",
  },
  {
    slug: "hard-money",
    loanType: "hard-money",
    title: "Hard Money / Bridge Loans",
    tagline: "Fast, asset-based real estate financing.",
    description:
      "Short-term loans secured by real estate, for investors who need to close quickly: purchases, fix-and-flip projects, or a bridge until permanent financing is in place. We lend on the strength of the property, and close in 7 to 14 days.",
    amount: amount("hard-money"),
    rate: LOAN_RATE,
    term: { minMonths: 6, maxMonths: 36, display: "6 to 36 months" },
    closing: "7 to 14 days",
    benefits: [
      "Closing in 7 to 14 days",
      "Loan-to-value of 65 to 75%, up to 80% for bridge loans",
      "Short terms from 6 to 36 months",
      "Approval based on the property's value, not only your credit",
      "Purchases, refinances, fix-and-flip and bridge financing",
    ],
    image: image("hard-money", "A building with a bridge arching to a second building"),
    icon: "building",
    href: "/services/hard-money",
    applyHref: "/auth",
  },
  {
    slug: "debt-consolidation",
    loanType: "debt-consolidation",
    title: "Debt Consolidation Loans",
    tagline: "Many debts, one simple monthly payment.",
    description:
      "Combine credit cards, personal loans and other balances into a single loan with one payment and one rate. Consolidating can lower what you pay each month and gives you a clear date when you will be debt-free.",
    amount: amount("debt-consolidation"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Consolidate $50,000 to $2,000,000 of existing debt",
      "Repayment up to 7 years",
      "One fixed monthly payment instead of many",
      "One lender to deal with, for a simpler budget",
      "A clear payoff date from day one",
    ],
    image: image("debt-consolidation", "Several small cards merging into one gold card"),
    icon: "layers",
    href: "/services/debt-consolidation",
    applyHref: "/apply",
  },
  {
    slug: "auto",
    loanType: "auto-loans",
    title: "Auto Loans",
    tagline: "Drive away sooner with straightforward auto financing.",
    description:
      "Finance a new or used car, a classic, a fleet vehicle or an exotic from a dealer or a private seller. Or refinance the loan you have for a better payment. Quick decisions mean you can negotiate like a cash buyer.",
    amount: amount("auto-loans"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Vehicle financing from $10,000 to $1,000,000",
      "Terms from 2 to 7 years",
      "New, used, classic and private-party purchases",
      "Refinance an existing auto loan",
      "Quick decisions, so you can buy with confidence",
    ],
    image: image("auto", "A car with a gold price tag"),
    icon: "car",
    href: "/services/auto",
    applyHref: "/apply",
  },
  {
    slug: "home-improvement",
    loanType: "home-improvement",
    title: "Home Improvement Loans",
    tagline: "Renovate, repair and add value to your home.",
    description:
      "A kitchen remodel, a new roof, an addition or energy-efficient upgrades: fund the project without waiting for savings to catch up. Borrow what the work costs and repay it over a term that suits your budget.",
    amount: amount("home-improvement"),
    rate: LOAN_RATE,
    term: STANDARD_TERM,
    benefits: [
      "Project financing from $50,000 to $5,000,000",
      "Repayment up to 20 years",
      "Remodels, repairs, additions and energy upgrades",
      "Funds in 1 to 3 business days after approval",
      "Fixed payments with no surprises",
    ],
    image: image("home-improvement", "A house with a hammer and a wrench beside it"),
    icon: "hammer",
    href: "/services/home-improvement",
    applyHref: "/apply",
  },
];

export function loanBySlug(slug: string | undefined | null): LoanProduct | undefined {
  return loans.find((loan) => loan.slug === slug);
}

/** The loan a /services/<slug> path shows (trailing slashes ignored); undefined for any other path. */
export function loanByPathname(pathname: string): LoanProduct | undefined {
  const match = /^\/services\/([^/]+)\/*$/.exec(pathname);
  return match ? loanBySlug(match[1]) : undefined;
}
