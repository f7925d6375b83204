import type { LoanSlug } from "~/content/loans";
import { site } from "~/content/site";

/**
 * Search-engine facts: the public pages (sitemap.xml, Open Graph titles), what robots.txt keeps
 * crawlers out of, canonical URLs and the Organization / FinancialService structured data.
 * Pure: every absolute URL is built from the base URL passed in (getConfig().publicUrl on the server,
 * handed to the browser through the root loader), never from a hard-coded host.
 */

export type PublicPage = {
  path: string;
  /** Page title without the " | Private Loans" suffix (as the page's own meta gives it). */
  title: string;
  description: string;
  changefreq: "daily" | "weekly" | "monthly" | "yearly";
  priority: number;
};

export const CALCULATOR_SEO = {
  title: "Loan Calculator",
  description:
    "Estimate your monthly payment, total interest and total repayment with our loan calculator, with a yearly and monthly amortization schedule.",
} as const;

export const CONTACT_SEO = {
  title: "Contact Us",
  description: "Contact Private Loans by phone, e-mail or our contact form. We reply within 24 hours.",
} as const;

/** The loan pages' titles, as each page's meta gives them (content/loans.ts is not imported: it would ship to every page). */
const loanPageTitles: Record<LoanSlug, string> = {
  personal: "Personal Loans",
  business: "Business Loans",
  private: "Private Loans",
  "hard-money": "Hard Money / Bridge Loans",
  "debt-consolidation": "Debt Consolidation Loans",
  auto: "Auto Loans",
  "home-improvement": "Home Improvement Loans",
};

/** Every public, indexable page (docs/requirements.md §2), in the order the sitemap lists them. */
export const PUBLIC_PAGES: readonly PublicPage[] = [
  {
    path: "/",
    title: site.tagline,
    description:
      "Private loans for individuals, investors and businesses across the United States: personal, business, private, hard money, debt consolidation, auto and home improvement loans, with a decision within 24 hours.",
    changefreq: "weekly",
    priority: 1,
  },
  {
    path: "/about",
    title: "About Us",
    description:
      "Learn about Private Loans: our story, mission, core values and the leadership team behind 15 years of trusted private lending.",
    changefreq: "monthly",
    priority: 0.7,
  },
  {
    path: "/services",
    title: "Loan Services",
    description:
      "Compare our seven loan types: personal, business, private, hard money, debt consolidation, auto and home improvement loans.",
    changefreq: "monthly",
    priority: 0.9,
  },
  ...Object.entries(loanPageTitles).map(
    ([slug, name]): PublicPage => ({
      path: `/services/${slug}`,
      title: name,
      description: `${name} from Private Loans: amounts, rates, terms and key benefits, with a decision within 24 hours.`,
      changefreq: "monthly",
      priority: 0.8,
    }),
  ),
  { path: "/calculator", ...CALCULATOR_SEO, changefreq: "monthly", priority: 0.8 },
  {
    path: "/how-it-works",
    title: "How It Works",
    description: "From application to disbursement: how our private lending process works and which documents you need.",
    changefreq: "monthly",
    priority: 0.7,
  },
  { path: "/contact", ...CONTACT_SEO, changefreq: "yearly", priority: 0.7 },
  {
    path: "/testimonials",
    title: "Testimonials",
    description: "Read what our clients say about working with Private Loans, and share your own experience.",
    changefreq: "weekly",
    priority: 0.6,
  },
  {
    path: "/faq",
    title: "FAQs",
    description: "Answers to common questions about our loans, the application, approval, funding and security.",
    changefreq: "monthly",
    priority: 0.6,
  },
  {
    path: "/privacy",
    title: "Privacy Policy",
    description: "How Private Loans collects, uses and protects your personal information.",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/terms",
    title: "Terms of Service",
    description: "The terms that govern your use of the Private Loans website and services.",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/disclosures",
    title: "Legal Disclosures",
    description: "Legal and regulatory disclosures about Private Loans' lending products.",
    changefreq: "yearly",
    priority: 0.3,
  },
];

/**
 * Areas crawlers are asked to stay out of: private, per-user or machine-only. /auth and /apply are
 * the public ways in (sign in, create an account, apply): a search for the lender may land there, and
 * a crawler sees only the sign-in page (decision 0017).
 */
export const DISALLOWED_PATHS = ["/dashboard", "/admin", "/dev", "/api"] as const;

/** The site-wide defaults (also what pages outside PUBLIC_PAGES get). */
export const DEFAULT_SEO = {
  title: `${site.name} | ${site.tagline}`,
  description: `${site.name}: ${site.footerLine.toLowerCase()} in the United States.`,
} as const;

/** "/calculator/" → "/calculator"; "/" stays "/". */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, "");
  return trimmed === "" ? "/" : trimmed;
}

