import { Ban, HandCoins, PhoneCall, UserCheck } from "lucide-react";
import { useRef, useState, type FormEvent } from "react";
import { useFetcher } from "react-router";
import { useActionToast } from "~/components/action-toast";
import { useStaffCan } from "~/components/admin/admin-shell";
import { Card } from "~/components/ui/card";
import { Detail } from "~/components/ui/detail-list";
import { controlClass, Field, InputField, SubmitButton, TextareaField, useFormFetcher, type FormToast } from "~/components/ui/form";
import { PendingButton } from "~/components/ui/pending-button";
import { ScrollingTable, TableHead } from "~/components/ui/table";
import { CONTACT_CHANNEL_LABELS, CONTACT_CHANNELS, CONTACT_OUTCOME_LABELS, CONTACT_OUTCOMES, COLLECTIONS_LIMITS } from "~/domain/collections-enums";
import { formatDateTime, formatDay } from "~/domain/formats";
import { formatMoney } from "~/domain/money";
import { logContactSchema, promiseToPaySchema, type CollectionsActionData } from "~/domain/validation/collections";
import { issuesToFieldErrors, type FieldErrors } from "~/domain/validation/field-errors";
import type { CollectionsPanelData } from "~/domain/views/collections";

type Answer = CollectionsActionData & { toast: FormToast };

/**
 * Collections on the staff loan page: days past due and bucket, who works the loan (Assign to Me), the
 * borrower's local time (calls and texts only from 8 a.m. to 9 p.m. there), Log Contact and Promise to
 * Pay (refused while a protection stops collections, and for a loan no longer active), the contact
 * history and the promises with their status (Cancel Promise on an open one). Posts to
 * /admin/loans/:id/collections; staff who do not work collections see the history only.
 */
export function CollectionsPanel({ panel, timeZone }: { panel: CollectionsPanelData; timeZone: string }) {
  const canWork = useStaffCan("collections.work");
  const action = `/admin/loans/${panel.loanId}/collections`;
  const assign = useFetcher<CollectionsActionData>({ key: `loan-assign-${panel.loanId}` });
  useActionToast(assign.data);
  const clock = panel.borrowerClock;
  return (
    <Card className="p-4 sm:p-5" role="region" aria-labelledby="collections-heading" data-testid="collections-panel">
      <h2 id="collections-heading" className="text-lg font-semibold text-primary">
        Collections
      </h2>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-3 text-sm min-[480px]:grid-cols-2 lg:grid-cols-4">
        <Detail label="Days Past Due">
          <span data-testid="collections-days">{panel.daysPastDue}</span> ({panel.bucketLabel})
        </Detail>
        <Detail label="Assigned To">
          <span data-testid="collections-collector">{panel.collector ? (panel.collector.id === panel.viewerId ? `${panel.collector.name} (you)` : panel.collector.name) : "Unassigned"}</span>
        </Detail>
        <Detail label="Borrower's Local Time">
          <span data-testid="borrower-local-time">{clock.text}</span>
          <span className="block text-xs font-normal text-muted-foreground">
            {clock.state ? `${clock.state} · ${clock.timeZone}` : "State unknown: hours must hold on both coasts"} · {clock.withinHours ? "within contact hours" : "outside contact hours (8 a.m. to 9 p.m.)"}
          </span>
        </Detail>
      </dl>
      {panel.stoppedBecause ? (
        <p className="mt-3 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm" role="note" data-testid="collections-stopped">
          Collections contact has stopped: {panel.stoppedBecause.label}. No contact, promise or collections notice while it lasts.
        </p>
      ) : null}
      {canWork && panel.workable ? (
        <>
          {panel.collector?.id !== panel.viewerId ? (
            <assign.Form method="post" action={action} className="mt-3">
              <input type="hidden" name="intent" value="assign-to-me" />
              <PendingButton type="submit" variant="outline" pending={assign.state !== "idle"} icon={<UserCheck aria-hidden="true" />} data-action="assign-to-me">
                Assign to Me
              </PendingButton>
            </assign.Form>
          ) : null}
          <div className="mt-4 grid gap-6 lg:grid-cols-2">
            <LogContactForm action={action} today={panel.today} />
            <PromiseForm action={action} today={panel.today} />
          </div>
        </>
      ) : null}
      <ContactHistory panel={panel} timeZone={timeZone} />
      <PromiseList panel={panel} action={action} canWork={canWork} timeZone={timeZone} />
    </Card>
  );
}

