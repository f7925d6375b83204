import { Clock, Mail, MapPin, Phone, PhoneCall } from "lucide-react";
import { emailHref, phoneHref, site } from "~/content/site";
import { cn } from "~/utils/cn";

/** The contact-info card: phone, e-mail, postal address and business hours (all from content/site). */
export function ContactInfoCard({ className }: { className?: string }) {
  const { address } = site;
  return (
    <section aria-labelledby="contact-info-heading" className={cn("rounded-xl border border-border bg-card p-6 shadow-sm", className)}>
      <h2 id="contact-info-heading" className="text-xl font-semibold text-primary">
        Contact Information
      </h2>
      <ul className="mt-5 flex flex-col gap-5 text-sm">
        <li className="flex items-start gap-3">
          <Phone aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
          <div>
            <p className="font-semibold text-foreground">Phone</p>
            <a href={phoneHref} className="text-link underline-offset-4 hover:underline">
              {site.phone.display}
            </a>
          </div>
        </li>
        <li className="flex items-start gap-3">
          <Mail aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
          <div>
            <p className="font-semibold text-foreground">Email</p>
            <a href={emailHref} className="break-all text-link underline-offset-4 hover:underline">
              {site.email}
            </a>
          </div>
        </li>
        <li className="flex items-start gap-3">
          <MapPin aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
          <div>
            <p className="font-semibold text-foreground">Office</p>
            <address className="text-muted-foreground not-italic">
              {address.street}
              <br />
              {address.city}, {address.state} {address.zip}
              <br />
              {address.country}
            </address>
          </div>
        </li>
        <li className="flex items-start gap-3">
          <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
          <div className="flex-1">
            <p className="font-semibold text-foreground">Business Hours</p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-muted-foreground">
              {site.hours.map((h) => (
                <div key={h.days} className="contents">
                  <dt>{h.days}</dt>
                  <dd className="text-right whitespace-nowrap">{h.time}</dd>
                </div>
              ))}
            </dl>
          </div>
        </li>
      </ul>
    </section>
  );
}

/** The call-now card: one big tap target to ring us, with the weekday hours beside it. */
export function CallNowCard({ className }: { className?: string }) {
  const weekdays = site.hours[0];
  return (
    <section aria-labelledby="call-now-heading" className={cn("on-dark rounded-xl bg-primary p-6 text-primary-foreground shadow-sm", className)}>
      <h2 id="call-now-heading" className="text-xl font-semibold">
        Call Now
      </h2>
      <p className="mt-2 text-sm text-navy-100">
        Prefer to talk? Speak with a loan specialist: {weekdays.days}, {weekdays.time}.
      </p>
      <a
        href={phoneHref}
        className="mt-5 inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-accent px-4 py-2 text-base font-semibold whitespace-nowrap text-accent-foreground transition-colors hover:bg-gold-300"
      >
        <PhoneCall aria-hidden="true" className="size-5 shrink-0" />
        <span>
          <span className="sr-only">Call </span>
          {site.phone.display}
        </span>
      </a>
    </section>
  );
}
