// The demo data set: applicants with their applications, contact messages, and the demo accounts'
// passwords. Every person, company and bank is invented; e-mails are on example.com, phone numbers
// in the fictional 555-01xx block, SSNs are the two numbers the SSA voided after they were printed
// on sample cards (078-05-1120, 219-09-9999: no one holds them, and they pass the SSA's structural
// rules, which refuse the 987-65-432x advertising block). Routing numbers are made up but valid: the
// Federal Reserve routing symbol of the bank's district first (12 San Francisco, 05 Richmond, 11 Dallas,
// 04 Cleveland, 07 Chicago, 06 Atlanta), the check digit last; the seeder validates each like a submission.

import type { ConversationSide, RequestItemKind, RequestItemStatus } from "~/domain/conversation-enums";
import type { ApprovalTerms } from "~/server/applications/index.server";

export const DEMO_APPLICANT_PASSWORD = "Demo!Pass123";
export const DEMO_ADMIN_DEFAULTS = { email: "admin@example.com", password: "Admin!Demo123", name: "Demo Administrator" } as const;

/** "incomplete": under review, then closed as incomplete once a requested item was past its due date. */
export type Outcome = "pending" | "under_review" | "approved" | "denied" | "incomplete";

export type DemoApplication = {
  /** Unique per applicant; stored as the application's idempotency key (so a rerun finds it). */
  key: string;
  daysAgo: number;
  outcome: Outcome;
  loan: Record<string, string>;
  bank: Record<string, string>;
  approve?: ApprovalTerms;
  /**
   * What the applicant did with the offer: signed it (E-SIGN consent, then a typed signature: the loan
   * awaits funding, or is funded when it has servicing) or declined it; absent, the offer is still open.
   */
  offer?: "signed" | "declined";
  /**
   * Servicing for a signed loan: the seeder moves its start back in time and posts payments
   * through the servicing code so the demo shows every state: current (on-time payments), late (a
   * missed installment past the grace period, with its late fee) or paid_in_full.
   */
  servicing?: "current" | "late" | "paid_in_full" | "behind";
  /**
   * "behind": a loan whose first installment fell due about this many days ago and was never paid, so it
   * sits in a delinquency bucket (1–29 … 120+) and the servicing job has assessed its late fees.
   */
  behindDays?: number;
  /**
   * What collections did with it (scripts/demo/late-loans.ts): a promise to pay that was broken, a
   * hardship plan signed, an active-duty servicemember recorded, or a charge-off with a recovery after it.
   */
  lateLoanStory?: "broken_promise" | "payment_plan" | "servicemember" | "charged_off";
  denyReasons?: string[];
  /** Admin notes for applications under review. */
  note?: string;
  /** Hours after submission at which staff started the review (under_review only; default 12). */
  reviewStartedHoursAfter?: number;
  /** What We Need: the lender's requests on this application. */
  requests?: DemoRequest[];
  /** The conversation about this application, oldest first. */
  conversation?: DemoConversation;
};

/** One Request Documents: its items share the request's time, note and due date. */
export type DemoRequest = {
  hoursAgo: number;
  /** Days from today (the seed's run) to the due date; positive: still ahead. */
  dueInDays: number;
  items: DemoRequestItem[];
};

export type DemoRequestItem = {
  kind: RequestItemKind;
  note: string;
  status: RequestItemStatus;
  /** The applicant's answer: a written reply (questions) or an uploaded PDF (documents). */
  answer?: { hoursAgo: number; reply?: string; upload?: { fileName: string; title: string; lines: string[] } };
  /** Staff's review of the answer (accepted or rejected; a rejection has its reason). */
  review?: { hoursAgo: number; rejectionReason?: string };
};

export type DemoConversation = {
  messages: { side: ConversationSide; hoursAgo: number; body: string }[];
  /** When each side last read the conversation (hours ago); absent: never, so every message from the other side is unread. */
  applicantReadHoursAgo?: number;
  staffReadHoursAgo?: number;
};

export type DemoApplicant = {
  name: string;
  email: string;
  personal: Record<string, string>;
  financial: Record<string, string>;
  applications: DemoApplication[];
  testimonial?: { rating: number; role: string; location: string; content: string; daysAgo: number; approve: boolean };
};

