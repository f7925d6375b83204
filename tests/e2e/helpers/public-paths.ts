/**
 * The product's public pages, one list for the tests that walk them (the sitemap, the footer, the
 * authorization matrix), so a page added to the product is added to each of them at once.
 */

/** The loan services the footer links to, in the order of the services page. */
export const FOOTER_SERVICE_PATHS = [
  "/services/personal",
  "/services/business",
  "/services/private",
  "/services/hard-money",
  "/services/debt-consolidation",
  "/services/auto",
];

/** Every loan service page: the footer's six and home improvement, which the footer leaves out. */
export const SERVICE_PATHS = [...FOOTER_SERVICE_PATHS, "/services/home-improvement"];

export const LEGAL_PATHS = ["/privacy", "/terms", "/disclosures"];

/** The public pages a person reads, in the sitemap's order. */
export const PUBLIC_PAGE_PATHS = [
  "/",
  "/about",
  "/services",
  ...SERVICE_PATHS,
  "/calculator",
  "/how-it-works",
  "/contact",
  "/testimonials",
  "/faq",
  ...LEGAL_PATHS,
];

/** What a visitor may fetch besides the pages: the crawler files and the sign-up's captcha challenge. */
export const PUBLIC_RESOURCE_PATHS = ["/sitemap.xml", "/robots.txt", "/api/captcha/challenge"];
