import { makeJpeg, makePdf, makePng } from "../helpers/files";

/** A complete, valid application (text fields and documents) for tests and the benchmark. */

export const validFields: Record<string, string> = {
  firstName: "Jane",
  middleInitial: "q",
  lastName: "Doe-Smith",
  dateOfBirth: "1988-04-12",
  ssn: "123-45-6789",
  email: "jane@example.com",
  phone: "(302) 555-0199",
  addressLine1: "12 Market Street",
  city: "Wilmington",
  state: "DE",
  zipCode: "19801",
  loanType: "personal",
  loanAmount: "50,000",
  desiredInterestRate: "8.5",
  loanDuration: "60",
  loanPurpose: "Consolidating two credit cards into one payment",
  employmentStatus: "full-time",
  employerName: "Acme Corp",
  jobTitle: "Engineer",
  yearsEmployed: "6",
  monthlyIncome: "8,500",
  annualIncome: "102,000",
  creditScore: "720",
  monthlyDebts: "900",
  hasOutstandingLoans: "true",
  authorizeCreditReport: "true",
  accountHolderName: "Jane Doe-Smith",
  bankName: "First Bank",
  accountNumber: "000123456789",
  routingNumber: "021000021",
  swiftCode: "",
  bankAccountType: "checking",
  agreeToTerms: "true",
};

export function validFiles(): Record<string, { bytes: Buffer; name: string; type: string }> {
  return {
    idCardFront: { bytes: makeJpeg(4000), name: "front.jpg", type: "image/jpeg" },
    idCardBack: { bytes: makePng(), name: "back.png", type: "image/png" },
    bankStatement1: { bytes: makePdf(3000), name: "jan.pdf", type: "application/pdf" },
    bankStatement2: { bytes: makePdf(3000), name: "feb.pdf", type: "application/pdf" },
    bankStatement3: { bytes: makePdf(3000), name: "mar.pdf", type: "application/pdf" },
    utilityBill: { bytes: makePdf(2000), name: "bill.pdf", type: "application/pdf" },
    signature: { bytes: makePng(40, 10), name: "signature.png", type: "image/png" },
  };
}