/** A 9-digit ABA routing number: 8 digits plus the checksum digit (weights 3, 7, 1). */
function routing(first8: string): string {
  const d = first8.split("").map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
  return `${first8}${(10 - (sum % 10)) % 10}`;
}

export const DEMO_APPLICANTS: DemoApplicant[] = [
  {
    name: "Maria Delgado",
    email: "maria.delgado@example.com",
    personal: { firstName: "Maria", middleInitial: "L", lastName: "Delgado", dateOfBirth: "1984-03-22", ssn: "078-05-1120", phone: "(602) 555-0114", addressLine1: "2150 E Camelback Rd", addressLine2: "Apt 310", city: "Phoenix", state: "AZ", zipCode: "85016" },
    financial: { employmentStatus: "full-time", employerName: "Desert Valley Medical Center", jobTitle: "Registered Nurse", yearsEmployed: "9", monthlyIncome: "7,400", annualIncome: "88,800", creditScore: "742", monthlyDebts: "650", hasOutstandingLoans: "false", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-maria-personal-01",
        // Serviced from 70 days ago, decided the day before: submitted before that (demoTimeline).
        daysAgo: 75,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "25,000", desiredInterestRate: "9.75", loanDuration: "36", loanPurpose: "Paying off medical bills and replacing the roof of our detached garage before the monsoon season." },
        bank: { accountHolderName: "Maria L Delgado", bankName: "Saguaro Community Bank", bankAddress: "400 N Central Ave, Phoenix, AZ 85004", accountNumber: "4402918837", routingNumber: routing("12210731"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 2_500_000, interestRateMilli: 9750, termMonths: 36, originationFeeMilli: 1500 },
        offer: "signed",
        servicing: "current",
      },
      {
        // Fell behind after a hospital stay and asked for help: a Payment Plan, signed, lowers her next payments.
        key: "demo-maria-auto-02",
        daysAgo: 58,
        outcome: "approved",
        loan: { loanType: "auto-loans", loanAmount: "14,000", desiredInterestRate: "8.9", loanDuration: "36", loanPurpose: "A reliable used sedan for commuting to the hospital's night shifts." },
        bank: { accountHolderName: "Maria L Delgado", bankName: "Saguaro Community Bank", bankAddress: "400 N Central Ave, Phoenix, AZ 85004", accountNumber: "4402918845", routingNumber: routing("12210731"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 1_400_000, interestRateMilli: 8900, termMonths: 36, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 20,
        lateLoanStory: "payment_plan",
      },
    ],
    testimonial: {
      rating: 5,
      role: "Registered Nurse",
      location: "Phoenix, AZ",
      content: "From application to funding took less than a week. My loan officer explained every fee up front and there were no surprises at closing.",
      daysAgo: 12,
      approve: true,
    },
  },
  {
    name: "James Whitaker",
    email: "james.whitaker@example.com",
    personal: { firstName: "James", middleInitial: "R", lastName: "Whitaker", dateOfBirth: "1979-11-02", ssn: "219-09-9999", phone: "(704) 555-0162", addressLine1: "418 Camden Rd", city: "Charlotte", state: "NC", zipCode: "28203" },
    financial: { employmentStatus: "self-employed", employerName: "Whitaker Custom Cabinetry LLC", jobTitle: "Owner", yearsEmployed: "7", monthlyIncome: "14,500", annualIncome: "174,000", creditScore: "701", monthlyDebts: "2,300", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-james-personal-00",
        daysAgo: 120,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "12,000", desiredInterestRate: "10.5", loanDuration: "24", loanPurpose: "A second delivery van for the shop's installation crew." },
        bank: { accountHolderName: "James R Whitaker", bankName: "Piedmont Merchants Bank", bankAddress: "201 S Tryon St, Charlotte, NC 28202", accountNumber: "730015502305", routingNumber: routing("05310422"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 1_200_000, interestRateMilli: 10_500, termMonths: 24, originationFeeMilli: 1000 },
        offer: "declined",
      },
      {
        key: "demo-james-business-01",
        daysAgo: 2,
        outcome: "pending",
        loan: { loanType: "business", loanAmount: "180,000", desiredInterestRate: "11.5", loanDuration: "60", loanPurpose: "Purchase of a CNC router and working capital for two new commercial fit-out contracts.", businessName: "Whitaker Custom Cabinetry LLC", businessYears: "7" },
        bank: { accountHolderName: "Whitaker Custom Cabinetry LLC", bankName: "Piedmont Merchants Bank", bankAddress: "201 S Tryon St, Charlotte, NC 28202", accountNumber: "730015502291", routingNumber: routing("05310422"), bankAccountType: "business", swiftCode: "PMBKUS33" },
        conversation: {
          messages: [{ side: "applicant", hoursAgo: 18, body: "Hello, the equipment vendor holds the CNC router price until the end of the month. Is a decision likely before then?" }],
        },
      },
      {
        // 30–59 days past due; he promised to pay and did not (the promise is broken).
        key: "demo-james-personal-03",
        daysAgo: 82,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "9,000", desiredInterestRate: "12.5", loanDuration: "24", loanPurpose: "Replacing the furnace and water heater in our house before winter." },
        bank: { accountHolderName: "James R Whitaker", bankName: "Piedmont Merchants Bank", bankAddress: "201 S Tryon St, Charlotte, NC 28202", accountNumber: "730015502313", routingNumber: routing("05310422"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 900_000, interestRateMilli: 12_500, termMonths: 24, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 45,
        lateLoanStory: "broken_promise",
      },
      {
        // 60–89 days past due; called to active duty: the SCRA caps his interest at 6 % from the start of service.
        key: "demo-james-auto-04",
        daysAgo: 112,
        outcome: "approved",
        loan: { loanType: "auto-loans", loanAmount: "18,000", desiredInterestRate: "9.9", loanDuration: "48", loanPurpose: "A used minivan for the family after our old car failed its inspection." },
        bank: { accountHolderName: "James R Whitaker", bankName: "Piedmont Merchants Bank", bankAddress: "201 S Tryon St, Charlotte, NC 28202", accountNumber: "730015502321", routingNumber: routing("05310422"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 1_800_000, interestRateMilli: 9900, termMonths: 48, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 75,
        lateLoanStory: "servicemember",
      },
    ],
    testimonial: {
      rating: 4,
      role: "Small Business Owner",
      location: "Charlotte, NC",
      content: "The business loan process was straightforward and the team understood seasonal cash flow. Every question got an answer the same day.",
      daysAgo: 1,
      approve: false,
    },
  },
  {
    name: "Priya Raman",
    email: "priya.raman@example.com",
    personal: { firstName: "Priya", lastName: "Raman", dateOfBirth: "1987-06-15", ssn: "078-05-1120", phone: "(512) 555-0187", addressLine1: "7801 Shoal Creek Blvd", city: "Austin", state: "TX", zipCode: "78757" },
    financial: { employmentStatus: "self-employed", employerName: "Raman Property Partners", jobTitle: "Real Estate Investor", yearsEmployed: "6", monthlyIncome: "18,200", annualIncome: "218,400", creditScore: "768", monthlyDebts: "4,100", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-priya-hardmoney-01",
        daysAgo: 5,
        outcome: "under_review",
        loan: { loanType: "hard-money", loanAmount: "650,000", desiredInterestRate: "12.9", loanDuration: "12", loanPurpose: "Bridge financing to acquire and renovate a four-unit rental property before refinancing into a long-term loan.", propertyAddress: "1207 E 12th St, Austin, TX 78702" },
        bank: { accountHolderName: "Priya Raman", bankName: "Hill Country Savings", bankAddress: "1100 Congress Ave, Austin, TX 78701", accountNumber: "55120987431", routingNumber: routing("11400418"), bankAccountType: "checking" },
        note: "Appraisal ordered; waiting on the title commitment before the final review.",
        reviewStartedHoursAfter: 14,
        requests: [
          {
            hoursAgo: 96,
            dueInDays: 6,
            items: [
              {
                kind: "bank_statement",
                note: "All pages of your most recent business checking statement, showing the reserves for the renovation.",
                status: "rejected",
                answer: {
                  hoursAgo: 70,
                  upload: { fileName: "hill-country-statement-page-1.pdf", title: "Hill Country Savings - Statement (page 1 of 4)", lines: ["Account holder: Priya Raman", "Page 1 of 4", "Balances continue on page 2."] },
                },
                review: { hoursAgo: 50, rejectionReason: "Only the first of four pages came through. Please upload the complete statement, all four pages in one PDF." },
              },
              {
                kind: "proof_of_address",
                note: "A recent utility bill or insurance statement for your current home address.",
                status: "accepted",
                answer: {
                  hoursAgo: 69,
                  upload: { fileName: "austin-energy-bill.pdf", title: "Austin Energy - Monthly Bill", lines: ["Customer: Priya Raman", "Service address: 7801 Shoal Creek Blvd, Austin, TX 78757", "Amount due: $142.18"] },
                },
                review: { hoursAgo: 50 },
              },
              {
                kind: "question",
                note: "What is your total renovation budget for the property, and who is the general contractor?",
                status: "received",
                answer: {
                  hoursAgo: 68,
                  reply: "The renovation budget is $85,000 including a 10% contingency. The general contractor is Eastside Build Co., licensed in Travis County; their bid is attached to the collateral summary.",
                },
              },
            ],
          },
        ],
        conversation: {
          messages: [
            { side: "staff", hoursAgo: 95, body: "Hello Priya, thank you for your application. We have ordered the appraisal and added three items under What We Need; the statement is the one that holds things up." },
            { side: "applicant", hoursAgo: 71, body: "Thanks! I have uploaded the bill and the statement and answered the budget question. Let me know if anything else is needed." },
            { side: "staff", hoursAgo: 49, body: "We accepted the utility bill. The statement only had its first page, so we could not use it yet; the reason is next to the item. Could you upload all four pages?" },
            { side: "staff", hoursAgo: 20, body: "A reminder: the appraisal is scheduled for Thursday morning. The appraiser will call you the day before." },
          ],
          applicantReadHoursAgo: 60,
          staffReadHoursAgo: 65,
        },
      },
    ],
  },
  {
    name: "Daniel Okafor",
    email: "daniel.okafor@example.com",
    personal: { firstName: "Daniel", middleInitial: "C", lastName: "Okafor", dateOfBirth: "1996-09-08", ssn: "219-09-9999", phone: "(614) 555-0139", addressLine1: "55 W Lane Ave", addressLine2: "Apt 4B", city: "Columbus", state: "OH", zipCode: "43201" },
    financial: { employmentStatus: "part-time", employerName: "Buckeye Logistics", jobTitle: "Warehouse Associate", yearsEmployed: "1.5", monthlyIncome: "2,300", annualIncome: "27,600", creditScore: "588", monthlyDebts: "1,150", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-daniel-auto-01",
        daysAgo: 12,
        outcome: "denied",
        loan: { loanType: "auto-loans", loanAmount: "38,000", desiredInterestRate: "14.9", loanDuration: "60", loanPurpose: "Purchase of a reliable used pickup truck for commuting and weekend delivery work." },
        bank: { accountHolderName: "Daniel C Okafor", bankName: "Scioto Valley Credit Union", accountNumber: "9910043378", routingNumber: routing("04410107"), bankAccountType: "checking" },
        denyReasons: ["Debt-to-income ratio above our lending guidelines", "Length of employment below our minimum of two years"],
      },
      {
        key: "demo-daniel-personal-02",
        daysAgo: 95,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "6,000", desiredInterestRate: "13.5", loanDuration: "24", loanPurpose: "Covering a security deposit and moving costs for a new apartment closer to work." },
        bank: { accountHolderName: "Daniel C Okafor", bankName: "Scioto Valley Credit Union", accountNumber: "9910043386", routingNumber: routing("04410107"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 600_000, interestRateMilli: 13_500, termMonths: 24, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "late",
      },
      {
        // 120+ days past due: the collections queue proposes it for charge-off.
        key: "demo-daniel-debtcons-03",
        daysAgo: 190,
        outcome: "approved",
        loan: { loanType: "debt-consolidation", loanAmount: "52,000", desiredInterestRate: "15.9", loanDuration: "60", loanPurpose: "Paying off four store cards, a medical bill and a car title loan into one payment." },
        bank: { accountHolderName: "Daniel C Okafor", bankName: "Scioto Valley Credit Union", accountNumber: "9910043394", routingNumber: routing("04410107"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 5_200_000, interestRateMilli: 15_900, termMonths: 60, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 150,
      },
      {
        // Charged off after 200 days with nothing paid; a recovery payment came in after.
        key: "demo-daniel-personal-04",
        daysAgo: 240,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "5,500", desiredInterestRate: "16.5", loanDuration: "24", loanPurpose: "Car repairs and two months of rent after an injury kept me from work." },
        bank: { accountHolderName: "Daniel C Okafor", bankName: "Scioto Valley Credit Union", accountNumber: "9910043408", routingNumber: routing("04410107"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 550_000, interestRateMilli: 16_500, termMonths: 24, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 200,
        lateLoanStory: "charged_off",
      },
    ],
  },
  {
    name: "Emily Chen",
    email: "emily.chen@example.com",
    personal: { firstName: "Emily", lastName: "Chen", dateOfBirth: "1982-01-30", ssn: "078-05-1120", phone: "(503) 555-0175", addressLine1: "3320 SE Belmont St", city: "Portland", state: "OR", zipCode: "97214" },
    financial: { employmentStatus: "full-time", employerName: "Cascade Software Group", jobTitle: "Senior Product Manager", yearsEmployed: "5", monthlyIncome: "12,900", annualIncome: "154,800", creditScore: "781", monthlyDebts: "1,900", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-emily-homeimp-01",
        daysAgo: 30,
        outcome: "approved",
        loan: { loanType: "home-improvement", loanAmount: "85,000", desiredInterestRate: "8.25", loanDuration: "120", loanPurpose: "Kitchen remodel and energy-efficient windows for our 1920s bungalow." },
        bank: { accountHolderName: "Emily Chen", bankName: "Willamette Federal Credit Union", bankAddress: "800 SW Broadway, Portland, OR 97205", accountNumber: "204478810563", routingNumber: routing("12300071"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 8_000_000, interestRateMilli: 8250, termMonths: 120, counterofferReasons: ["Insufficient collateral"] },
      },
      {
        key: "demo-emily-auto-02",
        daysAgo: 50,
        outcome: "incomplete",
        loan: { loanType: "auto-loans", loanAmount: "24,000", desiredInterestRate: "7.5", loanDuration: "48", loanPurpose: "A used hybrid to replace our fifteen-year-old minivan." },
        bank: { accountHolderName: "Emily Chen", bankName: "Willamette Federal Credit Union", bankAddress: "800 SW Broadway, Portland, OR 97205", accountNumber: "204478810571", routingNumber: routing("12300071"), bankAccountType: "checking" },
        note: "Waiting on the purchase agreement from the dealer.",
        reviewStartedHoursAfter: 20,
        requests: [
          {
            hoursAgo: 46 * 24,
            dueInDays: -32,
            items: [{ kind: "other_document", note: "The signed purchase agreement for the vehicle, showing its VIN and price.", status: "requested" }],
          },
        ],
        conversation: {
          messages: [
            { side: "staff", hoursAgo: 46 * 24 - 1, body: "Hello Emily, to finish the review we need the dealer's purchase agreement for the car; it is listed under What We Need." },
            { side: "applicant", hoursAgo: 44 * 24, body: "We are still choosing between two cars. I will upload the agreement once we have signed." },
          ],
          applicantReadHoursAgo: 44 * 24,
          staffReadHoursAgo: 43 * 24,
        },
      },
      {
        // 90–119 days past due.
        key: "demo-emily-personal-03",
        daysAgo: 142,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "12,000", desiredInterestRate: "10.5", loanDuration: "36", loanPurpose: "Bridging a gap between contracts: rent and insurance for four months." },
        bank: { accountHolderName: "Emily Chen", bankName: "Willamette Federal Credit Union", bankAddress: "800 SW Broadway, Portland, OR 97205", accountNumber: "204478810589", routingNumber: routing("12300071"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 1_200_000, interestRateMilli: 10_500, termMonths: 36, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "behind",
        behindDays: 105,
      },
    ],
    testimonial: {
      rating: 5,
      role: "Homeowner",
      location: "Portland, OR",
      content: "Clear terms, a fair rate and a dashboard that showed exactly where my application stood. Our kitchen remodel is finished thanks to Private Loans.",
      daysAgo: 20,
      approve: true,
    },
  },
  {
    name: "Robert Kowalski",
    email: "robert.kowalski@example.com",
    personal: { firstName: "Robert", middleInitial: "J", lastName: "Kowalski", dateOfBirth: "1975-04-19", ssn: "219-09-9999", phone: "(414) 555-0128", addressLine1: "2914 S Kinnickinnic Ave", city: "Milwaukee", state: "WI", zipCode: "53207" },
    financial: { employmentStatus: "full-time", employerName: "Lakeshore Manufacturing", jobTitle: "Maintenance Supervisor", yearsEmployed: "14", monthlyIncome: "6,100", annualIncome: "73,200", creditScore: "655", monthlyDebts: "1,750", hasOutstandingLoans: "true", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-robert-personal-01",
        daysAgo: 45,
        outcome: "denied",
        loan: { loanType: "personal", loanAmount: "60,000", desiredInterestRate: "11.25", loanDuration: "60", loanPurpose: "Boat purchase and a family trip to Poland for my parents' anniversary." },
        bank: { accountHolderName: "Robert J Kowalski", bankName: "Lakeshore Savings Bank", bankAddress: "735 N Water St, Milwaukee, WI 53202", accountNumber: "3300671209", routingNumber: routing("07590066"), bankAccountType: "savings" },
        denyReasons: ["Requested amount exceeds what the stated income supports"],
      },
      {
        key: "demo-robert-debtcons-02",
        daysAgo: 1,
        outcome: "pending",
        loan: { loanType: "debt-consolidation", loanAmount: "52,000", desiredInterestRate: "10.9", loanDuration: "48", loanPurpose: "Consolidating three credit cards and a personal loan into one lower monthly payment." },
        bank: { accountHolderName: "Robert J Kowalski", bankName: "Lakeshore Savings Bank", bankAddress: "735 N Water St, Milwaukee, WI 53202", accountNumber: "3300671217", routingNumber: routing("07590066"), bankAccountType: "checking" },
      },
    ],
  },
  {
    name: "Sofia Alvarez",
    email: "sofia.alvarez@example.com",
    personal: { firstName: "Sofia", middleInitial: "M", lastName: "Alvarez", dateOfBirth: "1961-12-05", ssn: "078-05-1120", phone: "(305) 555-0193", addressLine1: "1500 Brickell Bay Dr", addressLine2: "Unit 1204", city: "Miami", state: "FL", zipCode: "33131" },
    financial: { employmentStatus: "retired", employerName: "Retired (Miami-Dade Public Schools)", jobTitle: "Retired Teacher", monthlyIncome: "5,800", annualIncome: "69,600", creditScore: "724", monthlyDebts: "900", hasOutstandingLoans: "false", authorizeCreditReport: "true" },
    applications: [
      {
        key: "demo-sofia-personal-01",
        // Serviced from 70 days ago and paid off today; submitted before its decision (demoTimeline).
        daysAgo: 75,
        outcome: "approved",
        loan: { loanType: "personal", loanAmount: "15,000", desiredInterestRate: "7.99", loanDuration: "24", loanPurpose: "Covering dental implant costs that my insurance does not pay." },
        bank: { accountHolderName: "Sofia M Alvarez", bankName: "Biscayne Harbor Bank", bankAddress: "2 S Biscayne Blvd, Miami, FL 33131", accountNumber: "6120049982", routingNumber: routing("06700091"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 1_500_000, interestRateMilli: 7990, termMonths: 24, originationFeeMilli: 1000 },
        offer: "signed",
        servicing: "paid_in_full",
      },
      {
        // Signed two days ago and not funded yet: Awaiting Funding, its Funding Checklist open for staff.
        key: "demo-sofia-homeimp-03",
        daysAgo: 4,
        outcome: "approved",
        loan: { loanType: "home-improvement", loanAmount: "68,000", desiredInterestRate: "9.25", loanDuration: "60", loanPurpose: "A new roof and hurricane shutters for the condo's enclosed balcony." },
        bank: { accountHolderName: "Sofia M Alvarez", bankName: "Biscayne Harbor Bank", bankAddress: "2 S Biscayne Blvd, Miami, FL 33131", accountNumber: "6120049982", routingNumber: routing("06700091"), bankAccountType: "checking" },
        approve: { approvedAmountCents: 6_800_000, interestRateMilli: 9250, termMonths: 60, originationFeeMilli: 1500 },
        offer: "signed",
      },
      {
        key: "demo-sofia-private-02",
        daysAgo: 3,
        outcome: "under_review",
        loan: { loanType: "private", loanAmount: "300,000", desiredInterestRate: "13.5", loanDuration: "24", loanPurpose: "Short-term private loan to buy a smaller condo before my current home sells." },
        bank: { accountHolderName: "Sofia M Alvarez", bankName: "Biscayne Harbor Bank", bankAddress: "2 S Biscayne Blvd, Miami, FL 33131", accountNumber: "6120050017", routingNumber: routing("06700091"), bankAccountType: "savings" },
        note: "Awaiting the listing agreement for the current home and two months of pension statements.",
        reviewStartedHoursAfter: 6,
        requests: [
          {
            hoursAgo: 40,
            dueInDays: 7,
            items: [
              { kind: "other_document", note: "The signed listing agreement for your current home.", status: "requested" },
              { kind: "bank_statement", note: "Your last two monthly pension deposit statements.", status: "requested" },
            ],
          },
        ],
        conversation: {
          messages: [
            { side: "staff", hoursAgo: 39, body: "Good morning Mrs. Alvarez. To keep your review moving we need the listing agreement and two pension statements; both are listed under What We Need." },
            { side: "applicant", hoursAgo: 30, body: "Thank you. My realtor will send me the signed agreement on Monday; I will upload it then together with the statements." },
            { side: "staff", hoursAgo: 5, body: "That works. The due date gives you a week; if you need longer, just reply here." },
          ],
          applicantReadHoursAgo: 29,
          staffReadHoursAgo: 29,
        },
      },
    ],
    testimonial: {
      rating: 5,
      role: "Retired Teacher",
      location: "Miami, FL",
      content: "My second loan with Private Loans. Respectful, patient staff who answered every question and never rushed me.",
      daysAgo: 2,
      approve: false,
    },
  },
];

export const DEMO_CONTACT_MESSAGES = [
  {
    name: "Thomas Brennan",
    email: "thomas.brennan@example.com",
    phone: "2675550101",
    subject: "Question about hard money loan terms",
    message: "Hi, I'm a first-time investor looking at a duplex in Philadelphia. What loan-to-value do you offer on hard money loans, and do you require a full appraisal?\n\nThanks,\nTom",
    status: "new",
    hoursAgo: 3,
  },
  {
    name: "Angela Morris",
    email: "angela.morris@example.com",
    phone: null,
    subject: "Document upload help",
    message: "I tried to upload my utility bill as a photo from my phone and it didn't go through. Which file formats do you accept?",
    status: "new",
    hoursAgo: 26,
  },
  {
    name: "Kevin Patel",
    email: "kevin.patel@example.com",
    phone: "9195550156",
    subject: "Early payoff",
    message: "Is there a prepayment penalty if I pay off my personal loan early? I expect a bonus in the spring.",
    status: "read",
    hoursAgo: 4 * 24,
  },
  {
    name: "Laura Simmons",
    email: "laura.simmons@example.com",
    phone: "8135550177",
    subject: "Referral partnership",
    message: "We run a network of realtors in Tampa and would like to discuss referring clients who need bridge financing.",
    status: "archived",
    hoursAgo: 9 * 24,
  },
] as const;
