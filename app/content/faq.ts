import type { PageCtaCopy } from "~/content/page-cta";

/**
 * The FAQ (docs/requirements.md §2: six categories, each a single-open accordion). Note the FAQ's own decision-time
 * claim: within 72 hours (docs/requirements.md §10), while other pages say 24 hours.
 */
export type FaqItem = {
  question: string;
  /** One or more paragraphs of plain text. */
  answer: readonly string[];
};

export type FaqCategory = {
  /** Stable id, used for anchors and the accordion's item values. */
  id: string;
  title: string;
  items: readonly FaqItem[];
};

export const faqCategories: readonly FaqCategory[] = [
  {
    id: "general",
    title: "General Questions",
    items: [
      {
        question: "Who is Private Loans?",
        answer: [
          "Private Loans is a private lender based in Wilmington, Delaware. For 15 years we have provided personal, business, private, hard money, debt consolidation, auto and home improvement loans to individuals, investors and businesses across the United States.",
        ],
      },
      {
        question: "Who can apply for a loan?",
        answer: [
          "You must be at least 18 years old, a U.S. citizen or permanent resident, and have a valid Social Security number, a U.S. address and a bank account in your name. Business loans also require a business registered in the United States.",
        ],
      },
      {
        question: "How is a private lender different from a bank?",
        answer: [
          "We make our own lending decisions with our own underwriters, so we can look beyond a credit score at your income, assets and plans. That usually means faster decisions and more flexible structures than a traditional bank can offer.",
        ],
      },
      {
        question: "Do you lend in every state?",
        answer: [
          "We serve clients across the United States. A few loan types are not available in every state because of state licensing rules; our loan officers will tell you at the start if your loan cannot be offered where you live.",
        ],
      },
    ],
  },
  {
    id: "application",
    title: "Application Process",
    items: [
      {
        question: "How do I apply?",
        answer: [
          "Create an account, then complete our five-step online application: personal information, loan details, financial information, documents and bank details, and a final review with your electronic signature. Most people finish in 15 to 20 minutes.",
        ],
      },
      {
        question: "What documents do I need?",
        answer: [
          "A government-issued photo ID (front and back), your last three months of bank statements and a recent utility bill as proof of address. Business and real estate loans may also need collateral documents such as a property appraisal, title report or business financial statements. Files can be PDF, JPG or PNG, up to 5 MB each.",
        ],
      },
      {
        question: "How long does it take to get a decision?",
        answer: [
          "You will receive a decision within 72 hours of submitting a complete application, and most applicants hear back much sooner. A loan officer may contact you within 24 to 48 hours if anything needs clarifying.",
        ],
      },
      {
        question: "Can I check the status of my application?",
        answer: [
          "Yes. Sign in to your dashboard at any time to see your application's status, the documents you uploaded and any messages from your loan officer.",
        ],
      },
    ],
  },
  {
    id: "loans",
    title: "Loan Types and Terms",
    items: [
      {
        question: "How much can I borrow?",
        answer: [
          "It depends on the loan type: personal loans from $5,000 to $5,000,000, business loans from $100,000 to $50,000,000, private loans from $100,000 to $10,000,000, hard money loans from $100,000 to $50,000,000, debt consolidation from $50,000 to $2,000,000, auto loans from $10,000 to $1,000,000 and home improvement loans from $50,000 to $5,000,000.",
        ],
      },
      {
        question: "What loan terms do you offer?",
        answer: [
          "Most loans can be repaid over 6 months to 30 years. Hard money and bridge loans are short-term, from 6 to 36 months.",
        ],
      },
      {
        question: "What is the loan-to-value ratio for hard money loans?",
        answer: [
          "Hard money loans are typically made at 65% to 75% of the property's value, and up to 80% for bridge loans. Because the loan is secured by real estate, a hard money loan can close in as little as 7 to 14 days.",
        ],
      },
      {
        question: "Do I need collateral?",
        answer: [
          "Personal loans are usually unsecured. Private, hard money and larger business loans are generally secured by real estate, equipment or other assets, which can lower your rate.",
        ],
      },
    ],
  },
  {
    id: "rates-fees",
    title: "Rates and Fees",
    items: [
      {
        question: "What interest rates do you charge?",
        answer: [
          "Rates range from 5.99% to 35.99% APR. Your rate depends on the loan type, amount, term, your credit profile, income and any collateral. You will see your exact rate and payment before you sign.",
        ],
      },
      {
        question: "Are there any fees?",
        answer: [
          "An origination fee, typically 1% to 5% of the loan amount, may apply and is disclosed in your loan offer. We never charge an application fee.",
        ],
      },
      {
        question: "Is there a penalty for paying off my loan early?",
        answer: [
          "Most of our loans have no prepayment penalty. If a particular loan does, it is stated clearly in your loan agreement before you sign.",
        ],
      },
      {
        question: "Will applying affect my credit score?",
        answer: [
          "With your authorization we obtain a credit report as part of underwriting. Any inquiry that could affect your score is disclosed to you before we make it.",
        ],
      },
    ],
  },
  {
    id: "funding",
    title: "Funding and Repayment",
    items: [
      {
        question: "How quickly will I receive my funds?",
        answer: [
          "Once you sign your loan agreement, funds are typically deposited into your bank account within 1 to 3 business days.",
        ],
      },
      {
        question: "How do I make payments?",
        answer: [
          "Payments are made monthly by automatic debit from your bank account, or by bank transfer. Your payment schedule, with every due date and amount, is included in your loan documents.",
        ],
      },
      {
        question: "What if I have trouble making a payment?",
        answer: [
          "Call us before the due date. We work with clients on payment plans and other options, and it is always easier to find a solution early.",
        ],
      },
    ],
  },
  {
    id: "security",
    title: "Security and Privacy",
    items: [
      {
        question: "Is my personal information secure?",
        answer: [
          "Yes. Every page is served over an encrypted connection, and sensitive data such as your Social Security number and bank account numbers is encrypted before it is stored. Only authorized staff, who sign in with multi-factor authentication, can access it, and every access is logged.",
        ],
      },
      {
        question: "Do you sell my information?",
        answer: [
          "No. We never sell your personal information. How we use and share it is explained in our Privacy Policy.",
        ],
      },
      {
        question: "How long do you keep my application data?",
        answer: [
          "Federal and state lending laws require us to keep loan records. We retain application data for about 7 years, then delete it securely.",
        ],
      },
    ],
  },
];

/** The FAQ's own decision time (72 hours, see above). */
export const faqCta: PageCtaCopy = {
  title: "Still have questions?",
  text: "Our loan officers are happy to help, or you can start your application now and get a decision within 72 hours.",
  applyTo: "/apply",
};
