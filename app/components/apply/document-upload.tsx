import { CheckCircle2, FileUp, RefreshCw, XCircle } from "lucide-react";
import { Spinner } from "~/components/ui/spinner";
import { cn } from "~/utils/cn";
import { describedBy, ErrorList, RequiredMark } from "~/components/ui/form";
import { APPLICATION_MESSAGES } from "~/domain/validation/application-constants";
import { sizeInKb } from "./review-masks";

/** Accepted by the picker; the wizard re-checks every choice by content with documentProblem (as the server does). */
export const UPLOAD_ACCEPT = ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png";

/**
 * One document slot of step 4: a real file input (keyboard: Tab to it, Enter or Space opens the picker)
 * dressed as a card. States: empty, uploading (the content check, then the spec's short simulated delay),
 * uploaded (name and size in KB, replaceable), refused (the error, never a tick: a refused file is not sent),
 * missing (a required slot left empty on Continue: the required message, no "Not accepted"). The file itself stays in the wizard's memory until submission.
 */
export function DocumentUpload({
  id,
  field,
  label,
  required,
  file,
  uploading,
  error,
  disabled,
  onSelect,
}: {
  id: string;
  field: string;
  label: string;
  required: boolean;
  file?: { name: string; size: number };
  uploading: boolean;
  error?: string;
  disabled?: boolean;
  onSelect: (file: File, count: number) => void;
}) {
  const titleId = `${id}-title`;
  const hintId = `${id}-hint`;
  const statusId = `${id}-status`;
  const errorId = `${id}-error`;
  // A file with an error against it (the server refused it) is shown as refused, not as uploaded.
  const accepted = file && !error ? file : undefined;
  // "Not accepted" only when a file was chosen and refused; a required slot left empty says so in its
  // error ("Please upload all required documents") and still reads "No file chosen".
  const refused = Boolean(error) && error !== APPLICATION_MESSAGES.documents;
  return (
    <div className="flex min-w-0 flex-col gap-1" data-field-group={field}>
      <input
        id={id}
        name={field}
        type="file"
        accept={UPLOAD_ACCEPT}
        data-field={field}
        disabled={disabled || uploading}
        aria-labelledby={titleId}
        aria-describedby={describedBy(hintId, statusId, error ? errorId : null)}
        aria-invalid={error ? true : undefined}
        aria-required={required ? true : undefined}
        className="peer sr-only"
        onChange={(event) => {
          const input = event.currentTarget;
          const chosen = input.files;
          const first = chosen?.[0];
          const count = chosen?.length ?? 0;
          // Clear the input so choosing the same file again still fires a change.
          input.value = "";
          if (first) onSelect(first, count);
        }}
      />
      <label
        htmlFor={id}
        className={cn(
          "flex min-h-24 cursor-pointer flex-col gap-2 rounded-lg border-2 border-dashed p-4 transition-colors",
          "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ring peer-disabled:cursor-not-allowed",
          error ? "border-destructive bg-red-50/40" : accepted ? "border-green-700 bg-green-50/60" : "border-input hover:border-primary hover:bg-navy-50",
        )}
      >
        <span id={titleId} className="text-sm font-semibold text-foreground">
          {label}
          <RequiredMark required={required} />
        </span>
        <span id={statusId} className="flex min-w-0 items-center gap-2 text-sm">
          {uploading ? (
            <>
              <Spinner className="size-4 text-primary" />
              <span>Uploading...</span>
            </>
          ) : accepted ? (
            <>
              <CheckCircle2 aria-hidden="true" className="size-4 shrink-0 text-green-700" />
              <span className="min-w-0 truncate text-foreground" title={accepted.name}>
                {accepted.name}
              </span>
              <span className="shrink-0 text-muted-foreground">({sizeInKb(accepted.size)})</span>
            </>
          ) : refused ? (
            <>
              <XCircle aria-hidden="true" className="size-4 shrink-0 text-destructive" />
              <span className="text-destructive">Not accepted. Choose another file.</span>
            </>
          ) : (
            <>
              <FileUp aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="text-muted-foreground">No file chosen</span>
            </>
          )}
        </span>
        <span aria-hidden="true" className="inline-flex items-center gap-1.5 text-sm font-semibold text-link">
          {accepted ? <RefreshCw className="size-3.5" /> : null}
          {uploading ? "" : accepted ? "Replace file" : "Choose file"}
        </span>
      </label>
      <p id={hintId} className="sr-only">
        PDF, JPG or PNG, up to 5 MB.{accepted ? " Choose another file to replace it." : ""}
      </p>
      <ErrorList id={errorId} errors={error} />
    </div>
  );
}
