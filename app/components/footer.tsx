import { Clock, Mail, MapPin, Phone } from "lucide-react";
import { Link } from "react-router";
import { emailHref, phoneHref, site } from "~/content/site";
import { LogoMark } from "./logo";

/** docs/requirements.md §2: the footer links. The home-improvement page is deliberately not linked here. */
export const footerCompanyLinks = [
  { to: "/about", label: "About Us" },
  { to: "/services", label: "Loan Services" },
  { to: "/calculator", label: "Loan Calculator" },
  { to: "/testimonials", label: "Testimonials" },
  { to: "/faq", label: "FAQs" },
] as const;

export const footerServiceLinks = [
  { to: "/services/personal", label: "Personal Loans" },
  { to: "/services/business", label: "Business Loans" },
  { to: "/services/private", label: "Private Loans" },
  { to: "/services/hard-money", label: "Hard Money Loans" },
  { to: "/services/debt-consolidation", label: "Debt Consolidation" },
  { to: "/services/auto", label: "Auto Loans" },
] as const;

export const footerLegalLinks = [
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms", label: "Terms of Service" },
  { to: "/disclosures", label: "Legal Disclosures" },
] as const;

const linkClass = "rounded-sm text-slate-300 hover:text-gold-400 hover:underline";

function LinkList({ links }: { links: readonly { to: string; label: string }[] }) {
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

export function Footer() {
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
          <div>
            <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">Company</h2>
            <LinkList links={footerCompanyLinks} />
          </div>
          <div>
            <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">Loan Services</h2>
            <LinkList links={footerServiceLinks} />
          </div>
          <div>
            <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">Legal</h2>
            <LinkList links={footerLegalLinks} />
          </div>
        </nav>

        <div>
          <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">Contact Us</h2>
          <ul className="space-y-3 text-sm">
            <li className="flex gap-2">
              <Phone aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
              <a href={phoneHref} className={linkClass}>
                <span className="sr-only">Phone: </span>
                {site.phone.display}
              </a>
            </li>
            <li className="flex gap-2">
              <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
              <a href={emailHref} className={`${linkClass} break-all`}>
                <span className="sr-only">E-mail: </span>
                {site.email}
              </a>
            </li>
            <li className="flex gap-2">
              <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
              <address className="not-italic">
                {address.street}
                <br />
                {address.city}, {address.state} {address.zip}
              </address>
            </li>
            <li className="flex gap-2">
              <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-gold-400" />
              <span>
                {site.hours.map((h) => (
                  <span key={h.days} className="block">
                    {h.days}: {h.time}
                  </span>
                ))}
              </span>
            </li>
          </ul>
        </div>
      </div>

      <div className="border-t border-white/15">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm sm:px-6" suppressHydrationWarning>
          © {year} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
