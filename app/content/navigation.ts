/**
 * The site's menus (docs/requirements.md §2): the header's main navigation and the footer's link
 * columns. A page is named once here; a menu that words it differently (the footer's "Loan Calculator")
 * says so where it lists it. The home-improvement page is deliberately not in the footer.
 */
export type NavLink = { to: string; label: string };

const MENU_LABELS = {
  "/": "Home",
  "/about": "About Us",
  "/services": "Loan Services",
  "/calculator": "Calculator",
  "/how-it-works": "How It Works",
  "/testimonials": "Testimonials",
  "/faq": "FAQs",
  "/contact": "Contact",
  "/services/personal": "Personal Loans",
  "/services/business": "Business Loans",
  "/services/private": "Private Loans",
  "/services/hard-money": "Hard Money Loans",
  "/services/debt-consolidation": "Debt Consolidation",
  "/services/auto": "Auto Loans",
  "/privacy": "Privacy Policy",
  "/terms": "Terms of Service",
  "/disclosures": "Legal Disclosures",
} as const;
type MenuPath = keyof typeof MENU_LABELS;

function menu(paths: readonly MenuPath[], wording: Partial<Record<MenuPath, string>> = {}): readonly NavLink[] {
  return paths.map((to) => ({ to, label: wording[to] ?? MENU_LABELS[to] }));
}

/** The main navigation, in the order of docs/requirements.md §2. */
export const mainNavLinks = menu(["/", "/about", "/services", "/calculator", "/how-it-works", "/testimonials", "/faq", "/contact"]);

export const footerCompanyLinks = menu(["/about", "/services", "/calculator", "/testimonials", "/faq"], {
  "/calculator": "Loan Calculator",
});

/** Every loan page named above, in that order. */
export const footerServiceLinks = menu((Object.keys(MENU_LABELS) as MenuPath[]).filter((path) => path.startsWith("/services/")));

export const footerLegalLinks = menu(["/privacy", "/terms", "/disclosures"]);