/** base + path, one slash between: absoluteUrl("https://x.com/", "/faq") → "https://x.com/faq". */
export function absoluteUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** The canonical URL of a page: the public base URL plus the normalized path, without a query. */
export function canonicalUrl(baseUrl: string, pathname: string): string {
  return absoluteUrl(baseUrl, normalizePath(pathname));
}

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);
}

/** sitemap.xml (sitemaps.org 0.9) listing every public page with its absolute URL. */
export function sitemapXml(baseUrl: string): string {
  const urls = PUBLIC_PAGES.map(
    (page) =>
      `  <url>\n    <loc>${escapeXml(canonicalUrl(baseUrl, page.path))}</loc>\n    <changefreq>${page.changefreq}</changefreq>\n    <priority>${page.priority.toFixed(1)}</priority>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}

/** robots.txt: public pages allowed, private areas disallowed, and where the sitemap is. */
export function robotsTxt(baseUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    "",
    `Sitemap: ${absoluteUrl(baseUrl, "/sitemap.xml")}`,
    "",
  ].join("\n");
}

// --- Structured data ---------------------------------------------------------------------------

/** The days as schema.org names them ("Monday"); a day's code is its name's first two letters ("Mo"). */
const WEEK_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const WEEK = WEEK_NAMES.map((name) => name.toLowerCase());

/** "9:00 AM" → "09:00", "6:00 PM" → "18:00"; null when unreadable. */
function to24h(value: string): string | null {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*([AP])\.?M\.?$/i.exec(value.trim());
  if (!match) return null;
  let hours = Number(match[1]) % 12;
  if (match[3]!.toUpperCase() === "P") hours += 12;
  return `${String(hours).padStart(2, "0")}:${match[2] ?? "00"}`;
}

export type OpeningHours = { days: string[]; dayCodes: string; opens: string; closes: string };

/**
 * The business hours of content/site.ts as machine-readable ranges ("Monday - Friday" /
 * "9:00 AM - 6:00 PM" → Mo-Fr 09:00-18:00). Closed days and unreadable lines are left out.
 */
export function openingHours(hours: readonly { days: string; time: string }[] = site.hours): OpeningHours[] {
  const out: OpeningHours[] = [];
  for (const line of hours) {
    const [fromDay, toDay] = line.days.split(/\s*[-–]\s*/).map((d) => d.trim().toLowerCase());
    const [opensText, closesText] = line.time.split(/\s*[-–]\s*/);
    const opens = opensText ? to24h(opensText) : null;
    const closes = closesText ? to24h(closesText) : null;
    const start = fromDay ? WEEK.indexOf(fromDay) : -1;
    const end = toDay ? WEEK.indexOf(toDay) : start;
    if (start < 0 || end < start || !opens || !closes) continue;
    const days = WEEK_NAMES.slice(start, end + 1);
    const codes = days.map((name) => name.slice(0, 2));
    out.push({
      days,
      dayCodes: codes.length > 1 ? `${codes[0]}-${codes[codes.length - 1]}` : codes[0]!,
      opens,
      closes,
    });
  }
  return out;
}

/** Organization + FinancialService (schema.org JSON-LD), for the head of every page. */
export function organizationJsonLd(baseUrl: string): Record<string, unknown> {
  const home = canonicalUrl(baseUrl, "/");
  const orgId = `${home}#organization`;
  const address = {
    "@type": "PostalAddress",
    streetAddress: site.address.street,
    addressLocality: site.address.city,
    addressRegion: site.address.state,
    postalCode: site.address.zip,
    addressCountry: "US",
  };
  const hours = openingHours();
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": orgId,
        name: site.name,
        url: home,
        logo: absoluteUrl(baseUrl, "/logo.svg"),
        slogan: site.tagline,
        email: site.email,
        telephone: site.phone.e164,
        address,
        contactPoint: {
          "@type": "ContactPoint",
          contactType: "customer service",
          telephone: site.phone.e164,
          email: site.email,
          areaServed: "US",
          availableLanguage: "English",
        },
      },
      {
        "@type": "FinancialService",
        "@id": `${home}#financialservice`,
        name: site.name,
        url: home,
        image: absoluteUrl(baseUrl, "/logo.svg"),
        description: DEFAULT_SEO.description,
        telephone: site.phone.e164,
        email: site.email,
        address,
        areaServed: { "@type": "Country", name: "United States" },
        parentOrganization: { "@id": orgId },
        openingHours: hours.map((h) => `${h.dayCodes} ${h.opens}-${h.closes}`),
        openingHoursSpecification: hours.map((h) => ({
          "@type": "OpeningHoursSpecification",
          dayOfWeek: h.days,
          opens: h.opens,
          closes: h.closes,
        })),
      },
    ],
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no text can close the element. */
export function jsonLdText(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
