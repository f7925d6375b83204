import { formatUsd } from "~/domain/formats";
import { useMemo, useState, type ComponentProps } from "react";
import { Field } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { centsFromDollars, formatMoney, rateFromPercent } from "~/domain/money";
import { aprCapProblem, DEFAULT_MAX_APR_PERCENT, isCounteroffer, OFFER_LIMITS } from "~/domain/loan-offers";
import { disclosure } from "~/domain/truth-in-lending";
import { todayUtc } from "~/domain/dates";
import {
  approvedAmountField,
  approveSchema,
  interestRateField,
  originationFeeField,
  REVIEW_LIMITS,
  termMonthsField,
} from "~/domain/validation/review";
import type { AdminApplication } from "~/domain/views/admin-applications";
import { ReviewDecisionDialog, type ReviewDecisionProps } from "./review-dialog";
import { ReviewFormFrame, useReviewForm, type ReviewFormProps } from "./review-form";
import { ReasonChoices, useReasonChoices } from "./reason-choices";

const FIELDS = ["approvedAmount", "interestRate", "termMonths", "originationFeePercent", "counterofferOther", "counterofferReasons"] as const;
type Term = "approvedAmount" | "interestRate" | "termMonths" | "originationFeePercent";
type Values = Record<Term, string>;

/** The messages the server gives for the same problems (app/server/offers/offers.server.ts OFFER_TERMS_MESSAGES). */
export const APPROVE_PREVIEW_MESSAGES = {
  notAmortising:
    "These terms do not repay the loan in equal monthly payments (the rounded payment would end the loan early, never reduce it, or leave a balloon). Choose a larger amount, a lower rate or a shorter term.",
  feeTooLarge: "The origination fee leaves no amount financed. Choose a lower fee.",
  reasonsRequired: "These terms differ from what was requested (less money, a higher rate or another term): choose at least one reason for the counteroffer",
} as const;

/** The terms as typed, parsed (cents and thousandths of a percent); null while any of them is not valid. */
function parsedTerms(values: Values) {
  const amount = approvedAmountField.safeParse(values.approvedAmount);
  const rate = interestRateField.safeParse(values.interestRate);
  const term = termMonthsField.safeParse(values.termMonths);
  const fee = originationFeeField.safeParse(values.originationFeePercent);
  if (!amount.success || !rate.success || !term.success || !fee.success) return null;
  return { approvedAmountCents: amount.data, interestRateMilli: rate.data, termMonths: term.data, originationFeeMilli: fee.data };
}

export type ApprovePreview =
  | { kind: "incomplete" }
  | { kind: "error"; field: "termMonths" | "originationFeePercent"; message: string }
  | {
      kind: "ok";
      paymentCents: number;
      aprPercent: number;
      counteroffer: boolean;
      /** The APR is above MAX_APR: the offer cannot be made (the server refuses it too). */
      aboveCap?: { field: "interestRate" | "originationFeePercent"; message: string };
    };

/**
 * The monthly payment and APR of the terms as typed (the Truth in Lending disclosure the offer will
 * store), whether they are a Counteroffer to what was requested, and whether the APR is above the cap.
 * Terms the disclosure cannot describe come back as the error the server would give. The figures are
 * those of a loan signed on `signedOn` (interest accrues by the day): today's, as the offer stores them.
 */
