import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { ApplicationStatus, ApprovedLoanStatus } from "~/domain/enums";
import type { DbOrTx } from "~/server/platform/db/client.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { loanStatesByApplicationIds } from "~/server/loans/index.server";
import type { ScreeningSubject } from "~/server/sanctions/index.server";

/**
 * Who sanctions screening compares with the lists, as the application stores the applicant: the first
 * and last name (the middle initial is left out: the lists rarely hold an initial, and a one-letter
 * word lowers the score of a true match), the date of birth, and the country of the address, which is
 * always the United States (the application takes US addresses only).
 */
export const APPLICANT_COUNTRY = "United States";

type SubjectColumns = { id: string; firstName: string; lastName: string; dateOfBirth: string };

export function screeningSubjectOf(row: SubjectColumns): ScreeningSubject {
  return { applicationId: row.id, name: `${row.firstName} ${row.lastName}`, dateOfBirth: row.dateOfBirth, country: APPLICANT_COUNTRY };
}

const SUBJECT_COLUMNS = {
  id: loanApplications.id,
  firstName: loanApplications.firstName,
  lastName: loanApplications.lastName,
  dateOfBirth: loanApplications.dateOfBirth,
  status: loanApplications.status,
};

/** The subject of one application (Fund Loan screens it again), or null when there is no such application. */
export async function applicationScreeningSubject(applicationId: string, db: DbOrTx): Promise<ScreeningSubject | null> {
  const [row] = await db.select(SUBJECT_COLUMNS).from(loanApplications).where(eq(loanApplications.id, applicationId)).limit(1);
  return row ? screeningSubjectOf(row) : null;
}

/** Applications still open for a decision or an approval the applicant may still sign. */
const OPEN_STATUSES = ["pending", "under_review", "approved"] as const satisfies readonly ApplicationStatus[];
/** A loan whose borrower is (or is about to be) sent money or owes it: its applicant stays screened. */
const LIVE_LOAN_STATUSES: readonly ApprovedLoanStatus[] = ["awaiting_funding", "active", "approved"];

/**
 * One page of the applications a list load screens again, by id (keyset: `after` is the previous
 * page's `next`): open applications (pending, under review, approved without a loan yet) and the
 * applications of active borrowers (a loan awaiting funding or active). An approved application whose
 * loan was paid off, closed or cancelled is left out. `next` is null after the last page.
 */
export async function screeningSubjectsPage(db: DbOrTx, after: string | null, limit: number): Promise<{ subjects: ScreeningSubject[]; next: string | null }> {
  const rows = await db
    .select(SUBJECT_COLUMNS)
    .from(loanApplications)
    .where(and(inArray(loanApplications.status, [...OPEN_STATUSES]), after === null ? undefined : gt(loanApplications.id, after)))
    .orderBy(asc(loanApplications.id))
    .limit(limit);
  const approved = rows.filter((row) => row.status === "approved").map((row) => row.id);
  const loans = await loanStatesByApplicationIds(approved, db);
  const subjects = rows.filter((row) => {
    const loan = loans.get(row.id);
    return !loan || LIVE_LOAN_STATUSES.includes(loan.status as ApprovedLoanStatus);
  });
  return { subjects: subjects.map(screeningSubjectOf), next: rows.length === limit ? rows[rows.length - 1]!.id : null };
}
