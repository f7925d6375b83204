import * as clockIcon from "lucide-react/icons/clock";
import * as mailIcon from "lucide-react/icons/mail";
import * as mapPinIcon from "lucide-react/icons/map-pin";
import * as phoneIcon from "lucide-react/icons/phone";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { LenderLicensing } from "~/content/company";
import { footerCompanyLinks, footerLegalLinks, footerServiceLinks, type NavLink } from "~/content/navigation";
import { emailHref, phoneHref, site } from "~/content/site";
import { LogoMark } from "./logo";
import { inlineIcons, type IconComponent } from "~/components/ui/inline-icon";

const [Clock, Mail, MapPin, Phone] = inlineIcons(clockIcon, mailIcon, mapPinIcon, phoneIcon);

const linkClass = "footer-link";

function LinkList({ links }: { links: readonly NavLink[] }) {
  return (
    <ul className="space-y-2 text-sm">
      {links.map((link) => (
        <li key={link.to}>
          <Link to={link.to} className={linkClass}>
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

const linkColumns = [
  { title: "Company", links: footerCompanyLinks },
  { title: "Loan Services", links: footerServiceLinks },
  { title: "Legal", links: footerLegalLinks },
] as const;

function ColumnHeading({ children }: { children: ReactNode }) {
  return <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">{children}</h2>;
}

function ContactRow({ icon: Icon, children }: { icon: IconComponent; children: ReactNode }) {
  return (
    <li className="flex gap-2">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
      {children}
    </li>
  );
}

/** NMLS Consumer Access, where a visitor can check the NMLS ID. Here, not in content/company: importing a
 *  value from that module would put the About page's copy in every page's script (page-weight budget). */
const nmlsConsumerAccessUrl = (nmlsId: string) =>
  `https://www.nmlsconsumeraccess.org/EntityDetails.aspx/COMPANY/${encodeURIComponent(nmlsId)}`;

/** The licensing line: only the parts the operator configured (the root loader passes null when none is). */
function LicensingLine({ licensing }: { licensing: LenderLicensing }) {
  const { legalName, nmlsId, stateLicenses } = licensing;
  return (
    <p className="text-xs text-slate-300" data-testid="licensing">
      {legalName ? <span>{legalName}. </span> : null}
      {nmlsId ? (
        <span>
          NMLS ID{" "}
          <a href={nmlsConsumerAccessUrl(nmlsId)} className={linkClass} rel="noopener noreferrer">
            {nmlsId}
          </a>
          .{" "}
        </span>
      ) : null}
      {stateLicenses.length ? <span>Licensed in: {stateLicenses.join("; ")}.</span> : null}
    </p>
  );
}

export function Footer({ licensing }: { licensing: LenderLicensing | null }) {
  const year = new Date().getFullYear();
  const { address } = site;
  return (
    <footer className="on-dark mt-auto bg-navy-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-4">
        <div className="space-y-3">
          <Link to="/" className="inline-flex items-center gap-2 rounded-md text-white">
            <LogoMark />
            <span className="text-lg font-bold">{site.name}</span>
          </Link>
          <p className="text-sm font-semibold text-gold-400">{site.footerLine}</p>
          <p className="text-sm">{site.tagline}</p>
        </div>

        <nav
          aria-label="Footer"
          className="grid grid-cols-2 gap-8 sm:order-last sm:col-span-2 sm:grid-cols-3 lg:order-none"
        >
          {linkColumns.map((column) => (
            <div key={column.title}>
              <ColumnHeading>{column.title}</ColumnHeading>
              <LinkList links={column.links} />
            </div>
          ))}
        </nav>

        <div>
          <ColumnHeading>Contact Us</ColumnHeading>
          <ul className="space-y-3 text-sm">
            <ContactRow icon={Phone}>
              <a href={phoneHref} className={linkClass}>
                <span className="sr-only">Phone: </span>
                {site.phone.display}
              </a>
            </ContactRow>
            <ContactRow icon={Mail}>
              <a href={emailHref} className={`${linkClass} break-all`}>
                <span className="sr-only">E-mail: </span>
                {site.email}
              </a>
            </ContactRow>
            <ContactRow icon={MapPin}>
              <address className="not-italic">
                {address.street}
                <br />
                {address.city}, {address.state} {address.zip}
              </address>
            </ContactRow>
            <ContactRow icon={Clock}>
              <span>
                {site.hours.map((h) => (
                  <span key={h.days} className="block">
                    {h.days}: {h.time}
                  </span>
                ))}
              </span>
            </ContactRow>
          </ul>
        </div>
      </div>

      <div className="border-t border-white/15">
        <div className="mx-auto max-w-7xl space-y-2 px-4 py-6 sm:px-6">
          <p className="text-sm" suppressHydrationWarning>
            © {year} {site.name}. All rights reserved.
          </p>
          <p className="text-xs">
            <Link to="/disclosures#equal-housing" className={linkClass}>
              Equal Housing Lender
            </Link>
            . We lend without regard to race, color, religion, national origin, sex, disability, familial status,
            marital status or age.
          </p>
          {licensing ? <LicensingLine licensing={licensing} /> : null}
        </div>
      </div>
    </footer>
  );
}
