import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/server/platform/db/client.server";
import { approvedLoans } from "~/server/platform/db/schema.server";
import { todayUtc } from "~/domain/dates";
import { submitApplication } from "../../helpers/applications";

/**
 * An active loan for an applicant, made over HTTP as the pages make it (issue 21 tests): the applicant
 * submits an application (25,000 at 9.5 % for 36 months), staff (past the second factor) approve it as requested (an offer), the
 * applicant gives the E-SIGN consent and signs with the application's name; the loan's id is read
 * from the dashboard's "View Loan" link.
 */
export async function signedLoanOverHttp(base: string, applicantCookie: string, adminCookie: string, options: { ip?: string } = {}): Promise<{ applicationId: string; loanId: string }> {
  const applicationId = await submitApplication(base, applicantCookie, { fields: { loanAmount: "25,000", desiredInterestRate: "9.5", loanDuration: "36" }, ...(options.ip ? { ip: options.ip } : {}) });
  const post = async (path: string, cookie: string, fields: Record<string, string>, expected: number[]) => {
    const res = await fetch(`${base}${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { cookie, origin: base }, redirect: "manual" });
    if (!expected.includes(res.status)) throw new Error(`${path} ${fields.intent}: ${res.status} ${await res.text()}`);
  };
  await post("/admin", adminCookie, { intent: "approve", applicationId, approvedAmount: "25000", interestRate: "9.5", termMonths: "36", originationFeePercent: "1.00" }, [200]);
  await post(`/dashboard/applications/${applicationId}/offer`, applicantCookie, { intent: "consent", agree: "on" }, [200]);
  await post(`/dashboard/applications/${applicationId}/offer`, applicantCookie, { intent: "sign", signatureKind: "typed", typedName: "Jane Doe-Smith", agree: "on", signedOn: todayUtc() }, [200, 204, 302, 303]);
  const dashboard = await (await fetch(`${base}/dashboard`, { headers: { cookie: applicantCookie } })).text();
  const ids = [...dashboard.matchAll(/\/dashboard\/loans\/([0-9a-f-]{36})/g)].map((m) => m[1]!);
  const loanId = ids.at(0);
  if (!loanId) throw new Error("signedLoanOverHttp: no View Loan link on the dashboard");
  return { applicationId, loanId };
}

/**
 * The state a settled funding credit leaves a loan in (active, interest from the expected funding day),
 * written while the server is stopped (stack.restart): the files that need a funded loan to test
 * something else. tests/e2e/loan-funding.e2e.test.ts funds one through the pages.
 */
export async function markFundedAsSettled(db: Database["db"], loanId: string): Promise<void> {
  await db
    .update(approvedLoans)
    .set({ status: "active", fundedOn: sql`${approvedLoans.expectedFundingDate}` })
    .where(and(eq(approvedLoans.id, loanId), eq(approvedLoans.status, "awaiting_funding")));
}
