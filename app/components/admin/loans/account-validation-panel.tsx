import { ShieldCheck } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { controlClass, Field, InputField, SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import { formatDay } from "~/domain/formats";
import { ACCOUNT_VALIDATION_METHOD_LABELS, ACCOUNT_VALIDATION_STATUS_LABELS } from "~/domain/servicing-enums";
import {
  ACCOUNT_VALIDATION_LIMITS,
  RECORD_VALIDATION_INTENT,
  recordValidationSchema,
  STAFF_VALIDATION_METHODS,
  type AccountValidationActionData,
} from "~/domain/validation/account-validation";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { isValidated, returnCodeText, validationStateText, type AccountValidationPanelData } from "~/domain/views/account-validation";

type Answer = AccountValidationActionData & { toast: FormToast };

/**
 * Account Validation (the staff loan page): the loan's payment account, masked, and whether it is
 * validated for its first debit or credit (a prenote queued, sent with the day it counts as validated,
 * validated and how, or returned with the bank's code), and Record Validation: staff validated it another
 * way and give the reference. The form is checked with the action's schema before it is sent, and again
 * by the server. Mounted by the loan page with the panel's data (accountValidationPanel) and its answer.
 */
export function AccountValidationPanel({ panel, actionData }: { panel: AccountValidationPanelData | null; actionData?: Answer }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | undefined>(undefined);
  const own = actionData?.intent === RECORD_VALIDATION_INTENT ? actionData : undefined;
  const record = useFormFetcher<Answer>(own, (answer) => {
    if (answer.ok) formRef.current?.reset();
  });
  const answerErrors = record.data && !record.data.ok ? record.data.fieldErrors : undefined;
  const errors = clientErrors ?? answerErrors;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const values = Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    const parsed = recordValidationSchema.safeParse(values);
    if (!parsed.success) {
      event.preventDefault();
      setClientErrors(issuesToFieldErrors(parsed.error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setClientErrors(undefined);
  };

  const v = panel?.validation ?? null;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="account-validation-heading" data-testid="account-validation">
      <h2 id="account-validation-heading" className="text-lg font-semibold text-primary">
        Account Validation
      </h2>
      {panel === null ? (
        <p className="mt-2 text-sm text-muted-foreground">There is no bank account on file for this loan.</p>
      ) : (
        <>
          <p className="mt-2 text-sm" data-testid="account-validation-state">
            <strong className="font-semibold">{panel.label}</strong> <span className="[overflow-wrap:anywhere]">({panel.holder})</span>: {validationStateText(v)}
          </p>
          {v ? (
            <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-4">
              <Detail label="State">{ACCOUNT_VALIDATION_STATUS_LABELS[v.status]}</Detail>
              <Detail label="Method">{ACCOUNT_VALIDATION_METHOD_LABELS[v.method]}</Detail>
              <Detail label={v.status === "failed" ? "Returned" : v.status === "sent" ? "Validated On" : "Date"}>
                {v.status === "failed"
                  ? `${v.returnedOn ? formatDay(v.returnedOn) : "—"} (${returnCodeText(v.returnCode)})`
                  : v.status === "sent" && v.readyOn
                    ? `${formatDay(v.readyOn)} unless returned`
                    : v.validatedAt
                      ? formatDay(v.validatedAt.slice(0, 10))
                      : "—"}
              </Detail>
              <Detail label="Reference">
                {v.reference ?? "—"}
                {v.recordedBy ? <span className="block text-xs font-normal text-muted-foreground">Recorded by {v.recordedBy}</span> : null}
              </Detail>
            </dl>
          ) : null}
          {isValidated(v) ? null : (
            <record.fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-4 grid gap-3 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto] sm:items-start">
              <input type="hidden" name="intent" value={RECORD_VALIDATION_INTENT} />
              <input type="hidden" name="bankAccountId" value={panel.bankAccountId} />
              <Field id="validation-method" label="Validation Method" errors={errors?.method} required>
                {(a11y) => (
                  <select {...a11y} name="method" required defaultValue="" className={controlClass}>
                    <option value="">Choose a method</option>
                    {STAFF_VALIDATION_METHODS.map((m) => (
                      <option key={m} value={m}>
                        {ACCOUNT_VALIDATION_METHOD_LABELS[m]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <InputField
                id="validation-reference"
                name="reference"
                label="Reference"
                hint="The service's check id, or the letter's date and signer"
                minLength={ACCOUNT_VALIDATION_LIMITS.referenceMinLength}
                maxLength={ACCOUNT_VALIDATION_LIMITS.referenceMaxLength}
                autoComplete="off"
                markRequired
                errors={errors?.reference}
              />
              <SubmitButton pending={record.pending} label="Record Validation" pendingLabel="Recording…" icon={ShieldCheck} className="sm:mt-6 sm:w-auto" />
            </record.fetcher.Form>
          )}
        </>
      )}
    </Card>
  );
}
