import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { isCurrentLoan } from "~/domain/application-lifecycle";
import { applicationStatusLabel, approvedLoanStatusLabel } from "~/domain/labels";

/**
 * Status colours (docs/requirements.md §5): approved green, pending yellow, under_review blue, denied red,
 * incomplete ("Closed as Incomplete": the lender closed it for missing information) and withdrawn (by the applicant) grey, anything else grey. Each pair passes WCAG AA
 * contrast. `data-tone` names the colour for tests.
 */
const TONES: Record<string, { variant: BadgeVariant; tone: string }> = {
  approved: { variant: "success", tone: "green" },
  pending: { variant: "warning", tone: "yellow" },
  under_review: { variant: "info", tone: "blue" },
  denied: { variant: "destructive", tone: "red" },
  incomplete: { variant: "secondary", tone: "grey" },
  withdrawn: { variant: "secondary", tone: "grey" },
};

const GREY = { variant: "secondary", tone: "grey" } as const;

export function ApplicationStatusBadge({ status }: { status: string }) {
  const { variant, tone } = TONES[status] ?? GREY;
  return (
    <Badge variant={variant} data-status={status} data-tone={tone}>
      {applicationStatusLabel(status)}
    </Badge>
  );
}

/** An approved loan whose status is active or approved displays as 'Approved' (green); one awaiting funding says so. */
export function LoanStatusBadge({ status }: { status: string }) {
  const approved = isCurrentLoan(status) && status !== "awaiting_funding";
  return (
    <Badge variant={approved ? "success" : GREY.variant} data-status={status} data-tone={approved ? "green" : GREY.tone}>
      {approved ? "Approved" : approvedLoanStatusLabel(status)}
    </Badge>
  );
}
