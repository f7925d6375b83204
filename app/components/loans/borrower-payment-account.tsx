import { Landmark, Save } from "lucide-react";
import { useRef, type FormEvent } from "react";
import { Card } from "~/components/ui/card";
import { ModalDialog } from "~/components/ui/dialog";
import { useFormDialog } from "~/components/ui/use-form-dialog";
import { controlClass, Field, InputField, SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import { BANK_ACCOUNT_TYPES } from "~/domain/enums";
import { ACCOUNT_TYPE_LABELS } from "~/domain/labels";
import { CHANGE_ACCOUNT_INTENT, type PaymentAccountActionData } from "~/domain/validation/payment-account-constants";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import type { BorrowerLoanPage } from "~/domain/views/borrower-loan";
import { LoanSection } from "./loan-section";
import { LabelledOptions } from "~/components/ui/labelled-options";

type Answer = PaymentAccountActionData & { toast: FormToast };

/**
 * Payment Account: the account the loan's ACH debits come from (masked), each of the borrower's
 * accounts with its validation (Validated, Being validated: ready by …, Returned by the bank), and Change Bank Account, a
 * dialog with the application's bank fields. The form is checked in the browser with the action's own
 * schema (loaded when the form is first sent, so the page does not start with the wizard's rules) and
 * again by the server; a refused form keeps everything typed and names the field.
 */
export function BorrowerPaymentAccount({ data, actionData }: { data: BorrowerLoanPage; actionData?: Answer }) {
  const { dialog, setOpen, clientErrors, setClientErrors } = useFormDialog(actionData?.intent === CHANGE_ACCOUNT_INTENT && !actionData.ok);
  const change = useFormFetcher<Answer>(actionData?.intent === CHANGE_ACCOUNT_INTENT ? actionData : undefined, (answer) => {
    if (answer.ok) setOpen(false);
    else requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
  });
  const formRef = useRef<HTMLFormElement>(null);
  const answer = change.data && !change.data.ok ? change.data : undefined;
  const errors = clientErrors ?? answer?.fieldErrors;
  const kept = answer?.values ?? {};

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    void import("~/domain/validation/payment-account").then(({ changePaymentAccountSchema }) => {
      const parsed = changePaymentAccountSchema.safeParse(values);
      if (!parsed.success) {
        setClientErrors(issuesToFieldErrors(parsed.error));
        requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
        return;
      }
      setClientErrors(undefined);
      void change.fetcher.submit(form, { method: "post" });
    });
  };

  return (
    <LoanSection titleId="payment-account-heading" title="Payment Account">
      <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
        <p className="text-sm" data-testid="payment-account">
          {data.paymentAccount ? (
            <>
              Payments are debited from <strong className="font-semibold">{data.paymentAccount.label}</strong>{" "}
              <span className="[overflow-wrap:anywhere]">
                ({data.paymentAccount.holder}, {data.paymentAccount.bankName})
              </span>
              .
            </>
          ) : (
            "There is no bank account on file for payments."
          )}
        </p>
        {data.bankAccounts.length > 0 ? (
          <div className="text-sm sm:order-last sm:basis-full">
            <h3 id="bank-accounts-heading" className="font-semibold">
              Your Bank Accounts
            </h3>
            {/* Each account is validated before its first debit or credit: a zero-dollar test entry to the bank. */}
            <ul aria-labelledby="bank-accounts-heading" className="mt-1 grid gap-1" data-testid="bank-account-states">
              {data.bankAccounts.map((a) => (
                <li key={a.id}>
                  <span className="font-medium">{a.label}</span>: {a.validationState}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {data.accountChangeable ? (
          <ModalDialog
            {...dialog}
            opener={{ icon: Landmark, variant: "outline", className: "sm:w-auto" }}
            title="Change Bank Account"
            description="The account your loan's payments are debited from, including payments not yet sent to your bank."
            testId="change-account-dialog"
            width="lg"
          >
            <change.fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-4">
              <input type="hidden" name="intent" value={CHANGE_ACCOUNT_INTENT} />
              <InputField id="account-holder" name="accountHolderName" label="Account Holder Name" autoComplete="name" maxLength={200} required defaultValue={kept.accountHolderName} errors={errors?.accountHolderName} />
              <InputField id="account-bank" name="bankName" label="Bank Name" autoComplete="off" maxLength={200} required defaultValue={kept.bankName} errors={errors?.bankName} />
              <InputField
                id="account-routing"
                name="routingNumber"
                label="Routing Number"
                inputMode="numeric"
                autoComplete="off"
                maxLength={9}
                required
                hint="9 digits"
                defaultValue={kept.routingNumber}
                errors={errors?.routingNumber}
              />
              <InputField id="account-number" name="accountNumber" label="Account Number" inputMode="numeric" autoComplete="off" maxLength={17} required defaultValue={kept.accountNumber} errors={errors?.accountNumber} />
              <Field id="account-type" label="Account Type" errors={errors?.bankAccountType}>
                {(a11y) => (
                  <select {...a11y} name="bankAccountType" required defaultValue={kept.bankAccountType ?? "checking"} className={controlClass}>
                    <LabelledOptions values={BANK_ACCOUNT_TYPES} labels={ACCOUNT_TYPE_LABELS} />
                  </select>
                )}
              </Field>
              <SubmitButton pending={change.pending} label="Save Bank Account" pendingLabel="Saving…" icon={Save} className="sm:w-auto sm:self-start" />
            </change.fetcher.Form>
          </ModalDialog>
        ) : (
          <p className="text-sm text-muted-foreground">This loan is paid off: its payment account no longer changes.</p>
        )}
      </Card>
    </LoanSection>
  );
}
