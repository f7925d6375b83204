import type { MetaDescriptor } from "react-router";

/**
 * Company facts shown across the site (header, footer, contact page, loading overlay).
 * One source of truth: change a number or an address here and every page follows.
 * The contact details are placeholders for the lender's real ones (555-01xx numbers and the
 * .example domain are reserved for fiction, so nobody real is reached by mistake).
 */
export const site = {
  /** Company name: copyright line, page titles. */
  name: "Private Loans",
  /** Brand title on the loading overlay and beside the logo in the header. */
  brandTitle: "Trusted Lending",
  /** Loading-overlay tagline (docs/requirements.md §1). */
  overlayTagline: "Private Loans",
  tagline: "Trusted Lending. Transparent Solutions.",
  footerLine: "Your Trusted Private Lending Partner",
  phone: {
    display: "(888) 555-0142",
    /** E.164, for tel: links. */
    e164: "+18885550142",
  },
  email: "contact@privateloans.example",
  address: {
    street: "1200 Market Street, Suite 400",
    city: "Wilmington",
    state: "DE",
    zip: "19801",
    country: "United States",
  },
  /** Business hours (docs/requirements.md §10). */
  hours: [
    { days: "Monday - Friday", time: "9:00 AM - 6:00 PM" },
    { days: "Saturday", time: "10:00 AM - 4:00 PM" },
    { days: "Sunday", time: "Closed" },
  ],
} as const;

export const phoneHref = `tel:${site.phone.e164}`;
export const emailHref = `mailto:${site.email}`;

/** "About Us | Private Loans" plus a description (and their Open Graph copies): the meta every page exports. */
export function pageMeta(title: string, description: string): MetaDescriptor[] {
  const full = `${title} | ${site.name}`;
  // Open Graph title and description come from the same words, so they can never drift apart.
  return [
    { title: full },
    { name: "description", content: description },
    { property: "og:title", content: full },
    { property: "og:description", content: description },
  ];
}
