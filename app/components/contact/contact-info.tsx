import * as clockIcon from "lucide-react/icons/clock";
import * as mailIcon from "lucide-react/icons/mail";
import * as mapPinIcon from "lucide-react/icons/map-pin";
import * as phoneIcon from "lucide-react/icons/phone";
import * as phoneCallIcon from "lucide-react/icons/phone-call";
import type { ReactNode } from "react";
import { emailHref, phoneHref, site } from "~/content/site";
import { cn } from "~/utils/cn";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [Clock, Mail, MapPin, Phone, PhoneCall] = inlineIcons(clockIcon, mailIcon, mapPinIcon, phoneIcon, phoneCallIcon);

/** A card beside the contact form, labelled by its h2. */
function SideCard({ id, title, className, headingClassName, children }: { id: string; title: string; className: string; headingClassName?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={cn("text-xl font-semibold", headingClassName)}>
        {title}
      </h2>
      {children}
    </section>
  );
}

/** One line of the contact-info card: an icon, a bold label and the detail under it. */
function InfoRow({ icon: Icon, label, grow = false, children }: { icon: IconComponent; label: string; grow?: boolean; children: ReactNode }) {
  return (
    <li className="flex items-start gap-3">
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-gold-700" />
      <div className={grow ? "flex-1" : undefined}>
        <p className="font-semibold text-foreground">{label}</p>
        {children}
      </div>
    </li>
  );
}

/** The contact-info card: phone, e-mail, postal address and business hours (all from content/site). */
export function ContactInfoCard({ className }: { className?: string }) {
  const { address } = site;
  return (
    <SideCard id="contact-info-heading" title="Contact Information" className={cn("rounded-xl border border-border bg-card p-6 shadow-sm", className)} headingClassName="text-primary">
      <ul className="mt-5 flex flex-col gap-5 text-sm">
        <InfoRow icon={Phone} label="Phone">
          <a href={phoneHref} className="text-link underline-offset-4 hover:underline">
            {site.phone.display}
          </a>
        </InfoRow>
        <InfoRow icon={Mail} label="Email">
          <a href={emailHref} className="break-all text-link underline-offset-4 hover:underline">
            {site.email}
          </a>
        </InfoRow>
        <InfoRow icon={MapPin} label="Office">
          <address className="text-muted-foreground not-italic">
            {address.street}
            <br />
            {address.city}, {address.state} {address.zip}
            <br />
            {address.country}
          </address>
        </InfoRow>
        <InfoRow icon={Clock} label="Business Hours" grow>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-muted-foreground">
            {site.hours.map((h) => (
              <div key={h.days} className="contents">
                <dt>{h.days}</dt>
                <dd className="text-right whitespace-nowrap">{h.time}</dd>
              </div>
            ))}
          </dl>
        </InfoRow>
      </ul>
    </SideCard>
  );
}

/** The call-now card: one big tap target to ring us, with the weekday hours beside it. */
export function CallNowCard({ className }: { className?: string }) {
  const weekdays = site.hours[0];
  return (
    <SideCard id="call-now-heading" title="Call Now" className={cn("on-dark rounded-xl bg-primary p-6 text-primary-foreground shadow-sm", className)}>
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
    </SideCard>
  );
}
