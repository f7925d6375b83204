import { CircleCheck } from "lucide-react";
import { formatUsd } from "~/domain/formats";
import { useId, useRef, useState, type FormEvent } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { monthlyPayment } from "~/domain/loan-math";
import {
  approvedAmountField,
  approveSchema,
  interestRateField,
  REVIEW_LIMITS,
  reviewFieldErrors,
  termMonthsField,
} from "~/domain/validation/review";
import { FieldError, ReviewDecisionDialog, ReviewFormFooter, type ReviewDecisionProps, type ReviewFormProps } from "./review-dialog";

const FIELDS = ["approvedAmount", "interestRate", "termMonths"] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

/** The monthly payment for the terms as typed, or null while any of them is not valid. */
export function previewPayment(values: Values): number | null {
  const amount = approvedAmountField.safeParse(values.approvedAmount);
  const rate = interestRateField.safeParse(values.interestRate);
  const term = termMonthsField.safeParse(values.termMonths);
  if (!amount.success || !rate.success || !term.success) return null;
  return monthlyPayment(amount.data, rate.data, term.data);
}

/**
 * 'Approve' (docs/requirements.md §3, §5): the terms, pre-filled from the request and editable, with the monthly
 * payment computed as they are typed. Confirm posts intent=approve; the server checks the same schema.
 */
export function ApproveDialog({ application, onClose, onCloseFocus }: ReviewDecisionProps) {
  return (
    <ReviewDecisionDialog
      application={application}
      onClose={onClose}
      onCloseFocus={onCloseFocus}
      fetcherKey="admin-approve"
      title="Approve Application"
      testId="approve-dialog"
      instruction="Set the approved terms."
      Form={ApproveForm}
    />
  );
}

function ApproveForm({ application, fetcher, pending, serverErrors, clearServerErrors, onCancel }: ReviewFormProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Values>({
    approvedAmount: String(application.requestedAmount),
    interestRate: String(application.desiredInterestRate),
    termMonths: String(application.loanDuration),
  });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const shown = { ...serverErrors, ...errors };
  const payment = previewPayment(values);

  const set = (field: Field) => (event: { target: { value: string } }) => {
    const value = event.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: [] } : e));
    clearServerErrors();
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const result = approveSchema.safeParse({ intent: "approve", applicationId: application.id, ...values });
    if (!result.success) {
      event.preventDefault();
      const fieldErrors = reviewFieldErrors(result.error);
      setErrors(fieldErrors);
      const first = FIELDS.find((f) => fieldErrors[f]?.length);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
    }
  }

  const a11y = (field: Field) => {
    const invalid = Boolean(shown[field]?.length);
    return {
      id: `${id}-${field}`,
      name: field,
      value: values[field],
      onChange: set(field),
      "aria-invalid": invalid ? true : undefined,
      "aria-describedby": [`${id}-${field}-hint`, invalid ? `${id}-${field}-error` : null].filter(Boolean).join(" "),
      required: true,
      disabled: pending,
    } as const;
  };

  return (
    <fetcher.Form ref={formRef} method="post" noValidate onSubmit={onSubmit} className="mt-5 flex flex-col gap-3">
      <input type="hidden" name="intent" value="approve" />
      <input type="hidden" name="applicationId" value={application.id} />
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-approvedAmount`}>Approved Amount ($)</Label>
        <Input type="text" inputMode="decimal" autoComplete="off" {...a11y("approvedAmount")} />
        <p id={`${id}-approvedAmount-hint`} className="text-xs text-muted-foreground">
          Requested: {formatUsd(application.requestedAmount)}
        </p>
        <FieldError id={`${id}-approvedAmount-error`} errors={shown.approvedAmount} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-interestRate`}>Interest Rate (%)</Label>
          <Input type="number" inputMode="decimal" step="0.01" min={REVIEW_LIMITS.rateMin} max={REVIEW_LIMITS.rateMax} {...a11y("interestRate")} />
          <p id={`${id}-interestRate-hint`} className="text-xs text-muted-foreground">
            {REVIEW_LIMITS.rateMin}% to {REVIEW_LIMITS.rateMax}% a year
          </p>
          <FieldError id={`${id}-interestRate-error`} errors={shown.interestRate} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={`${id}-termMonths`}>Term (months)</Label>
          <Input type="number" inputMode="numeric" step="1" min={REVIEW_LIMITS.termMin} max={REVIEW_LIMITS.termMax} {...a11y("termMonths")} />
          <p id={`${id}-termMonths-hint`} className="text-xs text-muted-foreground">
            Requested: {application.loanDuration} months
          </p>
          <FieldError id={`${id}-termMonths-error`} errors={shown.termMonths} />
        </div>
      </div>
      <div className="rounded-lg bg-navy-50 p-4">
        <p className="text-sm text-slate-700">Monthly payment</p>
        <output htmlFor={`${id}-approvedAmount ${id}-interestRate ${id}-termMonths`} aria-live="polite" className="text-2xl font-bold text-primary" data-testid="approve-monthly-payment">
          {payment === null ? "—" : formatUsd(payment)}
        </output>
      </div>
      <ReviewFormFooter
        applicationError={shown.applicationId}
        pending={pending}
        onCancel={onCancel}
        icon={<CircleCheck aria-hidden="true" />}
        label="Confirm Approval"
        pendingLabel="Approving…"
        className="mt-3 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
      />
    </fetcher.Form>
  );
}
