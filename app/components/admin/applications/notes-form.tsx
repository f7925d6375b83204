import { useStaffCan } from "~/components/admin/admin-shell";
import * as stickyNoteIcon from "lucide-react/icons/sticky-note";
import { useId, useRef, useState } from "react";
import { inlineIcon } from "~/components/ui/inline-icon";
import { Field, Textarea, useFieldErrors } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { noteSchema, REVIEW_LIMITS } from "~/domain/validation/review";
import { checkedSubmit } from "./review-form";
import { useReviewFetcher } from "./use-review-fetcher";

const StickyNote = inlineIcon(stickyNoteIcon);

/** The one field a problem can be about (focused when the check refuses the note). */
const NOTE_FIELDS = ["note"] as const;

/**
 * Admin notes on any application (docs/requirements.md §4 'notes, shown as admin notes'): the notes so far, and a
 * small form that appends one, stamped by the server with the time and the admin's name.
 */
export function NotesSection({
  applicationId,
  applicantName,
  notes,
  heading: Heading = "h4",
  title = "Admin Notes",
  className = "mt-5 border-t border-border pt-4",
}: {
  applicationId: string;
  applicantName: string;
  notes: string | null;
  /** The heading's level where the section sits (an h4 under the list's cards). */
  heading?: "h2" | "h3" | "h4";
  title?: string;
  className?: string;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [note, setNote] = useState("");
  const { errors, setErrors, show } = useFieldErrors(formRef, NOTE_FIELDS);
  const { fetcher, pending } = useReviewFetcher(`admin-note-${applicationId}`, (data) => {
    if (data.ok) {
      setNote("");
      setErrors({});
    } else if (data.fieldErrors) {
      setErrors(data.fieldErrors);
    }
  });

  const onSubmit = checkedSubmit(pending, () => noteSchema.safeParse({ intent: "note", applicationId, note }), show);
  // Notes are read by every staff role and written by those who work applications.
  const mayWrite = useStaffCan("applications.work");

  return (
    <div className={className}>
      <Heading id={`${id}-heading`} className={`flex items-center gap-2 font-semibold text-primary ${Heading === "h4" ? "text-sm" : "text-lg"}`}>
        <StickyNote className="size-4" />
        {title}
      </Heading>
      {notes ? (
        <p className="mt-2 max-h-48 overflow-y-auto rounded-md bg-muted p-3 text-sm break-words whitespace-pre-wrap" data-testid="application-notes">
          {notes}
        </p>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">No notes yet.</p>
      )}
      {mayWrite ? (
      <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-3 flex flex-col gap-2">
        <input type="hidden" name="intent" value="note" />
        <input type="hidden" name="applicationId" value={applicationId} />
        <Field
          id={`${id}-note`}
          label={
            <>
              Add a note<span className="sr-only"> to the application from {applicantName}</span>
            </>
          }
          errors={errors.note}
          liveErrors
        >
          {(a11y) => (
            <Textarea
              {...a11y}
              name="note"
              rows={2}
              value={note}
              maxLength={REVIEW_LIMITS.noteMaxLength}
              onChange={(event) => {
                setNote(event.target.value);
                if (errors.note?.length) setErrors({});
              }}
            />
          )}
        </Field>
        <div>
          <PendingButton type="submit" variant="outline" size="sm" pending={pending} icon={null}>
            Save Note<span className="sr-only"> for {applicantName}</span>
          </PendingButton>
        </div>
      </fetcher.Form>
      ) : null}
    </div>
  );
}
