import type { PageCtaCopy } from "~/content/page-cta";

/**
 * /how-it-works (docs/requirements.md §2): four steps, a timeline strip and the document checklists.
 * Decision within 24 hours and funding in 1-3 business days (docs/requirements.md §10).
 */
export type Step = {
  number: number;
  title: "Apply" | "Underwriting" | "Approval" | "Disbursement";
  summary: string;
  details: readonly string[];
  /** How long the step usually takes. */
  duration: string;
  icon: "file-text" | "search" | "badge-check" | "banknote";
};

export const steps: readonly Step[] = [
  {
    number: 1,
    title: "Apply",
    icon: "file-text",
    duration: "About 15 minutes",
    summary: "Create an account and complete our secure online application from any device.",
    details: [
      "Tell us about yourself, the loan you need and your finances",
      "Upload your documents and add the bank account for funding",
      "Review everything and sign electronically",
    ],
  },
  {
    number: 2,
    title: "Underwriting",
    icon: "search",
    duration: "Same or next business day",
    summary: "Our underwriters review your application, documents and credit profile.",
    details: [
      "We verify your identity, income and bank statements",
      "With your authorization, we review your credit report",
      "A loan officer contacts you if anything needs clarifying",
    ],
  },
  {
    number: 3,
    title: "Approval",
    icon: "badge-check",
    duration: "Decision within 24 hours",
    summary: "You receive a clear decision and, if approved, a loan offer with every term spelled out.",
    details: [
      "Your rate, payment, term and any fees, with no surprises",
      "Time to ask questions before you commit",
      "Sign your loan agreement electronically",
    ],
  },
  {
    number: 4,
    title: "Disbursement",
    icon: "banknote",
    duration: "1-3 business days",
    summary: "Funds are deposited directly into your bank account.",
    details: [
      "Direct deposit to the account you provided",
      "Hard money and bridge loans can close in 7 to 14 days",
      "Track your loan and payments from your dashboard",
    ],
  },
];

export type TimelineStripItem = { when: string; what: string };

/** The strip under the steps: from application to funds. */
export const processTimeline: readonly TimelineStripItem[] = [
  { when: "Day 1", what: "Submit your application online" },
  { when: "Within 24 hours", what: "Receive your decision" },
  { when: "After approval", what: "Review and e-sign your loan agreement" },
  { when: "1-3 business days", what: "Funds arrive in your account" },
];

export type DocumentChecklist = {
  title: string;
  description: string;
  items: readonly string[];
};

export const documentChecklists: readonly DocumentChecklist[] = [
  {
    title: "Personal Loans",
    description: "For personal, auto, debt consolidation and home improvement loans.",
    items: [
      "Government-issued photo ID (front and back)",
      "Bank statements for the last 3 months",
      "A recent utility bill as proof of address",
      "Social Security number",
      "Employer name, job title and monthly income",
      "Bank account and routing numbers for funding",
    ],
  },
  {
    title: "Business Loans",
    description: "For business, private and hard money loans.",
    items: [
      "Government-issued photo ID of the owner (front and back)",
      "Business bank statements for the last 3 months",
      "A recent utility bill for the business address",
      "Business name and years in operation",
      "Collateral documents, such as a property appraisal or title report (if applicable)",
      "Business bank account and routing numbers for funding",
    ],
  },
];

/** Accepted upload formats (docs/requirements.md §6). */
export const documentRequirementsNote = "Documents can be PDF, JPG or PNG files of up to 5 MB each.";

export const howItWorksCta: PageCtaCopy = {
  title: "Ready to get started?",
  text: "The application takes about 15 minutes. Have your documents ready and you could have a decision within 24 hours.",
  applyTo: "/apply",
  contactLabel: "Talk to a Loan Officer",
};
