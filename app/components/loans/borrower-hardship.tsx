import { FileDown, LifeBuoy } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { controlClass, Field, InputField, SubmitButton, TextareaField, useFormFetcher, type FormToast } from "~/components/ui/form";
import { COLLECTIONS_LIMITS, HARDSHIP_REASON_LABELS, HARDSHIP_REASONS } from "~/domain/collections-enums";
import { formatMoney } from "~/domain/money";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import { requestHelpSchema, type HardshipActionData } from "~/domain/validation/hardship";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import type { BorrowerHardshipData } from "~/domain/views/hardship";
import { LoanSection } from "./loan-section";

type Answer = HardshipActionData & { toast: FormToast };

/**
 * Help with Payments on the borrower's loan page: Request Help with Payments (the reason, details,
 * what they can pay a month) on a loan being serviced with no request in progress; otherwise the
 * request's status, the plan offered (Review Your Plan) and the plans signed with their PDFs. Posts to
 * /dashboard/loans/:id/hardship; the page reloads its data after the answer.
 */
export function BorrowerHardship({ loanId, data }: { loanId: string; data: BorrowerHardshipData | null | undefined }) {
  if (!data) return null;
  const { request, offer, signed } = data;
  if (!data.canRequest && !request && signed.length === 0) return null;
  return (
    <LoanSection titleId="hardship-heading" title="Help with Payments">
      <Card className="flex flex-col gap-4 p-5" data-testid="hardship">
        {request ? (
          <div className="flex flex-col gap-1" data-testid="hardship-request">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">Your request for help</span>
              <Badge variant={request.status === "closed" ? "secondary" : request.status === "offered" ? "info" : "warning"} data-testid="hardship-request-status">
                {request.statusLabel}
              </Badge>
            </div>
            <p className="text-sm text-muted-foreground">
              Sent {formatAgreementDay(request.createdAt.slice(0, 10))}: {request.reasonLabel}; you can pay {formatMoney(request.canPayCents)} a month.
            </p>
            {request.status === "open" ? <p className="text-sm">We are reviewing your request and will contact you.</p> : null}
            {request.status === "closed" && request.closeNote ? <p className="text-sm">{request.closeNote}</p> : null}
          </div>
        ) : null}
        {offer ? (
          <div className="flex flex-col gap-2 rounded-md border p-4" data-testid="hardship-offer">
            <p className="font-medium">A plan is ready for you: {offer.kindLabel}</p>
            <p className="text-sm">{offer.sentence}</p>
            <p className="text-sm text-muted-foreground">Review and sign it by {formatAgreementDay(offer.expiresOn)}. Nothing changes until you sign.</p>
            <Link to={`/dashboard/loans/${loanId}/plan`} className="btn btn-default btn-md self-start">
              Review Your Plan
            </Link>
          </div>
        ) : null}
        {signed.length > 0 ? (
          <ul className="flex flex-col gap-2" data-testid="hardship-signed">
            {signed.map((plan) => (
              <li key={plan.id} className="text-sm">
                <span className="font-medium">{plan.kindLabel}</span>, signed {plan.signedAt ? formatAgreementDay(plan.signedAt.slice(0, 10)) : ""}: {plan.sentence}{" "}
                {plan.fileUrl ? (
                  <a href={plan.fileUrl} className="inline-flex items-center gap-1 font-medium text-link underline-offset-4 hover:underline" download>
                    <FileDown className="size-4" aria-hidden="true" />
                    Signed modification (PDF)
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {data.canRequest ? <RequestHelpForm loanId={loanId} /> : null}
      </Card>
    </LoanSection>
  );
}

function RequestHelpForm({ loanId }: { loanId: string }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | undefined>(undefined);
  const request = useFormFetcher<Answer>(undefined, (answer) => {
    if (answer.ok) formRef.current?.reset();
  });
  const errors = clientErrors ?? (request.data && !request.data.ok ? request.data.fieldErrors : undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const values = Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
    const parsed = requestHelpSchema.safeParse(values);
    if (!parsed.success) {
      event.preventDefault();
      setClientErrors(issuesToFieldErrors(parsed.error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setClientErrors(undefined);
  };
  return (
    <request.fetcher.Form ref={formRef} method="post" action={`/dashboard/loans/${loanId}/hardship`} noValidate onSubmit={onSubmit} className="flex flex-col gap-3" data-testid="request-help-form">
      <p className="text-sm text-muted-foreground">
        Having trouble making your payments? Tell us what happened and what you can pay. We can defer payments to the end of your loan, lower them for a few months, or move your due date.
      </p>
      <input type="hidden" name="intent" value="request-help" />
      <Field id="hardship-reason" label="Reason" errors={errors?.reason} required>
        {(a11y) => (
          <select {...a11y} name="reason" required defaultValue="" className={controlClass}>
            <option value="">Choose a reason</option>
            {HARDSHIP_REASONS.map((reason) => (
              <option key={reason} value={reason}>
                {HARDSHIP_REASON_LABELS[reason]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <TextareaField id="hardship-details" name="details" label="Details (optional)" maxLength={COLLECTIONS_LIMITS.hardshipDetailsMaxLength} errors={errors?.details} className="min-h-24" />
      <InputField id="hardship-can-pay" name="canPay" label="What You Can Pay a Month" hint="In dollars, such as 150 (0 if nothing for now)" inputMode="decimal" autoComplete="off" markRequired errors={errors?.canPay} />
      <SubmitButton pending={request.pending} label="Request Help with Payments" pendingLabel="Sending…" icon={LifeBuoy} className="sm:w-auto sm:self-start" />
    </request.fetcher.Form>
  );
}
