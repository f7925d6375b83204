import { formatUsd } from "~/domain/formats";
import { site } from "~/content/site";
import { RATE_BOUNDS } from "~/domain/loan-math";
import { centsFromDollars, formatMoney, rateFromPercent } from "~/domain/money";
import { disclosure } from "~/domain/truth-in-lending";
import { p, ul, type LegalDocument } from "./types";

/**
 * Legal Disclosures: APR range, origination fee, a representative example (computed, so it always
 * matches the Truth in Lending disclosure an offer carries), ECOA, Equal Housing Lender, FCRA, E-SIGN consent, state licensing, the calculator
 * disclaimer, USA PATRIOT Act and testimonial notices.
 */

/** The representative example: $25,000 over 60 months at 10.99% with a 3% origination fee. */
export const representativeExample = (() => {
  const amount = 25_000;
  const months = 60;
  const rate = 10.99;
  const feePercent = 3;
  // The Truth in Lending computation an offer's disclosure uses, for a loan signed on 1 January 2026:
  // interest accrues each day (actual/365), the last payment pays the loan off (so it differs from the
  // others), the APR by Appendix J.
  const d = disclosure({ amountCents: centsFromDollars(amount), noteRateMilli: rateFromPercent(rate), termMonths: months, originationFeeMilli: rateFromPercent(feePercent), signedOn: "2026-01-01" });
  return {
    amount,
    months,
    rate,
    feePercent,
    feeCents: d.originationFeeCents,
    paymentCents: d.paymentCents,
    finalPaymentCents: d.schedule.at(-1)!.paymentCents,
    totalPaymentCents: d.totalOfPaymentsCents,
    apr: d.aprPercent,
  };
})();

const ex = representativeExample;
const paymentsText =
  ex.finalPaymentCents === ex.paymentCents
    ? `${ex.months} monthly payments of ${formatMoney(ex.paymentCents)}`
    : `${ex.months - 1} monthly payments of ${formatMoney(ex.paymentCents)} and a final payment of ${formatMoney(ex.finalPaymentCents)}`;