export function previewApproval(
  values: Values,
  requested: Pick<AdminApplication, "requestedAmount" | "desiredInterestRate" | "loanDuration">,
  maxAprPercent: number = DEFAULT_MAX_APR_PERCENT,
  signedOn: string = todayUtc(),
): ApprovePreview {
  const terms = parsedTerms(values);
  if (!terms) return { kind: "incomplete" };
  let figures;
  try {
    figures = disclosure({
      amountCents: terms.approvedAmountCents,
      noteRateMilli: terms.interestRateMilli,
      termMonths: terms.termMonths,
      originationFeeMilli: terms.originationFeeMilli,
      signedOn,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return /origination fee/i.test(error.message)
      ? { kind: "error", field: "originationFeePercent", message: APPROVE_PREVIEW_MESSAGES.feeTooLarge }
      : { kind: "error", field: "termMonths", message: APPROVE_PREVIEW_MESSAGES.notAmortising };
  }
  const counteroffer = isCounteroffer(
    { amountCents: centsFromDollars(requested.requestedAmount), rateMilli: rateFromPercent(requested.desiredInterestRate), termMonths: requested.loanDuration },
    { amountCents: terms.approvedAmountCents, noteRateMilli: terms.interestRateMilli, termMonths: terms.termMonths },
  );
  const aboveCap = aprCapProblem(figures.aprPercent, { noteRateMilli: terms.interestRateMilli, originationFeeMilli: terms.originationFeeMilli }, maxAprPercent);
  return { kind: "ok", paymentCents: figures.paymentCents, aprPercent: figures.aprPercent, counteroffer, ...(aboveCap ? { aboveCap } : {}) };
}

/**
 * 'Approve' (docs/requirements.md §3, §5): the terms, pre-filled from the request and editable,
 * the Origination Fee (%) (the configured default), the monthly payment and APR computed as they are
 * typed. Terms other than requested (less money, a higher rate, another term) are a Counteroffer, which
 * needs at least one reason. Confirm posts intent=approve; the server checks the same schema and rules.
 */
export function ApproveDialog({ originationFeePercent, maxAprPercent, ...props }: ReviewDecisionProps & { originationFeePercent: number; maxAprPercent: number }) {
  const Form = useMemo(() => {
    function ApproveFormWithDefault(formProps: ReviewFormProps) {
      return <ApproveForm {...formProps} defaultFeePercent={originationFeePercent} maxAprPercent={maxAprPercent} />;
    }
    return ApproveFormWithDefault;
  }, [originationFeePercent, maxAprPercent]);
  return <ReviewDecisionDialog {...props} decision="approve" Form={Form} />;
}

function ApproveForm(props: ReviewFormProps & { defaultFeePercent: number; maxAprPercent: number }) {
  const { application, pending, defaultFeePercent, maxAprPercent } = props;
  const [values, setValues] = useState<Values>({
    approvedAmount: String(application.requestedAmount),
    interestRate: String(application.desiredInterestRate),
    termMonths: String(application.loanDuration),
    originationFeePercent: defaultFeePercent.toFixed(2),
  });
  const choices = useReasonChoices();
  const preview = previewApproval(values, application, maxAprPercent);
  const counteroffer = preview.kind === "ok" && preview.counteroffer;

  const form = useReviewForm(props, FIELDS, () => {
    const parsed = approveSchema.safeParse({
      intent: "approve",
      applicationId: application.id,
      ...values,
      counterofferReasons: choices.chosen,
      counterofferOther: choices.other,
    });
    if (!parsed.success) return parsed;
    if (preview.kind === "error") return { success: false, error: { issues: [{ path: [preview.field], message: preview.message }] } };
    if (preview.kind === "ok" && preview.aboveCap) return { success: false, error: { issues: [{ path: [preview.aboveCap.field], message: preview.aboveCap.message }] } };
    if (counteroffer && parsed.data.counterofferReasons.length === 0) {
      return { success: false, error: { issues: [{ path: ["counterofferReasons"], message: APPROVE_PREVIEW_MESSAGES.reasonsRequired }] } };
    }
    return { success: true };
  });
  const { id, shown } = form;

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
            // A term changes the preview's verdict and whether reasons are needed.
            form.edited(field, "interestRate", "termMonths", "originationFeePercent", "counterofferReasons");
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
        {term("interestRate", "Interest Rate (%)", `Requested: ${application.desiredInterestRate}% (${REVIEW_LIMITS.rateMin}% to ${REVIEW_LIMITS.rateMax}% a year)`, {
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
      {term("originationFeePercent", "Origination Fee (%)", `Of the approved amount, 0% to ${OFFER_LIMITS.originationFeeMaxPercent}%`, {
        type: "number",
        inputMode: "decimal",
        step: "0.01",
        min: 0,
        max: OFFER_LIMITS.originationFeeMaxPercent,
      })}
      <div className="grid grid-cols-2 gap-3 rounded-lg bg-navy-50 p-4">
        <div>
          <p className="text-sm text-slate-700">Monthly payment</p>
          <output
            htmlFor={`${id}-approvedAmount ${id}-interestRate ${id}-termMonths ${id}-originationFeePercent`}
            aria-live="polite"
            className="text-2xl font-bold text-primary"
            data-testid="approve-monthly-payment"
          >
            {preview.kind === "ok" ? formatMoney(preview.paymentCents) : "—"}
          </output>
        </div>
        <div>
          <p className="text-sm text-slate-700">APR</p>
          <output
            htmlFor={`${id}-approvedAmount ${id}-interestRate ${id}-termMonths ${id}-originationFeePercent`}
            aria-live="polite"
            className={preview.kind === "ok" && preview.aboveCap ? "text-2xl font-bold text-destructive" : "text-2xl font-bold text-primary"}
            data-testid="approve-apr"
          >
            {preview.kind === "ok" ? `${preview.aprPercent.toFixed(2)}%` : "—"}
          </output>
        </div>
        {preview.kind === "error" || (preview.kind === "ok" && preview.aboveCap) ? (
          <p className="col-span-2 text-sm text-destructive" data-testid="approve-preview-error">
            {preview.kind === "error" ? preview.message : preview.aboveCap?.message}
          </p>
        ) : null}
      </div>
      {counteroffer ? (
        <div className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="counteroffer-notice">
          <p className="text-sm">
            <strong className="font-semibold">Counteroffer</strong>: these terms differ from what was requested (less money, a higher rate or another term).
            The applicant is told why: choose at least one reason.
          </p>
          <ReasonChoices
            id={id}
            legend="Reasons for the counteroffer (choose at least one)"
            name="counterofferReasons"
            checkboxId={(index) => `${id}-counteroffer-reason-${index}`}
            errors={shown.counterofferReasons}
            choices={choices}
            other={{ id: `${id}-counterofferOther`, name: "counterofferOther", errors: shown.counterofferOther }}
            // The 'Other' text counts toward "at least one", so typing it also clears the list's errors.
            onEdit={(changed) => (changed === "list" ? form.edited("counterofferReasons") : form.edited("counterofferOther", "counterofferReasons"))}
            pending={pending}
          />
        </div>
      ) : null}
    </ReviewFormFrame>
  );
}
