import type { PageCtaCopy } from "~/content/page-cta";

/**
 * Company facts for the About and Testimonials pages (docs/requirements.md §1, §2, §10): the impact stats, the
 * testimonials stats band, the story, the mission and the four core values.
 */

/**
 * Who the lender legally is, for the footer's licensing line: set by the operator (LENDER_LEGAL_NAME,
 * NMLS_ID, STATE_LICENSES), each part shown only when set, since a made-up licence would be worse than none.
 */
export type LenderLicensing = {
  legalName?: string;
  nmlsId?: string;
  stateLicenses: readonly string[];
};

export type Stat = {
  /** The figure as shown, e.g. "$2.5B+". */
  value: string;
  label: string;
};

/** About page impact stats: the claims shown to visitors (docs/requirements.md §1). */
export const impactStats: readonly Stat[] = [
  { value: "15", label: "Years of Experience" },
  { value: "$2.5B+", label: "Funded" },
  { value: "150K+", label: "Clients Served" },
  { value: "4.9/5", label: "Client Rating" },
  { value: "24 hrs", label: "Decision Within 24 Hours" },
];

/** The stats band on /testimonials (docs/requirements.md §2: 1-5 business days there, not 1-3). */
export const testimonialStats: readonly Stat[] = [
  { value: "150K+", label: "Loans Funded" },
  { value: "$2.5B+", label: "Funded" },
  { value: "4.9/5", label: "Average Rating" },
  { value: "1-5", label: "Business Days to Funding" },
];

export const aboutIntro = {
  title: "About Private Loans",
  lead:
    "For 15 years we have helped individuals, investors and businesses across the United States get the financing they need: discreetly, quickly and on terms they understand before they sign.",
} as const;

export const story: readonly string[] = [
  "Private Loans began in 2009 in Wilmington, Delaware, at a time when banks had all but stopped lending to small businesses and self-employed borrowers. Our founders, a former commercial banker and a real estate attorney, believed that a lender could move quickly without cutting corners, and that a borrower deserved a real person who would explain every number.",
  "We started with bridge loans for local property investors and working-capital loans for family businesses. Word of mouth did the rest. By 2012 we had funded our first $100 million, and in 2016 we launched a digital platform so clients could apply, upload documents and follow their application from any device.",
  "Today we offer seven loan types, from personal and auto loans to hard money and business financing, to clients across the United States. We have funded more than $2.5 billion for over 150,000 clients, and we still answer the phone.",
];

export const mission = {
  title: "Our Mission",
  text: "To make private lending fast, fair and transparent: a clear decision within 24 hours, terms without surprises, and the same care for your information that we would expect for our own.",
} as const;

export type CoreValue = {
  title: string;
  description: string;
  /** A lucide-react icon name the page maps to a component (content stays free of React). */
  icon: "shield-check" | "users" | "award" | "hand-heart";
};

/** The four core values, in the spec's order (docs/requirements.md §2). */
export const coreValues: readonly CoreValue[] = [
  {
    title: "Trust and Security",
    icon: "shield-check",
    description:
      "Your financial information is encrypted, access to it is limited and logged, and we never sell it. Trust is earned one loan at a time.",
  },
  {
    title: "Client First",
    icon: "users",
    description:
      "We listen before we lend. Every client has a named loan officer, and every loan is structured around the borrower's real situation.",
  },
  {
    title: "Excellence",
    icon: "award",
    description:
      "Fast decisions are only worth having when they are the right ones. Our underwriters combine speed with careful, consistent review.",
  },
  {
    title: "Accessibility",
    icon: "hand-heart",
    description:
      "Financing should be within reach of everyone who qualifies: plain-language terms, an online application that works on any device, and help by phone when you want it.",
  },
];

export const aboutCta: PageCtaCopy = {
  title: "Ready to work with us?",
  text: "Apply online in minutes and get a decision within 24 hours, or talk to a loan officer first.",
  applyTo: "/auth",
};
