import { UserCheck, UserCog } from "lucide-react";
import { useId } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { Card } from "~/components/ui/card";
import { controlClass } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { formatDateTime } from "~/domain/formats";
import type { AssignmentActionData } from "~/domain/validation/assignment";
import type { AssignmentPanelView } from "~/domain/views/admin-application-page";

/**
 * Assignment on the staff application page: "Assigned to: Name" (or Unassigned), Assign to
 * Me, Reassign (active admins and loan officers, or Unassigned) and the Assignment history. Staff
 * whose role does not work applications see who it is assigned to and the history only.
 */
export function AssignmentPanel({
  applicationId,
  assignment,
  viewerId,
  canWork,
  timeZone,
}: {
  applicationId: string;
  assignment: AssignmentPanelView;
  viewerId: string;
  canWork: boolean;
  timeZone: string;
}) {
  const id = useId();
  const mine = useFetcher<AssignmentActionData>({ key: `assign-me-${applicationId}` });
  const other = useFetcher<AssignmentActionData>({ key: `assign-${applicationId}` });
  useActionToast(mine.data);
  useActionToast(other.data);
  const action = `/admin/applications/${applicationId}/assignment`;
  const current = assignment.assignedTo;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="assignment-heading" data-testid="assignment-panel">
      <h2 id="assignment-heading" className="text-lg font-semibold text-primary">
        Assignment
      </h2>
      <p className="mt-1 text-sm" data-testid="assigned-to">
        {current ? (
          <>
            Assigned to: <span className="font-semibold">{current.name}</span>
            {assignment.assignedAt ? (
              <span className="text-slate-700">
                {" "}
                (since <time dateTime={assignment.assignedAt}>{formatDateTime(assignment.assignedAt, timeZone)}</time>)
              </span>
            ) : null}
          </>
        ) : (
          <span className="font-semibold">Unassigned</span>
        )}
      </p>
      {canWork ? (
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          {current?.id !== viewerId ? (
            <mine.Form method="post" action={action}>
              <input type="hidden" name="intent" value="assign-me" />
              <PendingButton type="submit" variant="outline" pending={mine.state !== "idle"} icon={<UserCheck aria-hidden="true" />} data-action="assign-me">
                Assign to Me
              </PendingButton>
            </mine.Form>
          ) : null}
          <other.Form method="post" action={action} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <input type="hidden" name="intent" value="assign" />
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-assignee`} className="text-sm font-medium">
                Reassign to
              </label>
              <select id={`${id}-assignee`} name="assigneeId" className={controlClass} defaultValue={current?.id ?? ""} key={current?.id ?? ""}>
                <option value="">Unassigned</option>
                {assignment.staff.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <PendingButton type="submit" variant="outline" pending={other.state !== "idle"} icon={<UserCog aria-hidden="true" />} data-action="reassign">
              Reassign
            </PendingButton>
          </other.Form>
        </div>
      ) : null}
      <details className="mt-4 border-t border-border pt-3" data-testid="assignment-history">
        <summary className="cursor-pointer text-sm font-medium">Assignment history ({assignment.history.length})</summary>
        {assignment.history.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">Never assigned.</p>
        ) : (
          <ol className="mt-2 flex flex-col gap-1 text-sm">
            {assignment.history.map((h) => (
              <li key={h.id}>
                <time dateTime={h.at}>{formatDateTime(h.at, timeZone)}</time>: {h.assignedToName ? `assigned to ${h.assignedToName}` : "unassigned"} by {h.assignedByName}
              </li>
            ))}
          </ol>
        )}
      </details>
    </Card>
  );
}
