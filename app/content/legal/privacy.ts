import { site } from "~/content/site";
import { currentPrivacyNotice, privacyNoticeDate } from "./privacy-notice";
import { p, ul, type LegalDocument } from "./types";

/**
 * Privacy Policy, including the Gramm-Leach-Bliley Act privacy notice in the federal model form's
 * structure (Facts / Why? / What? / How? / the sharing table / To limit our sharing / Questions?).
 */
export const privacyPolicy: LegalDocument = {
  title: "Privacy Policy",
  description:
    "How Private Loans collects, uses, shares and protects your personal information, including our Gramm-Leach-Bliley Act privacy notice and your opt-out rights.",
  summary: `This policy explains what personal information ${site.name} collects, how we use, share and protect it, and the choices you have. It includes our privacy notice under the federal Gramm-Leach-Bliley Act. This version is effective ${privacyNoticeDate(currentPrivacyNotice.version)}.`,
  sections: [
    {
      id: "glba-notice",
      heading: `Facts: What does ${site.name} do with your personal information?`,
      blocks: [
        {
          kind: "dl",
          items: [
            {
              term: "Why?",
              definition:
                "Financial companies choose how they share your personal information. Federal law gives consumers the right to limit some but not all sharing. Federal law also requires us to tell you how we collect, share, and protect your personal information. Please read this notice carefully to understand what we do.",
            },
            {
              term: "What?",
              definition:
                "The types of personal information we collect and share depend on the product or service you have with us. This information can include: your Social Security number and income; your account balances and payment history; your credit history and credit scores; your employment information and bank account information. When you are no longer our customer, we continue to share your information as described in this notice.",
            },
            {
              term: "How?",
              definition: `All financial companies need to share customers' personal information to run their everyday business. In the table below, we list the reasons financial companies can share their customers' personal information, the reasons ${site.name} chooses to share, and whether you can limit this sharing.`,
            },
          ],
        },
        {
          kind: "table",
          caption: "Reasons we can share your personal information",
          head: ["Reasons we can share your personal information", `Does ${site.name} share?`, "Can you limit this sharing?"],
          rows: [
            [
              "For our everyday business purposes: such as to process your transactions, maintain your account(s), respond to court orders and legal investigations, or report to credit bureaus",
              "Yes",
              "No",
            ],
            ["For our marketing purposes: to offer our products and services to you", "Yes", "Yes (see Your opt-out rights)"],
            ["For joint marketing with other financial companies", "No", "We don't share"],
            ["For our affiliates' everyday business purposes: information about your transactions and experiences", "No", "We don't share"],
            ["For our affiliates' everyday business purposes: information about your creditworthiness", "No", "We don't share"],
            ["For our affiliates to market to you", "No", "We don't share"],
            ["For nonaffiliates to market to you", "No", "We don't share"],
          ],
        },
        {
          kind: "dl",
          items: [
            {
              term: "To limit our sharing",
              definition: `Call us at ${site.phone.display}, e-mail ${site.email}, or use the unsubscribe link in any marketing e-mail. If you are a new customer, we can begin sharing your information 30 days from the date we sent this notice. When you are no longer our customer, we continue to share your information as described in this notice. However, you can contact us at any time to limit our sharing.`,
            },
            {
              term: "Questions?",
              definition: `Call ${site.phone.display} or visit our Contact page.`,
            },
          ],
        },
      ],
    },
    {
      id: "who-we-are",
      heading: "Who we are and what we do",
      blocks: [
        {
          kind: "dl",
          items: [
            { term: "Who is providing this notice?", definition: `${site.name}, a private lender headquartered in Wilmington, Delaware.` },
            {
              term: `How does ${site.name} protect my personal information?`,
              definition:
                "To protect your personal information from unauthorized access and use, we use security measures that comply with federal law. These measures include computer safeguards and secured files and buildings. They are described under Data security below.",
            },
            {
              term: `How does ${site.name} collect my personal information?`,
              definition:
                "We collect your personal information, for example, when you apply for a loan, give us your income information, provide your employment information, give us your contact information or provide account information. We also collect your personal information from others, such as credit bureaus and identity verification services.",
            },
            {
              term: "Why can't I limit all sharing?",
              definition:
                "Federal law gives you the right to limit only sharing for affiliates' everyday business purposes (information about your creditworthiness), affiliates from using your information to market to you, and sharing for nonaffiliates to market to you. State laws and individual companies may give you additional rights to limit sharing.",
            },
          ],
        },
      ],
    },
    {
      id: "definitions",
      heading: "Definitions",
      blocks: [
        {
          kind: "dl",
          items: [
            {
              term: "Affiliates",
              definition: `Companies related by common ownership or control. They can be financial and nonfinancial companies. ${site.name} has no affiliates with which it shares personal information.`,
            },
            {
              term: "Nonaffiliates",
              definition: `Companies not related by common ownership or control. They can be financial and nonfinancial companies. ${site.name} does not share with nonaffiliates so they can market to you.`,
            },
            {
              term: "Joint marketing",
              definition: `A formal agreement between nonaffiliated financial companies that together market financial products or services to you. ${site.name} does not jointly market.`,
            },
          ],
        },
      ],
    },
    {
      id: "information-we-collect",
      heading: "Information we collect online",
      blocks: [
        p("When you use our website and client portal we collect:"),
        ul(
          "Account information: your name, e-mail address and password (stored only as a one-way hash).",
          "Application information: your date of birth, Social Security number, address, phone number, employment and income, the loan you request and its purpose, your bank account and routing numbers, your uploaded documents and your electronic signature.",
          "Messages you send us through the contact form, and testimonials you submit.",
          "Technical information needed to run and secure the service: IP address, browser type, pages requested and the time of each request.",
        ),
        p(
          "We use only the cookies needed to keep you signed in, protect forms against forgery and show one-time notifications. We do not use advertising cookies or third-party tracking.",
        ),
      ],
    },
    {
      id: "how-we-use",
      heading: "How we use your information",
      blocks: [
        ul(
          "To evaluate your application, verify your identity and make a credit decision.",
          "To fund, service and collect your loan, and to communicate with you about it.",
          "To prevent fraud, secure our systems and comply with law, including anti-money-laundering rules.",
          "To answer your questions and improve our products and website.",
          "To send you offers for our own products, unless you opt out.",
        ),
      ],
    },
    {
      id: "opt-out",
      heading: "Your opt-out rights",
      blocks: [
        p(
          "You may opt out of marketing from us at any time. Opting out does not affect messages about an application or a loan you already have, which we must send.",
        ),
        ul(
          "E-mail: use the unsubscribe link in any marketing e-mail, or write to us.",
          `Phone: call ${site.phone.display} and ask to be placed on our internal do-not-call list.`,
          "Sharing: we do not share your information with nonaffiliates for their marketing. If that ever changes, we will send you a revised notice and give you at least 30 days to opt out before any such sharing begins.",
        ),
        p(
          "Residents of some states, including California and Vermont, have additional rights under state law. We honor those rights, and we will not share your information with nonaffiliated third parties for marketing without the consent your state requires.",
        ),
      ],
    },
    {
      id: "data-security",
      heading: "Data security",
      blocks: [
        p("We protect your information with administrative, technical and physical safeguards, including:"),
        ul(
          "Encryption in transit: every page and upload travels over TLS (HTTPS).",
          "Encryption at rest: your Social Security number and bank account and routing numbers are encrypted with AES-256 before they are stored, with keys kept separately from the data and rotated regularly. Our databases and document storage are also encrypted at rest.",
          "Multi-factor authentication (MFA) for every staff member who can access customer data, and access limited to the employees who need it for their job.",
          "An audit log of every access to sensitive data and every review decision, which cannot be altered.",
          "Passwords stored only as slow, salted one-way hashes; sign-in attempts are rate-limited and protected against automated abuse.",
          "Regular security reviews, staff training and a written information security program as required by the FTC Safeguards Rule.",
        ),
        p(
          "No system is perfectly secure. If a breach affecting your information occurs, we will notify you and the authorities as required by law.",
        ),
      ],
    },
    {
      id: "retention",
      heading: "Data retention",
      blocks: [
        p(
          "Federal and state lending laws require us to keep records of applications and loans. We retain application data, including documents, for about 7 years after the application is decided or the loan is paid off, then delete it securely. Contact messages and marketing preferences are kept for as long as needed to serve you.",
        ),
      ],
    },
    {
      id: "your-rights",
      heading: "Access, correction and deletion",
      blocks: [
        p(
          "You can see much of your information in your dashboard. You may ask us for a copy of your personal information, ask us to correct it, or ask us to delete it. We will respond within the time required by law. We may keep information we are legally required to retain, and we will tell you when that applies.",
        ),
      ],
    },
    {
      id: "children",
      heading: "Children's privacy",
      blocks: [
        p("Our services are intended for adults. We do not knowingly collect personal information from anyone under 18."),
      ],
    },
    {
      id: "changes",
      heading: "Changes to this policy",
      blocks: [
        p(
          "We may update this policy from time to time. The date at the top of this page shows when it was last updated. If we make material changes to how we share your information, we will notify you before the changes take effect.",
        ),
      ],
    },
    {
      id: "contact",
      heading: "Contact us",
      blocks: [p("Questions about this policy or your information? Reach us at:"), { kind: "contact" }],
    },
  ],
};
