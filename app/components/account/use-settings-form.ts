import { useCallback, useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { focusFirstInvalid } from "~/components/ui/form";
import { useEachAnswer } from "~/components/use-each-answer";
import { useWhenIdle } from "~/components/use-when-idle";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { ACCOUNT_SETTINGS_FIELDS, type AccountSettingsIntent } from "~/domain/validation/account-constants";
import type { ACCOUNT_SETTINGS_SCHEMAS, AccountSettingsActionData } from "~/domain/validation/account-settings";

/**
 * The forms' schemas arrive after the page has started, not with it: Zod and the schemas were a third of
 * /account's start-up script, one long task on a phone (decision 0052). They are fetched when the
 * browser is first idle; a form sent before they are here (the page's first moments) goes to the
 * server, which checks it with the same schema and answers the same messages, shown the same way.
 */
let schemas: typeof ACCOUNT_SETTINGS_SCHEMAS | undefined;
let loading: Promise<void> | undefined;
function loadSchemas(): Promise<void> {
  loading ??= import("~/domain/validation/account-settings").then((module) => {
    schemas = module.ACCOUNT_SETTINGS_SCHEMAS;
  });
  return loading;
}
const preloadSchemas = () => void loadSchemas();

/** Where every account settings form posts (its intent says which). */
export const ACCOUNT_SETTINGS_PATH = "/account/settings";

/**
 * One account settings form: checked with its schema before posting (the server checks again with the
 * same one), its answer's toast shown once, the errors (the browser's or the server's) per field with
 * focus on the first, and `onSuccess` once per successful answer (to clear password fields).
 */
export function useSettingsForm(intent: AccountSettingsIntent, onSuccess?: (form: HTMLFormElement | null) => void) {
  const fetcher = useFetcher<AccountSettingsActionData>({ key: `account-settings-${intent}` });
  const formRef = useRef<HTMLFormElement>(null);
  const [localErrors, setLocalErrors] = useState<FieldErrors | null>(null);
  const answer = fetcher.data;
  useActionToast(answer);

  useWhenIdle(preloadSchemas);

  useEachAnswer(
    answer,
    (reply) => {
      if (reply.ok) onSuccess?.(formRef.current);
      else if (reply.fieldErrors) focusFirstInvalid(formRef.current, reply.fieldErrors, ACCOUNT_SETTINGS_FIELDS[intent]);
    },
    fetcher.state === "idle",
  );

  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      const form = event.currentTarget;
      const raw: Record<string, unknown> = {};
      for (const [name, value] of new FormData(form)) if (typeof value === "string") raw[name] = value;
      if (!schemas) {
        setLocalErrors(null);
        void loadSchemas();
        return;
      }
      const result = schemas[intent].safeParse(raw);
      if (result.success) {
        setLocalErrors(null);
        return;
      }
      event.preventDefault();
      const errors = issuesToFieldErrors(result.error);
      setLocalErrors(errors);
      // After the messages render, so the focused field's description is the message.
      requestAnimationFrame(() => focusFirstInvalid(form, errors, ACCOUNT_SETTINGS_FIELDS[intent]));
    },
    [intent],
  );

  const serverErrors = answer && !answer.ok && answer.intent === intent ? answer.fieldErrors : undefined;
  const errors: FieldErrors = localErrors ?? serverErrors ?? {};
  return { fetcher, formRef, errors, onSubmit, pending: fetcher.state !== "idle" };
}
