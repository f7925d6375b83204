import { Undo2 } from "lucide-react";
import { useId, useRef, useState, type ReactNode, type Ref } from "react";
import { DialogCloseButton } from "~/components/ui/dialog";
import { Field, Textarea } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";

/**
 * The Reason a ReasonAndConfirm dialog edits: its text, its errors (cleared as the staff member types) and
 * the textarea, which takes focus when the reason is refused. `field` is what ReasonAndConfirm needs.
 */
export function useReason() {
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<string[] | undefined>(undefined);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  return {
    value,
    clear: () => setValue(""),
    clearErrors: () => setErrors(undefined),
    /** The onOpenChange of a dialog its parent holds open: closing it (Escape, outside, Cancel) forgets the errors shown, then `onClose`. */
    dismissWith: (onClose: () => void) => (open: boolean) => {
      if (open) return;
      setErrors(undefined);
      onClose();
    },
    refuse(messages: string[] | undefined) {
      setErrors(messages);
      textareaRef.current?.focus();
    },
    field: {
      id,
      value,
      errors,
      textareaRef,
      onChange(next: string) {
        setValue(next);
        setErrors(undefined);
      },
    },
  };
}

/**
 * The body of a staff dialog that undoes something and must say why (Withdraw Offer, Reverse Payment):
 * a required Reason, then Cancel and the destructive confirm button. The dialog and the form's
 * submission stay with the caller; this is the part both share.
 */
export function ReasonAndConfirm(props: {
  id: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  errors: string[] | undefined;
  maxLength: number;
  pending: boolean;
  textareaRef: Ref<HTMLTextAreaElement>;
  confirmLabel: string;
  pendingLabel: string;
  /** Hidden inputs and anything else before the Reason. */
  children?: ReactNode;
}) {
  return (
    <>
      {props.children}
      <Field id={`${props.id}-reason`} label="Reason" required hint={props.hint} errors={props.errors} liveErrors>
        {(a11y) => (
          <Textarea
            {...a11y}
            ref={props.textareaRef}
            name="reason"
            value={props.value}
            maxLength={props.maxLength}
            onChange={(event) => props.onChange(event.target.value)}
            disabled={props.pending}
            className="min-h-24"
          />
        )}
      </Field>
      <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogCloseButton>Cancel</DialogCloseButton>
        <PendingButton type="submit" variant="destructive" pending={props.pending} icon={<Undo2 aria-hidden="true" />} aria-disabled={props.pending || undefined}>
          {props.pending ? props.pendingLabel : props.confirmLabel}
        </PendingButton>
      </div>
    </>
  );
}
