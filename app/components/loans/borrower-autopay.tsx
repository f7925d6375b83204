import { CalendarClock, Repeat, XCircle } from "lucide-react";
import { useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Card } from "~/components/ui/card";
import { ConsentCheckbox } from "~/components/ui/consent-checkbox";
import { ModalDialog } from "~/components/ui/dialog";
import { ErrorList, InputField, SubmitButton, useFormFetcher, type FormToast } from "~/components/ui/form";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { useFormDialog } from "~/components/ui/use-form-dialog";
import { AUTOPAY_AUTHORIZATION_STATEMENT, AUTOPAY_AUTHORIZATION_VERSION, autopayAmountPhrase, autopayAuthorizationText, autopayTimingPhrase } from "~/domain/autopay-authorization";
import { formatMoney } from "~/domain/money";
import { AUTOPAY_MAX_DAYS_BEFORE_DUE, type AutopayAmountKind } from "~/domain/servicing-enums";
import { issuesToFieldErrors } from "~/domain/validation/field-errors";
import { parseDollarsToCents } from "~/domain/validation/make-payment";
import { autopaySchema, type AutopayActionData, type AutopayIntent } from "~/domain/validation/autopay";
import { formatAgreementDay } from "~/domain/views/agreement-preview";
import { UPCOMING_DEBIT_LABELS, type AutopayNextDebit } from "~/domain/views/borrower-autopay";
import type { BorrowerLoanPage } from "~/domain/views/borrower-loan";
import { LoanSection } from "./loan-section";

type Answer = AutopayActionData & { toast: FormToast };

const CELL = "px-3 py-2 whitespace-nowrap";

/** "The debit of $X on <date> from ••••1234 will still be made." (the page's words for a debit past its cutoff). */
function stillGoesText(next: AutopayNextDebit): string {
  return `The debit of ${formatMoney(next.amountCents)} on ${formatAgreementDay(next.on)} from ${next.account} will still be made.`;
}

/**
 * The Autopay section of the borrower's loan page: Autopay On (the next debit: day, amount, account;
 * Change Autopay and Cancel Autopay) or Autopay Off (Set Up Autopay), then the Upcoming debits (every
 * pending debit of the loan: its day or the next ACH file, amount, account and kind). The Set Up and
 * Change dialogs show the recurring-debit authorisation filled in as the borrower chooses.
 */
export function BorrowerAutopay({ data, actionData }: { data: BorrowerLoanPage; actionData?: Answer }) {
  const { autopay } = data;
  const usable = data.bankAccounts.filter((a) => autopay.usableAccountIds.includes(a.id));
  return (
    <LoanSection titleId="autopay-heading" title="Autopay">
      <Card className="flex flex-col gap-3 p-5" data-testid="autopay">
        {autopay.on && autopay.terms ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="success" data-testid="autopay-state">
                Autopay On
              </Badge>
              <span className="text-sm text-muted-foreground">
                {autopay.terms.amountKind === "fixed" && autopay.terms.fixedAmountCents !== null ? `${formatMoney(autopay.terms.fixedAmountCents)} a month` : "The installment due"}, {autopayTimingPhrase(autopay.terms.daysBeforeDue)}, from {autopay.terms.account}
              </span>
            </div>
            {autopay.next ? (
              <p className="text-sm" data-testid="autopay-next">
                Next debit: <strong>{formatMoney(autopay.next.amountCents)}</strong> on <strong>{formatAgreementDay(autopay.next.on)}</strong> from {autopay.next.account}
                {autopay.next.queued ? "" : " (planned)"}.
              </p>
            ) : (
              <p className="text-sm" data-testid="autopay-next">
                No autopay debit is planned yet.
              </p>
            )}
            {autopay.next?.stillGoes ? (
              <p className="text-sm font-medium" data-testid="autopay-still-goes">
                {stillGoesText(autopay.next)} It is too late to stop it from this page.
              </p>
            ) : null}
            <div className="flex flex-wrap gap-3">
              {autopay.available && usable.length > 0 ? <AutopayDialog data={data} intent="change-autopay" actionData={actionData} /> : null}
              <CancelAutopayDialog data={data} actionData={actionData} />
            </div>
          </>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary" data-testid="autopay-state">
                Autopay Off
              </Badge>
              <span className="text-sm text-muted-foreground">Autopay is optional: you can always pay each installment with Make a Payment.</span>
            </div>
            {!autopay.available ? (
              <p className="text-sm">Autopay can be set up once the loan is funded, and not after it is paid off.</p>
            ) : usable.length === 0 ? (
              <p className="text-sm">Autopay needs a validated bank account on file that the bank has not returned a debit from.</p>
            ) : (
              <div>
                <AutopayDialog data={data} intent="setup-autopay" actionData={actionData} />
              </div>
            )}
          </>
        )}
      </Card>
      <UpcomingDebits data={data} />
    </LoanSection>
  );
}

