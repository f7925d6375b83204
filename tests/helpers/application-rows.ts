import type { NewLoanApplication } from "~/server/platform/db/schema.server";

/**
 * A loan application row as the database stores it, for tests that insert rows directly rather than
 * submit the wizard's form (tests/helpers/applications.ts). Valid against every constraint; a test
 * overrides the columns it is about.
 */
export function applicationRow(userId: string, overrides: Partial<NewLoanApplication> = {}): NewLoanApplication {
  return {
    userId,
    loanType: "personal",
    requestedAmountCents: 2_500_000,
    desiredRateMilli: 9500,
    loanDuration: 36,
    purpose: "Consolidating two credit cards into one payment",
    firstName: "Jane",
    lastName: "Doe",
    dateOfBirth: "1985-02-03",
    email: "jane.application@example.com",
    phone: "3025550199",
    addressLine1: "1 Main Street",
    city: "Wilmington",
    state: "DE",
    zipCode: "19801",
    ssnEncrypted: "enc:v1:AAAA",
    employmentStatus: "full-time",
    employerName: "Acme",
    monthlyIncomeCents: 800_000,
    annualIncomeCents: 9_600_000,
    creditScore: 712,
    ...overrides,
  };
}
