import { useState, type ComponentProps } from "react";
import { Field } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { formatUsd } from "~/domain/formats";
import { monthlyPayment } from "~/domain/loan-math";
import { approvedAmountField, approveSchema, interestRateField, REVIEW_LIMITS, termMonthsField } from "~/domain/validation/review";
import { ReviewDecisionDialog, type ReviewDecisionProps } from "./review-dialog";
import { ReviewFormFrame, useReviewForm, type ReviewFormProps } from "./review-form";

const FIELDS = ["approvedAmount", "interestRate", "termMonths"] as const;
type Term = (typeof FIELDS)[number];
type Values = Record<Term, string>;

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
export function ApproveDialog(props: ReviewDecisionProps) {
  return <ReviewDecisionDialog {...props} decision="approve" Form={ApproveForm} />;
}

function ApproveForm(props: ReviewFormProps) {
  const { application, pending } = props;
  const [values, setValues] = useState<Values>({
    approvedAmount: String(application.requestedAmount),
    interestRate: String(application.desiredInterestRate),
    termMonths: String(application.loanDuration),
  });
  const form = useReviewForm(props, FIELDS, () => approveSchema.safeParse({ intent: "approve", applicationId: application.id, ...values }));
  const { id, shown } = form;
  const payment = previewPayment(values);

  /** A term's field: its label and hint, wired to the value typed and the errors shown. */
  const term = (field: Term, label: string, hint: string, input: ComponentProps<typeof Input>) => (
    <Field id={`${id}-${field}`} label={label} hint={hint} errors={shown[field]} liveErrors>
      {(a11y) => (
        <Input
          {...a11y}
          {...input}
          name={field}
          value={values[field]}
          onChange={(event) => {
            const value = event.target.value;
            setValues((v) => ({ ...v, [field]: value }));
            form.edited(field);
          }}
          required
          disabled={pending}
        />
      )}
    </Field>
  );

  return (
    <ReviewFormFrame props={props} form={form} intent="approve">
      {term("approvedAmount", "Approved Amount ($)", `Requested: ${formatUsd(application.requestedAmount)}`, {
        type: "text",
        inputMode: "decimal",
        autoComplete: "off",
      })}
      <div className="grid gap-3 sm:grid-cols-2">
        {term("interestRate", "Interest Rate (%)", `${REVIEW_LIMITS.rateMin}% to ${REVIEW_LIMITS.rateMax}% a year`, {
          type: "number",
          inputMode: "decimal",
          step: "0.01",
          min: REVIEW_LIMITS.rateMin,
          max: REVIEW_LIMITS.rateMax,
        })}
        {term("termMonths", "Term (months)", `Requested: ${application.loanDuration} months`, {
          type: "number",
          inputMode: "numeric",
          step: "1",
          min: REVIEW_LIMITS.termMin,
          max: REVIEW_LIMITS.termMax,
        })}
      </div>
      <div className="rounded-lg bg-navy-50 p-4">
        <p className="text-sm text-slate-700">Monthly payment</p>
        <output htmlFor={`${id}-approvedAmount ${id}-interestRate ${id}-termMonths`} aria-live="polite" className="text-2xl font-bold text-primary" data-testid="approve-monthly-payment">
          {payment === null ? "—" : formatUsd(payment)}
        </output>
      </div>
    </ReviewFormFrame>
  );
}
