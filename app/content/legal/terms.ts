import { site } from "~/content/site";
import { p, ul, type LegalDocument } from "./types";

/** Terms of Service for the website and client portal. */
export const termsOfService: LegalDocument = {
  title: "Terms of Service",
  description:
    "The terms that govern your use of the Private Loans website and client portal: eligibility, applications, electronic signatures and governing law.",
  summary: `These terms govern your use of the ${site.name} website and client portal. Please read them carefully: by creating an account or submitting an application you agree to them.`,
  sections: [
    {
      id: "acceptance",
      heading: "1. Acceptance of these terms",
      blocks: [
        p(
          `These Terms of Service ("Terms") are an agreement between you and ${site.name} ("we", "us", "our"). By accessing our website, creating an account or applying for a loan, you agree to these Terms and to our Privacy Policy. If you do not agree, do not use our services.`,
        ),
      ],
    },
    {
      id: "eligibility",
      heading: "2. Eligibility",
      blocks: [
        p("To create an account or apply for a loan you must:"),
        ul(
          "be at least 18 years old (or the age of majority in your state, if higher) and able to enter into a binding contract;",
          "be a U.S. citizen or permanent resident with a valid Social Security number and a U.S. residential address;",
          "have a bank account in your own name; and",
          "when applying for a business loan, be authorized to act for a business registered in the United States.",
        ),
        p("Loans are not available in every state. We may refuse service to anyone where the law does not permit us to lend."),
      ],
    },
    {
      id: "accounts",
      heading: "3. Your account",
      blocks: [
        p(
          "You are responsible for keeping your password confidential and for all activity under your account. Use a strong password that you do not use elsewhere, and tell us immediately if you suspect unauthorized access. We may suspend an account that we believe is being misused.",
        ),
      ],
    },
    {
      id: "applications",
      heading: "4. Applications and no guarantee of approval",
      blocks: [
        p(
          "Submitting an application does not guarantee approval. Every application is subject to underwriting, identity verification and our credit policies, and we may approve a different amount, rate or term than you requested, or decline the application. Rates, amounts and terms shown on our website are examples and ranges, not offers.",
        ),
        p(
          "You agree that the information you provide is true, complete and yours to give, and to tell us promptly if it changes before your loan is funded. Providing false information may be a crime and will result in the application being declined.",
        ),
        p(
          "By applying you authorize us to verify the information you provide and to obtain consumer and, where relevant, business credit reports about you, now and while your loan is outstanding.",
        ),
      ],
    },
    {
      id: "loan-agreement",
      heading: "5. Your loan agreement",
      blocks: [
        p(
          "If your loan is approved, its terms are set out in a separate loan agreement and the disclosures that come with it. If anything in these Terms conflicts with your loan agreement, the loan agreement controls.",
        ),
      ],
    },
    {
      id: "electronic",
      heading: "6. Electronic communications and signatures",
      blocks: [
        p(
          "You agree to receive notices, disclosures and documents electronically and to sign documents electronically, as described in the E-SIGN consent in our Legal Disclosures. Your electronic signature has the same effect as a handwritten one.",
        ),
      ],
    },
    {
      id: "acceptable-use",
      heading: "7. Acceptable use",
      blocks: [
        p("You agree not to:"),
        ul(
          "apply on behalf of another person without their authorization, or impersonate anyone;",
          "upload files that are not genuine or that contain malicious code;",
          "attempt to access accounts, data or systems that are not yours, or to probe, scan or disrupt our services;",
          "use automated means to submit forms or collect content from the website; or",
          "submit testimonials that are false, unlawful, or that contain other people's personal information.",
        ),
        p(
          "Testimonials you submit may be published on our website after review. By submitting one, you grant us a non-exclusive, royalty-free license to display it with the display name, role and location you provide.",
        ),
      ],
    },
    {
      id: "intellectual-property",
      heading: "8. Intellectual property",
      blocks: [
        p(
          `The website, its text, graphics, logos and software belong to ${site.name} or its licensors and are protected by law. You may view and print pages for your personal, non-commercial use only.`,
        ),
      ],
    },
    {
      id: "disclaimers",
      heading: "9. Disclaimers",
      blocks: [
        p(
          'The website and its tools, including the loan calculator, are provided "as is" and "as available" for general information. Calculator results are estimates only. To the extent the law allows, we disclaim all warranties, express or implied, including merchantability, fitness for a particular purpose and non-infringement. We do not promise that the website will be uninterrupted or error-free.',
        ),
      ],
    },
    {
      id: "liability",
      heading: "10. Limitation of liability",
      blocks: [
        p(
          `To the extent the law allows, ${site.name} is not liable for any indirect, incidental, special, consequential or punitive damages arising from your use of the website. Nothing in these Terms limits any right you have under consumer protection laws that cannot be waived.`,
        ),
      ],
    },
    {
      id: "indemnification",
      heading: "11. Indemnification",
      blocks: [
        p(
          "You agree to indemnify us against claims, losses and expenses arising from your breach of these Terms or your misuse of our services, including information you provide that is false.",
        ),
      ],
    },
    {
      id: "governing-law",
      heading: "12. Governing law",
      blocks: [
        p(
          "These Terms are governed by the laws of the State of Delaware and applicable federal law, without regard to conflict-of-law rules. Any dispute about these Terms will be brought in the state or federal courts located in New Castle County, Delaware, unless your loan agreement provides otherwise or the law of your state gives you the right to bring it where you live.",
        ),
      ],
    },
    {
      id: "changes",
      heading: "13. Changes and termination",
      blocks: [
        p(
          "We may change these Terms from time to time; the date at the top shows the latest version, and continued use of our services after a change means you accept it. We may suspend or end your access to the website if you breach these Terms. Sections that by their nature should survive termination will survive.",
        ),
      ],
    },
    {
      id: "contact",
      heading: "14. Contact us",
      blocks: [p("Questions about these Terms? Reach us at:"), { kind: "contact" }],
    },
  ],
};
