import { CreditCard, Send } from "lucide-react";
import { useState } from "react";
import { Card } from "~/components/ui/card";
import { ConsentCheckbox } from "~/components/ui/consent-checkbox";
import { ModalDialog } from "~/components/ui/dialog";
import { useFormDialog } from "~/components/ui/use-form-dialog";
import { ErrorList, InputField, SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import { ACH_AUTHORIZATION_STATEMENT, ACH_AUTHORIZATION_VERSION, achAuthorizationText } from "~/domain/ach-authorization";
import type { PaymentChoice } from "~/domain/servicing-enums";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { makePaymentSchema, parseDollarsToCents, type MakePaymentActionData } from "~/domain/validation/make-payment";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { BorrowerLoanPage } from "~/domain/views/borrower-loan";
import { formatMoney } from "~/domain/money";
import { LoanSection } from "./loan-section";

type Answer = MakePaymentActionData & { toast: FormToast };

/**
 * Make a Payment: a dialog with what to pay (the next installment, an amount, the payoff today), the
 * bank account on file to debit (masked), the ACH debit authorisation (versioned text, with the amount,
 * the account's last four digits and the date filled in) and its required checkbox.
 */
export function BorrowerMakePayment({ data, actionData }: { data: BorrowerLoanPage; actionData?: Answer }) {
  const { dialog, setOpen, clientErrors, setClientErrors } = useFormDialog();
  const pay = useFormFetcher<Answer>(actionData?.intent === "pay" ? actionData : undefined, (answer) => {
    if (answer.ok) setOpen(false);
  });
  const [choice, setChoice] = useState<PaymentChoice>(data.nextPayment ? "installment" : "payoff");
  const [amount, setAmount] = useState("");
  const [accountId, setAccountId] = useState(data.bankAccounts[0]?.id ?? "");
  const errors = clientErrors ?? (pay.data && !pay.data.ok ? pay.data.fieldErrors : undefined);

  const account = data.bankAccounts.find((a) => a.id === accountId);
  const amountCents = choice === "installment" ? (data.nextPayment?.amountDueCents ?? 0) : choice === "payoff" ? data.payoffTodayCents : parseDollarsToCents(amount);
  const amountText = amountCents && amountCents > 0 ? formatMoney(amountCents) : "the amount entered";
  const authorization = achAuthorizationText({
    lender: data.lenderName,
    amount: amountText,
    account: account ? `${account.label.split(" ")[0]?.toLowerCase()} account ending in ${account.last4}` : "bank account",
    date: formatAgreementDay(data.today),
  });

  return (
    <LoanSection titleId="make-payment-heading" title="Make a Payment">
      <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
        {data.status === "paid_in_full" ? (
          <p className="text-sm">This loan is paid in full: it takes no more payments.</p>
        ) : data.pendingPayment ? (
          <p className="text-sm" data-testid="payment-pending-note">
            Your last payment is Pending until it settles. You can make another payment once it has settled.
          </p>
        ) : data.bankAccounts.length === 0 ? (
          <p className="text-sm">There is no bank account on file to debit. Add one under Payment Account, or send us a message below to pay another way.</p>
        ) : (
          <>
            <div className="flex flex-col gap-1">
              <p className="text-sm">Pay by a one-time ACH debit from your bank account on file: the next installment, an amount of your choosing, or the payoff amount.</p>
              {data.upcomingDebits
                .filter((d) => d.kind !== "one_time")
                .map((d) => (
                  <p key={d.id} className="text-sm font-medium" data-testid="payment-replaces-debit">
                    Paying now cancels the scheduled {d.kind === "retry" ? "retry" : "autopay"} debit of {formatMoney(d.amountCents)}
                    {d.on ? ` on ${formatAgreementDay(d.on)}` : ""}.
                  </p>
                ))}
            </div>
            <ModalDialog
              {...dialog}
              opener={{ icon: CreditCard, className: "sm:w-auto" }}
              title="Make a Payment"
              description="A one-time ACH debit from your bank account on file."
              testId="make-payment-dialog"
              width="4xl"
            >
              <pay.fetcher.Form
                method="post"
                noValidate
                className="mt-4 flex flex-col gap-5"
                onSubmit={(event) => {
                  const form = new FormData(event.currentTarget);
                  const values = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
                  const parsed = makePaymentSchema.safeParse(values);
                  if (!parsed.success) {
                    event.preventDefault();
                    setClientErrors(issuesToFieldErrors(parsed.error));
                    return;
                  }
                  if (parsed.data.amountCents !== null && parsed.data.amountCents > data.payoffTodayCents) {
                    event.preventDefault();
                    setClientErrors({ amount: [`The amount cannot be more than the payoff amount, ${formatMoney(data.payoffTodayCents)} today.`] });
                    return;
                  }
                  setClientErrors(undefined);
                }}
              >
                <input type="hidden" name="intent" value="pay" />
                <fieldset className="flex flex-col gap-2" aria-describedby={errors?.choice ? "pay-choice-error" : undefined}>
                  <legend className="mb-1 text-sm font-semibold">What to pay</legend>
                  {data.nextPayment ? (
                    <Choice value="installment" current={choice} onChange={setChoice}>
                      Next installment: {formatMoney(data.nextPayment.amountDueCents)}, due {formatAgreementDay(data.nextPayment.dueDate)}
                      {data.nextPayment.feesCents > 0 ? `, including ${formatMoney(data.nextPayment.feesCents)} fees due, which are paid first` : ""}
                    </Choice>
                  ) : null}
                  <Choice value="amount" current={choice} onChange={setChoice}>
                    An amount of my choosing
                  </Choice>
                  <Choice value="payoff" current={choice} onChange={setChoice}>
                    The payoff amount today: {formatMoney(data.payoffTodayCents)}
                  </Choice>
                  <ErrorList id="pay-choice-error" errors={errors?.choice} />
                </fieldset>
                {choice === "amount" ? (
                  <InputField
                    id="pay-amount"
                    name="amount"
                    label="Amount (USD)"
                    inputMode="decimal"
                    autoComplete="off"
                    value={amount}
                    onChange={(e) => setAmount(e.currentTarget.value)}
                    errors={errors?.amount}
                    hint={`From $0.01 up to the payoff amount, ${formatMoney(data.payoffTodayCents)} today.`}
                  />
                ) : null}
                <div className="flex flex-col gap-1">
                  <label htmlFor="pay-account" className="text-sm font-semibold">
                    Bank account
                  </label>
                  <select
                    id="pay-account"
                    name="bankAccountId"
                    value={accountId}
                    onChange={(e) => setAccountId(e.currentTarget.value)}
                    className="h-10 rounded-md border border-input bg-background px-3 text-sm"
                    aria-invalid={errors?.bankAccountId ? true : undefined}
                    aria-describedby={errors?.bankAccountId ? "pay-account-error" : undefined}
                  >
                    {data.bankAccounts.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.label}
                      </option>
                    ))}
                  </select>
                  <ErrorList id="pay-account-error" errors={errors?.bankAccountId} />
                </div>
                <div className="rounded-md border bg-muted/40 p-4 text-sm" data-testid="ach-authorization">
                  <h3 className="mb-2 font-semibold">ACH Debit Authorization (version {ACH_AUTHORIZATION_VERSION})</h3>
                  {authorization.map((p) => (
                    <p key={p.slice(0, 32)} className="mb-2 leading-relaxed">
                      {p}
                    </p>
                  ))}
                </div>
                <ConsentCheckbox
                  id="pay-authorize"
                  name="authorize"
                  label={
                    <>
                      {ACH_AUTHORIZATION_STATEMENT}: {amountText} on or after {formatAgreementDay(data.today)}.
                    </>
                  }
                  errors={errors?.authorize}
                />
                <SubmitButton pending={pay.pending} label="Authorize Payment" pendingLabel="Authorizing…" icon={Send} className="sm:w-auto sm:self-start" />
              </pay.fetcher.Form>
            </ModalDialog>
          </>
        )}
      </Card>
    </LoanSection>
  );
}

function Choice({ value, current, onChange, children }: { value: PaymentChoice; current: PaymentChoice; onChange: (v: PaymentChoice) => void; children: React.ReactNode }) {
  const id = `pay-choice-${value}`;
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="radio" name="choice" value={value} checked={current === value} onChange={() => onChange(value)} className="size-4 accent-primary" />
      <label htmlFor={id} className="text-sm">
        {children}
      </label>
    </div>
  );
}
