import type { ReactNode } from "react";
import { Label } from "~/components/ui/label";
import { cn } from "~/utils/cn";

/**
 * A labelled field: the visible label, its hint and error wired to the control with aria-describedby,
 * aria-invalid when it has an error, and one line kept for the error so a message does not move the form.
 * Its own module so that a page with a single field (the calculator) does not load the whole form kit.
 */


/** A field's messages: a list (forms keyed by zod issues) or one message (the wizard). */
export type FieldMessages = readonly string[] | string | undefined;

function messagesOf(errors: FieldMessages): readonly string[] {
  if (!errors) return [];
  return typeof errors === "string" ? [errors] : errors;
}

/** The ids that are set, joined for aria-describedby (undefined when none). */
export function describedBy(...ids: (string | null | undefined | false)[]): string | undefined {
  return ids.filter(Boolean).join(" ") || undefined;
}

/**
 * The visible '*' of a required field (forms say "Fields marked * are required"). Hidden from assistive
 * technology, which hears aria-required instead; optional fields carry no mark.
 */
export function RequiredMark({ required }: { required?: boolean }) {
  if (!required) return null;
  return (
    <span aria-hidden="true" className="text-destructive">
      {" "}
      *
    </span>
  );
}

/**
 * Messages for one field; the space for one line is kept even when there are none. `live` announces them
 * as they change (a dialog whose errors can arrive from the server while focus stays put).
 */
export function ErrorList({ id, errors, className, live }: { id: string; errors?: FieldMessages; className?: string; live?: boolean }) {
  const messages = messagesOf(errors);
  return (
    <div id={id} className={cn("min-h-5 text-sm text-destructive", className)} aria-live={live ? "polite" : undefined}>
      {messages.length > 1 ? (
        <ul className="flex flex-col gap-0.5">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : (
        messages[0]
      )}
    </div>
  );
}

/** What a field hands its control: its id and the ARIA wiring to its label, hint and errors. */
export type FieldA11y = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  "aria-required"?: true;
  /** The schema's field name, for moving focus to the first problem. */
  "data-field"?: string;
};

/**
 * A labelled field: a visible label (with '*' when `required`), the control (rendered by `children` with
 * its id and ARIA wiring), an optional hint, and an error list that always reserves one line.
 */
export function Field({
  id,
  label,
  errors,
  hint,
  labelAside,
  required,
  field,
  liveErrors,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  errors?: FieldMessages;
  /** Announce the errors as they change (see ErrorList). */
  liveErrors?: boolean;
  hint?: ReactNode;
  labelAside?: ReactNode;
  /** Marks the field required (visible '*' and aria-required). */
  required?: boolean;
  /** The schema's field name, written to the control as data-field. */
  field?: string;
  className?: string;
  children: (a11y: FieldA11y) => ReactNode;
}) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = messagesOf(errors).length > 0;
  const a11y: FieldA11y = {
    id,
    "aria-invalid": invalid ? true : undefined,
    "aria-describedby": describedBy(hint ? hintId : null, invalid ? errorId : null),
  };
  if (required) a11y["aria-required"] = true;
  if (field) a11y["data-field"] = field;
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)}>
      <div className="flex min-h-5 items-end justify-between gap-2">
        <Label htmlFor={id} className="leading-snug">
          {label}
          <RequiredMark required={required} />
        </Label>
        {labelAside}
      </div>
      {children(a11y)}
      {hint ? (
        <div id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </div>
      ) : null}
      <ErrorList id={errorId} errors={errors} className="-mt-1" live={liveErrors} />
    </div>
  );
}

