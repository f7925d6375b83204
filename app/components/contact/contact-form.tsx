import { CheckCircle2, Send } from "lucide-react";
import { useId, useRef, useState, type FormEvent } from "react";
import { EmailField, InputField, SubmitButton, TextareaField, useFieldErrors, useFormFetcher } from "~/components/ui/form";
import { formatPhone } from "~/domain/formats";
import {
  CONTACT_FIELDS,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_LIMITS,
  contactFormValues,
  parseContact,
  type ContactActionData,
} from "~/domain/validation/contact";

/**
 * The contact form. Checked in the browser with the server's schema, then posted through a fetcher
 * (the page stays put): 'Sending...' while in flight, a toast with the answer, fields cleared on
 * success. Without JavaScript it posts the page and `actionData` carries the answer.
 */
export function ContactForm({ actionData }: { actionData?: ContactActionData }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript the server's answer arrives as the page's actionData: show its errors and values.
  const { errors, setErrors, show, clear } = useFieldErrors(
    formRef,
    CONTACT_FIELDS,
    actionData && !actionData.ok ? (actionData.fieldErrors ?? {}) : {},
  );
  const refill = actionData && !actionData.ok ? actionData.values : undefined;
  const [phone, setPhone] = useState(() => refill?.phone ?? "");

  const { fetcher, pending } = useFormFetcher<ContactActionData>(undefined, (answer) => {
    if (answer.ok) {
      formRef.current?.reset();
      setPhone("");
      setErrors({});
    } else if (answer.fieldErrors) {
      show(answer.fieldErrors);
    }
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (pending) {
      event.preventDefault();
      return;
    }
    const parsed = parseContact(contactFormValues(new FormData(event.currentTarget)));
    if (parsed.ok) {
      setErrors({});
      return; // the fetcher posts it
    }
    event.preventDefault();
    show(parsed.fieldErrors);
  }

  /** A required field's props: its name, limit, refilled value and errors (cleared as the user edits). */
  const required = (name: keyof typeof CONTACT_LIMITS) => ({
    id: `${id}-${name}`,
    name,
    errors: errors[name],
    "aria-required": "true" as const,
    maxLength: CONTACT_LIMITS[name],
    defaultValue: refill?.[name],
    onChange: () => clear(name),
  });
  const noJsSuccess = actionData?.ok === true && fetcher.data === undefined;

  return (
    <fetcher.Form ref={formRef} method="post" action="/contact" noValidate onSubmit={onSubmit} className="flex flex-col gap-2">
      {noJsSuccess ? (
        <p role="status" className="mb-4 flex items-start gap-2 rounded-md border border-green-700 bg-green-50 p-3 text-sm text-green-900">
          <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {actionData.toast.title}
        </p>
      ) : null}
      {!noJsSuccess && actionData && !actionData.ok && fetcher.data === undefined ? (
        <p role="alert" className="mb-4 rounded-md border border-destructive bg-red-50 p-3 text-sm text-destructive">
          {actionData.toast.title}
          {actionData.toast.description ? ` ${actionData.toast.description}` : null}
        </p>
      ) : null}

      <div className="grid gap-x-4 sm:grid-cols-2">
        <InputField label="Name" autoComplete="name" {...required("name")} />
        <EmailField {...required("email")} />
      </div>
      <div className="grid gap-x-4 sm:grid-cols-2">
        <InputField
          id={`${id}-phone`}
          label="Phone (optional)"
          errors={errors.phone}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          hint="10-digit US number, formatted as you type"
          maxLength={14}
          value={phone}
          onChange={(event) => {
            setPhone(formatPhone(event.currentTarget.value));
            clear("phone");
          }}
        />
        <InputField label="Subject" {...required("subject")} />
      </div>
      <TextareaField label="Message" rows={6} className="min-h-36" {...required("message")} />

      {/* The honeypot: off-screen, out of the tab order and hidden from assistive technology. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor={`${id}-${CONTACT_HONEYPOT_FIELD}`}>Company website (leave empty)</label>
        <input id={`${id}-${CONTACT_HONEYPOT_FIELD}`} type="text" name={CONTACT_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>

      <p className="text-xs text-muted-foreground">All fields are required except phone.</p>
      <SubmitButton
        pending={pending}
        icon={Send}
        label="Send Message"
        pendingLabel="Sending..."
        variant="accent"
        size="lg"
        className="mt-2 sm:w-auto sm:self-start"
      />
    </fetcher.Form>
  );
}
