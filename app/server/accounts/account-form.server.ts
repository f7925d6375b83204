import { readActionForm, type FormRead } from "~/server/platform/http/action-answer.server";

/**
 * The form of an /account/* action (settings, security, data): at most `limitBytes`, past which the
 * page's own refusal body answers 413; an unreadable body reads as an empty form, so the intent check
 * answers 400 as it would for a missing intent. With the form, the posted intent (unchecked).
 */
export async function readAccountForm<Body>(
  request: Request,
  limitBytes: number,
  refuse: (message: string) => Body,
): Promise<Extract<FormRead<Body>, { ok: false }> | { ok: true; form: FormData; intent: FormDataEntryValue | null }> {
  const read = await readActionForm(request, refuse, { limitBytes, unreadableAsEmpty: true });
  return read.ok ? { ok: true, form: read.form, intent: read.form.get("intent") } : read;
}
