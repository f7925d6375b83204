import type { Stat } from "~/content/company";

/**
 * Why choose us (docs/requirements.md §2, home page) and the claims shown to visitors (docs/requirements.md §1).
 * Plain data: the UI maps `icon` to an icon component.
 */

export type BenefitIconName = "zap" | "lock" | "sliders" | "shield";

export type Benefit = { title: string; description: string; icon: BenefitIconName };

export const benefits: readonly Benefit[] = [
  {
    title: "Fast and Reliable Funding",
    description:
      "A decision within 24 hours of a complete application, and funds in your account 1 to 3 business days after approval.",
    icon: "zap",
  },
  {
    title: "Private and Discreet Process",
    description:
      "Your application is seen only by the people who review it, and every document, account number and conversation is handled in complete confidence.",
    icon: "lock",
  },
  {
    title: "Flexible Loan Solutions",
    description:
      "Seven loan types from $5,000 to $50,000,000, with terms from 6 months to 30 years, structured around your goals rather than a rigid checklist.",
    icon: "sliders",
  },
  {
    title: "Secure and Transparent",
    description:
      "Bank-level encryption protects your information, and your rate, fees and payment are set out clearly before you sign. No hidden costs.",
    icon: "shield",
  },
];

/** docs/requirements.md §1: decision within 24 hours, 15 years, $2.5B+ funded, 150K+ clients, 4.9/5. */
export const claims: readonly Stat[] = [
  { value: "24 Hours", label: "Loan decision" },
  { value: "15 Years", label: "Of lending experience" },
  { value: "$2.5B+", label: "Funded" },
  { value: "150K+", label: "Clients served" },
  { value: "4.9/5", label: "Client rating" },
];
