import type { FieldErrors } from "./validation/field-errors";

/**
 * The one shape every action answers to its page (auth, contact, testimonials, the admin pages): whether
 * it worked, the toast to show, the messages per field, and whatever else that action needs (an
 * intent, a nonce, a link, the values to refill a form posted without JavaScript, ...).
 */

export type ToastType = "success" | "error" | "info";
export type Toast = { type: ToastType; title: string; description?: string };

export type ActionResult<Extra extends object = object> = {
  ok: boolean;
  toast?: Toast;
  fieldErrors?: FieldErrors;
} & Extra;

export function errorToast(title: string, description?: string): Toast {
  return description === undefined ? { type: "error", title } : { type: "error", title, description };
}

/** An admin page's answer whose toast is shown once per post: `at` tells two equal answers apart. */
export type StampedResult = ActionResult<{ toast: Toast; at: number }>;

export function stampedResult(ok: boolean, title: string, description?: string): StampedResult {
  const toast: Toast = { type: ok ? "success" : "error", title };
  if (description !== undefined) toast.description = description;
  return { ok, toast, at: Date.now() };
}