function UpcomingDebits({ data }: { data: BorrowerLoanPage }) {
  return (
    <div className="mt-6">
      <h3 id="upcoming-debits-heading" className="mb-2 text-lg font-semibold text-primary">
        Upcoming debits
      </h3>
      {data.upcomingDebits.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="upcoming-debits-empty">
          No debits are pending.
        </p>
      ) : (
        <ScrollingTable labelledBy="upcoming-debits-heading" tableClassName="min-w-[36rem]" testId="upcoming-debits">
          <TableHead className="bg-muted/60" cellClassName={CELL} columns={["Date", { label: "Amount", className: "text-right" }, "Account", "Kind", "Reference"]} />
          <tbody>
            {data.upcomingDebits.map((d) => (
              <tr key={d.id} className="border-t" data-testid="upcoming-debit">
                <td className={CELL}>{d.on ? formatAgreementDay(d.on) : "Next ACH file"}</td>
                <td className={`${CELL} text-right`}>{formatMoney(d.amountCents)}</td>
                <td className={CELL}>{d.account ?? "—"}</td>
                <td className={CELL}>{UPCOMING_DEBIT_LABELS[d.kind]}</td>
                <td className={CELL}>{d.reference}</td>
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      )}
    </div>
  );
}

const TITLES: Record<Exclude<AutopayIntent, "cancel-autopay">, { title: string; submit: string; pending: string; description: string }> = {
  "setup-autopay": { title: "Set Up Autopay", submit: "Set Up Autopay", pending: "Setting up…", description: "Recurring monthly ACH debits from your bank account on file." },
  "change-autopay": { title: "Change Autopay", submit: "Change Autopay", pending: "Changing…", description: "New terms need a new authorization; it replaces the one you gave." },
};

function AutopayDialog({ data, intent, actionData }: { data: BorrowerLoanPage; intent: "setup-autopay" | "change-autopay"; actionData?: Answer }) {
  const { dialog, setOpen, clientErrors, setClientErrors } = useFormDialog();
  const form = useFormFetcher<Answer>(actionData?.intent === intent ? actionData : undefined, (answer) => {
    if (answer.ok) setOpen(false);
  });
  const current = data.autopay.terms;
  const usable = data.bankAccounts.filter((a) => data.autopay.usableAccountIds.includes(a.id));
  const [accountId, setAccountId] = useState(current && usable.some((a) => a.id === current.bankAccountId) ? current.bankAccountId : (usable[0]?.id ?? ""));
  const [amountKind, setAmountKind] = useState<AutopayAmountKind>(current?.amountKind ?? "installment");
  const [fixedAmount, setFixedAmount] = useState(current?.fixedAmountText ?? "");
  const [days, setDays] = useState(String(current?.daysBeforeDue ?? 0));
  const errors = clientErrors ?? (form.data && !form.data.ok ? form.data.fieldErrors : undefined);
  const account = usable.find((a) => a.id === accountId);
  const fixedCents = parseDollarsToCents(fixedAmount);
  const text = autopayAuthorizationText({
    lender: data.lenderName,
    amount: autopayAmountPhrase(amountKind === "fixed" ? (fixedCents && fixedCents > 0 ? formatMoney(fixedCents) : "the fixed amount entered") : null),
    timing: autopayTimingPhrase(Number(days)),
    account: account?.label ?? "bank account",
  });
  const t = TITLES[intent];
  const prefix = intent === "setup-autopay" ? "autopay-setup" : "autopay-change";
  return (
    <ModalDialog {...dialog} opener={{ icon: Repeat, variant: intent === "change-autopay" ? "outline" : undefined, className: "sm:w-auto" }} title={t.title} description={t.description} testId={`${prefix}-dialog`} width="4xl">
      <form.fetcher.Form
        method="post"
        noValidate
        className="mt-4 flex flex-col gap-5"
        onSubmit={(event) => {
          const values = Object.fromEntries([...new FormData(event.currentTarget).entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
          const parsed = autopaySchema.safeParse(values);
          if (!parsed.success) {
            event.preventDefault();
            setClientErrors(issuesToFieldErrors(parsed.error));
            return;
          }
          if (parsed.data.intent !== "cancel-autopay" && parsed.data.fixedAmountCents !== null && parsed.data.fixedAmountCents < data.paymentCents) {
            event.preventDefault();
            setClientErrors({ fixedAmount: [`A fixed amount cannot be less than the regular monthly payment, ${formatMoney(data.paymentCents)}.`] });
            return;
          }
          setClientErrors(undefined);
        }}
      >
        <input type="hidden" name="intent" value={intent} />
        <div className="flex flex-col gap-1">
          <label htmlFor={`${prefix}-account`} className="text-sm font-semibold">
            Bank account
          </label>
          <select
            id={`${prefix}-account`}
            name="bankAccountId"
            value={accountId}
            onChange={(e) => setAccountId(e.currentTarget.value)}
            className="h-10 rounded-md border border-input bg-background px-3 text-sm"
            aria-invalid={errors?.bankAccountId ? true : undefined}
            aria-describedby={errors?.bankAccountId ? `${prefix}-account-error` : undefined}
          >
            {usable.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </select>
          <ErrorList id={`${prefix}-account-error`} errors={errors?.bankAccountId} />
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-semibold">Amount</legend>
          <Radio name="amountKind" id={`${prefix}-kind-installment`} value="installment" checked={amountKind === "installment"} onChange={() => setAmountKind("installment")}>
            The installment due each month (now {formatMoney(data.paymentCents)}), including any fees due, which are paid first
          </Radio>
          <Radio name="amountKind" id={`${prefix}-kind-fixed`} value="fixed" checked={amountKind === "fixed"} onChange={() => setAmountKind("fixed")}>
            A fixed amount, at least the regular payment
          </Radio>
          <ErrorList id={`${prefix}-kind-error`} errors={errors?.amountKind} />
        </fieldset>
        {amountKind === "fixed" ? (
          <InputField
            id={`${prefix}-fixed`}
            name="fixedAmount"
            label="Fixed amount (USD)"
            inputMode="decimal"
            autoComplete="off"
            value={fixedAmount}
            onChange={(e) => setFixedAmount(e.currentTarget.value)}
            errors={errors?.fixedAmount}
            hint={`At least ${formatMoney(data.paymentCents)}; never more than what pays the loan off.`}
          />
        ) : null}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${prefix}-days`} className="text-sm font-semibold">
            Debit day
          </label>
          <select id={`${prefix}-days`} name="daysBeforeDue" value={days} onChange={(e) => setDays(e.currentTarget.value)} className="h-10 rounded-md border border-input bg-background px-3 text-sm">
            {Array.from({ length: AUTOPAY_MAX_DAYS_BEFORE_DUE + 1 }, (_, n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? "On the due date" : `${n} day${n === 1 ? "" : "s"} before the due date`}
              </option>
            ))}
          </select>
          <ErrorList id={`${prefix}-days-error`} errors={errors?.daysBeforeDue} />
        </div>
        <div className="rounded-md border bg-muted/40 p-4 text-sm" data-testid="autopay-authorization">
          <h3 className="mb-2 font-semibold">Recurring ACH Debit Authorization (version {AUTOPAY_AUTHORIZATION_VERSION})</h3>
          {text.map((p) => (
            <p key={p.slice(0, 32)} className="mb-2 leading-relaxed">
              {p}
            </p>
          ))}
        </div>
        <ConsentCheckbox id={`${prefix}-authorize`} name="authorize" label={<>{AUTOPAY_AUTHORIZATION_STATEMENT}.</>} errors={errors?.authorize} />
        <SubmitButton pending={form.pending} label={t.submit} pendingLabel={t.pending} icon={CalendarClock} className="sm:w-auto sm:self-start" />
      </form.fetcher.Form>
    </ModalDialog>
  );
}

function CancelAutopayDialog({ data, actionData }: { data: BorrowerLoanPage; actionData?: Answer }) {
  const { dialog, setOpen } = useFormDialog();
  const form = useFormFetcher<Answer>(actionData?.intent === "cancel-autopay" ? actionData : undefined, (answer) => {
    if (answer.ok) setOpen(false);
  });
  const next = data.autopay.next;
  return (
    <ModalDialog {...dialog} opener={{ icon: XCircle, variant: "outline", className: "sm:w-auto" }} title="Cancel Autopay" description="No further recurring debits will be made; you then pay each installment yourself." testId="autopay-cancel-dialog">
      <form.fetcher.Form method="post" className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value="cancel-autopay" />
        {next?.queued ? (
          <p className="text-sm">
            {next.stillGoes ? stillGoesText(next) : `The scheduled debit of ${formatMoney(next.amountCents)} on ${formatAgreementDay(next.on)} will be cancelled.`}
          </p>
        ) : null}
        <SubmitButton pending={form.pending} label="Cancel Autopay" pendingLabel="Cancelling…" icon={XCircle} className="sm:w-auto sm:self-start" />
      </form.fetcher.Form>
    </ModalDialog>
  );
}

function Radio({ name, id, value, checked, onChange, children }: { name: string; id: string; value: string; checked: boolean; onChange: () => void; children: React.ReactNode }) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="radio" name={name} value={value} checked={checked} onChange={onChange} className="size-4 accent-primary" />
      <label htmlFor={id} className="text-sm">
        {children}
      </label>
    </div>
  );
}
