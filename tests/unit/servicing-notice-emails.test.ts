import { describe, expect, it } from "vitest";
import { paymentReminderEmail } from "~/server/loans/servicing-notice-emails.server";

/** The reminder names what brings the loan current: the installment plus any fee due, which a payment pays first. */
describe("payment reminder", () => {
  const base = { loanId: "3f1f6f3e-8c1a-4c55-9a59-0b1e2f3a4b5c", loanType: "personal", loanReference: "LN-9C0FFEE1", installmentNumber: 3, dueDate: "2027-03-10", baseUrl: "https://loans.example.com" };

  it("with a fee due: the amount due includes it and the e-mail says how much of it is fees", () => {
    const mail = paymentReminderEmail({ ...base, amountCents: 80_372 + 2_500, feesCents: 2_500 });
    expect(mail.text).toMatch(/Amount due:?\s+\$828\.72/);
    expect(mail.text).toMatch(/Of which fees due, paid first:?\s+\$25\.00/);
    expect(mail.html).toContain("Of which fees due, paid first");
  });

  it("names the loan by its type and its one reference, the agreement's", () => {
    const mail = paymentReminderEmail({ ...base, amountCents: 80_372, feesCents: 0 });
    expect(mail.text).toContain("Personal Loan LN-9C0FFEE1");
  });

  it("with no fee due: the installment alone, no fee line", () => {
    const mail = paymentReminderEmail({ ...base, amountCents: 80_372, feesCents: 0 });
    expect(mail.text).toMatch(/Amount due:?\s+\$803\.72/);
    expect(mail.text).not.toContain("fees due");
  });
});
