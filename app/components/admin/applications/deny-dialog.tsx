import { useState } from "react";
import { ErrorList, InputField } from "~/components/ui/form";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { DENIAL_SOURCE_LABELS, INQUIRIES_FACTOR, KEY_FACTORS_MAX } from "~/domain/adverse-action";
import { denySchema, REVIEW_LIMITS, reviewFormValues } from "~/domain/validation/review";
import { ReviewDecisionDialog, type ReviewDecisionProps } from "./review-dialog";
import { ReviewFormFrame, useReviewForm, type ReviewFormProps } from "./review-form";
import { ReasonChoices, useReasonChoices } from "./reason-choices";

/** The first field with a problem gets the focus, in the order the dialog shows them. */
const FOCUS_ORDER = [
  "otherReason",
  "reasons",
  "creditSource",
  "agencyName",
  "agencyAddress",
  "agencyPhone",
  "creditScore",
  "scoreRangeLow",
  "scoreRangeHigh",
  "scoreDate",
  "keyFactors",
] as const;

const SOURCES = ["applicant", "consumer_report"] as const;

/**
 * 'Deny' (docs/requirements.md §3, §5): the principal reasons for the adverse-action notice, from the standard
 * list plus an optional 'Other'; at least one. Then where the information came from: the applicant's own,
 * or a consumer report, whose agency (and the credit score with its range, date and key factors, when a
 * score was used) the notice must disclose under the Fair Credit Reporting Act. Confirm posts intent=deny;
 * the server checks the same schema.
 */
export function DenyDialog(props: ReviewDecisionProps) {
  return <ReviewDecisionDialog {...props} decision="deny" Form={DenyForm} />;
}

function DenyForm(props: ReviewFormProps) {
  const { pending } = props;
  const choices = useReasonChoices();
  const [source, setSource] = useState<(typeof SOURCES)[number]>("applicant");
  const [scoreUsed, setScoreUsed] = useState(false);
  // The posted fields as the server reads them (the source's fields are not kept in state).
  const form = useReviewForm(props, FOCUS_ORDER, (element) => denySchema.safeParse(reviewFormValues(new FormData(element))));
  const { id, shown } = form;

  const text = (name: string) => ({ name, disabled: pending, autoComplete: "off", onChange: () => form.edited(name) });

  return (
    <ReviewFormFrame props={props} form={form} intent="deny">
      <ReasonChoices
        id={id}
        legend="Reasons for denial (choose at least one)"
        name="reasons"
        checkboxId={(index) => `${id}-reason-${index}`}
        errors={shown.reasons}
        choices={choices}
        other={{ id: `${id}-other`, name: "otherReason", errors: shown.otherReason }}
        onEdit={() => form.edited()}
        pending={pending}
      />
      <fieldset aria-describedby={shown.creditSource?.length ? `${id}-source-error` : undefined}>
        <legend className="text-sm font-medium">The decision rests on</legend>
        <ul className="mt-3 flex flex-col gap-2">
          {SOURCES.map((value) => (
            <li key={value} className="flex items-center gap-3">
              <input
                type="radio"
                id={`${id}-source-${value}`}
                name="creditSource"
                value={value}
                checked={source === value}
                onChange={() => {
                  setSource(value);
                  form.edited();
                }}
                disabled={pending}
                className="size-4 shrink-0 accent-navy-900"
              />
              <Label htmlFor={`${id}-source-${value}`} className="font-normal">
                {DENIAL_SOURCE_LABELS[value]}
              </Label>
            </li>
          ))}
        </ul>
        <ErrorList id={`${id}-source-error`} errors={shown.creditSource} live />
      </fieldset>
      {source === "consumer_report" ? (
        <fieldset className="flex flex-col gap-3 rounded-md border border-border p-3" data-testid="consumer-report-fields">
          <legend className="px-1 text-sm font-medium">Consumer reporting agency</legend>
          <InputField id={`${id}-agency-name`} label="Agency name" errors={shown.agencyName} maxLength={100} {...text("agencyName")} />
          <InputField id={`${id}-agency-address`} label="Agency address" errors={shown.agencyAddress} maxLength={200} {...text("agencyAddress")} />
          <InputField id={`${id}-agency-phone`} label="Agency telephone number" errors={shown.agencyPhone} maxLength={20} inputMode="tel" {...text("agencyPhone")} />
          <div className="flex items-center gap-3">
            <input
              type="checkbox"
              id={`${id}-score-used`}
              name="scoreUsed"
              value="yes"
              checked={scoreUsed}
              onChange={(event) => {
                setScoreUsed(event.target.checked);
                form.edited();
              }}
              disabled={pending}
              className="size-4 shrink-0 accent-navy-900"
            />
            <Label htmlFor={`${id}-score-used`} className="font-normal">
              A credit score was used in the decision
            </Label>
          </div>
          {scoreUsed ? (
            <div className="flex flex-col gap-3" data-testid="credit-score-fields">
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
                <InputField id={`${id}-score`} label="Credit score" errors={shown.creditScore} maxLength={4} inputMode="numeric" {...text("creditScore")} />
                <InputField id={`${id}-range-low`} label="Lowest possible score" errors={shown.scoreRangeLow} maxLength={4} inputMode="numeric" {...text("scoreRangeLow")} />
                <InputField id={`${id}-range-high`} label="Highest possible score" errors={shown.scoreRangeHigh} maxLength={4} inputMode="numeric" {...text("scoreRangeHigh")} />
              </div>
              <InputField id={`${id}-score-date`} label="Date of the score" type="date" errors={shown.scoreDate} {...text("scoreDate")} />
              <fieldset aria-describedby={shown.keyFactors?.length ? `${id}-factors-error` : undefined} className="flex flex-col gap-2">
                <legend className="text-sm font-medium">Key factors that adversely affected the score (1 to {KEY_FACTORS_MAX}, most important first)</legend>
                {Array.from({ length: KEY_FACTORS_MAX }, (_, index) => (
                  <div key={index} className="flex flex-col gap-1">
                    <Label htmlFor={`${id}-factor-${index}`} className="font-normal">
                      Key factor {index + 1}
                    </Label>
                    <Input id={`${id}-factor-${index}`} maxLength={REVIEW_LIMITS.reasonMaxLength} {...text("keyFactors")} />
                  </div>
                ))}
                <ErrorList id={`${id}-factors-error`} errors={shown.keyFactors} live />
              </fieldset>
              <div className="flex items-center gap-3">
                <input type="checkbox" id={`${id}-inquiries`} name="inquiriesFactor" value="yes" disabled={pending} className="size-4 shrink-0 accent-navy-900" />
                <Label htmlFor={`${id}-inquiries`} className="font-normal">
                  {INQUIRIES_FACTOR} was a key factor
                </Label>
              </div>
            </div>
          ) : null}
        </fieldset>
      ) : null}
    </ReviewFormFrame>
  );
}