export const legalDisclosures: LegalDocument = {
  title: "Legal Disclosures",
  description:
    "APR range, origination fees, Equal Credit Opportunity Act notice, E-SIGN consent, state licensing and other legal disclosures for Private Loans.",
  summary: `Important information about ${site.name} loans, rates and fees, your rights under federal law, and how we communicate with you electronically.`,
  sections: [
    {
      id: "rates",
      heading: "Annual percentage rate (APR)",
      blocks: [
        p(
          `Loans offered by ${site.name} have annual percentage rates from ${RATE_BOUNDS.min.toFixed(2)}% to ${RATE_BOUNDS.max.toFixed(2)}% APR. The APR is the yearly cost of your loan, including the interest rate and any origination fee. Your APR depends on the loan type, amount and term, your credit history, income and debts, any collateral, and the state where you live. The lowest rates are available to the most creditworthy applicants.`,
        ),
        p(
          `Representative example: a ${formatUsd(ex.amount, { cents: false })} loan repaid over ${ex.months} months at an interest rate of ${ex.rate}% with a ${ex.feePercent}% origination fee (${formatMoney(ex.feeCents)}, deducted from the loan proceeds) has an APR of ${ex.apr.toFixed(2)}% and ${paymentsText}, for a total of ${formatMoney(ex.totalPaymentCents)}.`,
        ),
      ],
    },
    {
      id: "fees",
      heading: "Origination fee and other charges",
      blocks: [
        p(
          "An origination fee, typically 1% to 5% of the loan amount, may apply. It is either deducted from the loan proceeds or added to the loan amount, as stated in your loan offer. Late payments may incur a late fee where permitted by state law. We do not charge an application fee.",
        ),
        p(
          "Before you sign, you will receive the disclosures required by the federal Truth in Lending Act for consumer loans, showing your APR, finance charge, amount financed, total of payments and payment schedule. Business-purpose loans, including business, hard money and bridge loans, are not consumer credit; their full terms are set out in the loan documents.",
        ),
      ],
    },
    {
      id: "approval",
      heading: "Approval and funding times",
      blocks: [
        p(
          "All loans are subject to underwriting, credit approval and verification of the information you provide; not all applicants will qualify. Decision and funding times are typical times for complete applications and are not guaranteed. Funds are usually available 1 to 3 business days after you sign your loan agreement, depending on your bank.",
        ),
      ],
    },
    {
      id: "ecoa",
      heading: "Equal Credit Opportunity Act notice",
      blocks: [
        {
          kind: "notice",
          text: "The Federal Equal Credit Opportunity Act prohibits creditors from discriminating against credit applicants on the basis of race, color, religion, national origin, sex, marital status, age (provided the applicant has the capacity to enter into a binding contract); because all or part of the applicant's income derives from any public assistance program; or because the applicant has in good faith exercised any right under the Consumer Credit Protection Act. The Federal agency that administers compliance with this law concerning this creditor is the Federal Trade Commission, Consumer Response Center, Washington, DC 20580.",
        },
        p(
          "If your application is declined, you will receive a written notice of the action taken and the principal reasons for it, or of your right to request those reasons.",
        ),
      ],
    },
    {
      id: "equal-housing",
      heading: "Equal Housing Lender",
      blocks: [
        {
          kind: "notice",
          text: `${site.name} is an Equal Housing Lender. We do business in accordance with the Fair Housing Act and the Equal Credit Opportunity Act: we do not discriminate on the basis of race, color, religion, national origin, sex (including sexual orientation and gender identity), disability, familial status, marital status, age (provided the applicant has the capacity to contract), receipt of income from any public assistance program, or the good-faith exercise of any right under the Consumer Credit Protection Act.`,
        },
        p(
          "If you believe you have been discriminated against in applying for a loan secured by a home, you may contact the U.S. Department of Housing and Urban Development at 1-800-669-9777 or hud.gov/fairhousing. For any other loan, you may contact the Federal Trade Commission at ReportFraud.ftc.gov or the Consumer Financial Protection Bureau at consumerfinance.gov.",
        ),
      ],
    },
    {
      id: "fcra",
      heading: "Credit reports (Fair Credit Reporting Act)",
      blocks: [
        p(
          "By applying, you authorize us to obtain consumer reports about you from one or more consumer reporting agencies to evaluate your application and, if a loan is made, to review, service and collect it. If we take adverse action based on information in a consumer report, we will tell you the name and address of the agency that provided it and your right to a free copy and to dispute its accuracy. We may report information about your loan to credit bureaus; late payments, missed payments or other defaults may be reflected in your credit report.",
        ),
      ],
    },
    {
      id: "esign",
      heading: "E-SIGN consent to electronic records and signatures",
      blocks: [
        p(
          "Under the federal Electronic Signatures in Global and National Commerce Act (E-SIGN), we need your consent to provide disclosures, notices, agreements and other records to you electronically and to accept your electronic signature. When you create an account or sign your application, you consent to the following:",
        ),
        ul(
          "Scope: this consent covers your application, loan offer, loan agreement, Truth in Lending and other legally required disclosures, privacy notices, adverse action notices, statements and other communications about your application or loan.",
          "How we deliver records: we post them in your dashboard and/or send them to the e-mail address in your account.",
          `Paper copies: you may request a paper copy of any record at no charge by calling ${site.phone.display} or writing to us. Requesting a paper copy does not withdraw your consent.`,
          "Withdrawing consent: you may withdraw your consent at any time, free of charge, by contacting us. Withdrawal does not affect the validity of records already provided or signatures already given. If you withdraw consent before a loan is made, we may be unable to continue processing your application online.",
          "Keeping your information current: you must keep your e-mail address up to date by updating your account or contacting us.",
          "Hardware and software: a current version of Chrome, Edge, Firefox or Safari with cookies and JavaScript enabled, an e-mail account, a device able to open PDF files, and enough storage or a printer to keep copies of your records.",
        ),
      ],
    },
    {
      id: "licensing",
      heading: "State licensing",
      blocks: [
        p(
          `${site.name} is headquartered in Wilmington, Delaware, and makes loans under the licenses or exemptions that apply in each state where it lends. Loan products, amounts, rates and terms may vary by state, and some products are not available in all states. License details for your state are included in your loan documents and are available on request. Residents of some states may contact their state financial regulator with complaints.`,
        ),
      ],
    },
    {
      id: "calculator",
      heading: "Loan calculator disclaimer",
      blocks: [
        {
          kind: "notice",
          title: "Estimates only",
          text: "Results from our loan calculator are estimates only, provided for illustration. They are not a loan offer, a commitment to lend or a guarantee of any rate, payment or term. Your actual rate, payment and costs depend on underwriting and are stated in your loan documents.",
        },
      ],
    },
    {
      id: "patriot-act",
      heading: "Important information about procedures for opening a new account",
      blocks: [
        p(
          "To help the government fight the funding of terrorism and money laundering activities, federal law requires all financial institutions to obtain, verify and record information that identifies each person who opens an account. What this means for you: when you apply, we will ask for your name, address, date of birth, Social Security number and other information that will allow us to identify you, and we will ask to see a copy of your government-issued photo ID.",
        ),
      ],
    },
    {
      id: "military",
      heading: "Active-duty servicemembers",
      blocks: [
        p(
          "Federal law provides important protections to members of the Armed Forces and their dependents relating to extensions of consumer credit. If you are a covered borrower under the Military Lending Act, the cost of your consumer credit will not exceed a 36% Military Annual Percentage Rate, and you may call us for an oral disclosure of your payment obligation.",
        ),
      ],
    },
    {
      id: "testimonials",
      heading: "Testimonials",
      blocks: [
        p(
          "Testimonials on our website reflect the experiences of individual clients. Individual results vary; a testimonial does not guarantee that you will receive the same rate, amount, terms or timing.",
        ),
      ],
    },
    {
      id: "contact",
      heading: "Questions or complaints",
      blocks: [p("If you have a question or a complaint about your loan or these disclosures, contact us:"), { kind: "contact" }],
    },
  ],
};
