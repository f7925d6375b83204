import { useState } from "react";
import type { FieldErrors } from "~/domain/validation/field-errors";

/**
 * A dialog holding a form that is checked in the browser before it posts: whether it is open, and the
 * browser's field errors, which opening or closing the dialog clears (a fresh start each time).
 * `dialog` goes to ModalDialog as it is.
 */
export function useFormDialog(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const [clientErrors, setClientErrors] = useState<FieldErrors | undefined>(undefined);
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    setClientErrors(undefined);
  };
  return { dialog: { open, onOpenChange }, setOpen, clientErrors, setClientErrors };
}