function useSchemaForm(schema: { safeParse(v: unknown): { success: true } | { success: false; error: Parameters<typeof issuesToFieldErrors>[0] } }, intent: string) {
  const formRef = useRef<HTMLFormElement>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors | undefined>(undefined);
  const submit = useFormFetcher<Answer>(undefined, (answer) => {
    if (answer.ok && answer.intent === intent) formRef.current?.reset();
  });
  const errors = clientErrors ?? (submit.data && !submit.data.ok ? submit.data.fieldErrors : undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const values = Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => typeof v === "string"));
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      event.preventDefault();
      setClientErrors(issuesToFieldErrors(parsed.error));
      requestAnimationFrame(() => form.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
      return;
    }
    setClientErrors(undefined);
  };
  return { formRef, submit, errors, onSubmit };
}

function LogContactForm({ action, today }: { action: string; today: string }) {
  const { formRef, submit, errors, onSubmit } = useSchemaForm(logContactSchema(today), "log-contact");
  return (
    <submit.fetcher.Form ref={formRef} method="post" action={action} noValidate onSubmit={onSubmit} className="flex flex-col gap-3" aria-labelledby="log-contact-heading">
      <h3 id="log-contact-heading" className="font-semibold">
        Log Contact
      </h3>
      <input type="hidden" name="intent" value="log-contact" />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="contact-channel" label="Channel" errors={errors?.channel} required>
          {(a11y) => (
            <select {...a11y} name="channel" required defaultValue="" className={controlClass}>
              <option value="">Choose a channel</option>
              {CONTACT_CHANNELS.map((c) => (
                <option key={c} value={c}>
                  {CONTACT_CHANNEL_LABELS[c]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="contact-outcome" label="Outcome" errors={errors?.outcome} required>
          {(a11y) => (
            <select {...a11y} name="outcome" required defaultValue="" className={controlClass}>
              <option value="">Choose an outcome</option>
              {CONTACT_OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {CONTACT_OUTCOME_LABELS[o]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <TextareaField id="contact-note" name="note" label="Note" maxLength={COLLECTIONS_LIMITS.noteMaxLength} errors={errors?.note} className="min-h-20" />
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <InputField id="contact-next-action" name="nextAction" label="Next Action" hint="Optional, e.g. Call back" maxLength={COLLECTIONS_LIMITS.nextActionMaxLength} autoComplete="off" errors={errors?.nextAction} />
        <InputField id="contact-next-action-on" name="nextActionOn" type="date" label="Next Action Date" min={today} errors={errors?.nextActionOn} />
      </div>
      <SubmitButton pending={submit.pending} label="Log Contact" pendingLabel="Logging…" icon={PhoneCall} className="sm:w-auto sm:self-start" />
    </submit.fetcher.Form>
  );
}

function PromiseForm({ action, today }: { action: string; today: string }) {
  const { formRef, submit, errors, onSubmit } = useSchemaForm(promiseToPaySchema(today), "promise-to-pay");
  return (
    <submit.fetcher.Form ref={formRef} method="post" action={action} noValidate onSubmit={onSubmit} className="flex flex-col gap-3" aria-labelledby="promise-heading">
      <h3 id="promise-heading" className="font-semibold">
        Promise to Pay
      </h3>
      <input type="hidden" name="intent" value="promise-to-pay" />
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField id="promise-amount" name="amount" label="Amount" inputMode="decimal" autoComplete="off" placeholder="e.g. 250.00" markRequired errors={errors?.amount} />
        <InputField id="promise-date" name="promisedOn" type="date" label="Pay By" min={today} markRequired errors={errors?.promisedOn} />
      </div>
      <SubmitButton pending={submit.pending} label="Promise to Pay" pendingLabel="Recording…" icon={HandCoins} className="sm:w-auto sm:self-start" />
    </submit.fetcher.Form>
  );
}

function ContactHistory({ panel, timeZone }: { panel: CollectionsPanelData; timeZone: string }) {
  return (
    <div className="mt-6">
      <h3 id="contact-history-heading" className="font-semibold">
        Contact History
      </h3>
      {panel.contacts.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No contact logged yet.</p>
      ) : (
        <div className="mt-2">
          <ScrollingTable labelledBy="contact-history-heading" tableClassName="min-w-[40rem]" testId="contact-history">
            <TableHead columns={["When", "Channel", "Outcome", "Note", "Next Action", "By"]} className="bg-muted" cellClassName="px-3 py-2 font-semibold" />
            <tbody>
              {panel.contacts.map((c) => (
                <tr key={c.id} className="border-t border-border align-top" data-testid="contact-row">
                  <td className="px-3 py-2">
                    <time dateTime={c.at}>{formatDateTime(c.at, timeZone)}</time>
                  </td>
                  <td className="px-3 py-2">{c.channelLabel}</td>
                  <td className="px-3 py-2">{c.outcomeLabel}</td>
                  <td className="px-3 py-2 whitespace-pre-line [overflow-wrap:anywhere]">{c.note ?? "—"}</td>
                  <td className="px-3 py-2 [overflow-wrap:anywhere]">{c.nextAction ? `${c.nextAction}${c.nextActionOn ? ` (${formatDay(c.nextActionOn)})` : ""}` : "—"}</td>
                  <td className="px-3 py-2">{c.staffName}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </div>
      )}
    </div>
  );
}

function PromiseList({ panel, action, canWork, timeZone }: { panel: CollectionsPanelData; action: string; canWork: boolean; timeZone: string }) {
  return (
    <div className="mt-6">
      <h3 id="promises-heading" className="font-semibold">
        Promises to Pay
      </h3>
      {panel.promises.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">No promise recorded.</p>
      ) : (
        <div className="mt-2">
          <ScrollingTable labelledBy="promises-heading" tableClassName="min-w-[36rem]" testId="promise-list">
            <TableHead columns={["Amount", "Pay By", "Status", "Recorded", "By", "Actions"]} className="bg-muted" cellClassName="px-3 py-2 font-semibold" />
            <tbody>
              {panel.promises.map((p) => (
                <tr key={p.id} className="border-t border-border align-top" data-testid="promise-row" data-status={p.status}>
                  <td className="px-3 py-2 tabular-nums">{formatMoney(p.amountCents)}</td>
                  <td className="px-3 py-2">{formatDay(p.promisedOn)}</td>
                  <td className="px-3 py-2 font-medium" data-testid="promise-status">
                    {p.statusLabel}
                  </td>
                  <td className="px-3 py-2">
                    <time dateTime={p.createdAt}>{formatDateTime(p.createdAt, timeZone)}</time>
                  </td>
                  <td className="px-3 py-2">{p.staffName}</td>
                  <td className="px-3 py-2">{canWork && p.status === "open" ? <CancelPromise action={action} promiseId={p.id} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </ScrollingTable>
        </div>
      )}
    </div>
  );
}

function CancelPromise({ action, promiseId }: { action: string; promiseId: string }) {
  const cancel = useFetcher<CollectionsActionData>({ key: `cancel-promise-${promiseId}` });
  useActionToast(cancel.data);
  return (
    <cancel.Form method="post" action={action}>
      <input type="hidden" name="intent" value="cancel-promise" />
      <input type="hidden" name="promiseId" value={promiseId} />
      <PendingButton type="submit" size="sm" variant="outline" pending={cancel.state !== "idle"} icon={<Ban aria-hidden="true" />}>
        Cancel Promise
      </PendingButton>
    </cancel.Form>
  );
}
