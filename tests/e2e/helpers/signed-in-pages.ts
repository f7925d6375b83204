/**
 * Every signed-in page, for the suites that walk them all (the HTML-validity suite checks each with the
 * W3C Nu HTML checker over the demo data). A page added to the product gets a row here: the suite
 * compares this list with app/routes.ts and fails on a page that is in neither this list, the public
 * pages (./public-paths.ts) nor PAGES_NOT_WALKED.
 *
 * `:name` parts of a path are filled from links on the pages the same session visited before (so list
 * a page after the pages that link to it): each distinct link found is visited, up to a cap per row.
 * `:id` stands for a UUID (applications, loans, batches: "/admin/loans/tape" is no loan); any other
 * name for letters, digits, "-" and "_".
 */

export const STAFF_PAGE_ROLES = ["admin", "loan_officer", "auditor"] as const;
export type StaffPageRole = (typeof STAFF_PAGE_ROLES)[number];
export type PageRole = "applicant" | StaffPageRole;

export type SignedInPage = {
  path: string;
  /** Who sees the page (answered 200); each of them visits it. */
  roles: readonly PageRole[];
  /**
   * The session's stage: "signed-in" (every factor passed; the default) or "second-factor-pending"
   * (password given, second factor not yet: the pages that ask for it).
   */
  stage?: "signed-in" | "second-factor-pending";
  /** The page must link to at least one page of this shape (the data has what the page lists). */
  linksTo?: string;
};

const APPLICANT = ["applicant"] as const;
const STAFF = STAFF_PAGE_ROLES;
const EVERYONE = ["applicant", ...STAFF_PAGE_ROLES] as const;

/** Pages at these paths that `roles` see, with nothing else to say about them. */
const seenBy = (roles: readonly PageRole[], paths: readonly string[]): SignedInPage[] => paths.map((path) => ({ path, roles }));

/** The review list's tabs (app/domain/validation/review.ts REVIEW_TABS), each must list an application. */
const REVIEW_TAB_PAGES: SignedInPage[] = ["pending", "under_review", "approved", "denied"].map((tab) => ({
  path: `/admin?status=${tab}`,
  roles: STAFF,
  linksTo: "/admin/applications/:id",
}));

export const SIGNED_IN_PAGES: readonly SignedInPage[] = [
  // The applicant's pages.
  ...seenBy(APPLICANT, ["/dashboard", "/dashboard/applications/:id", "/dashboard/applications/:id/offer", "/dashboard/loans/:id", "/apply"]),
  // A saved application (Save and Finish Later), resumed from the dashboard.
  { path: "/apply?loanType=:loanType", roles: APPLICANT },
  { path: "/auth/two-factor", roles: APPLICANT, stage: "second-factor-pending" },
  // Everyone's account pages.
  { path: "/account", roles: EVERYONE },
  { path: "/account/privacy", roles: EVERYONE },
  // Staff pages.
  { path: "/admin/mfa", roles: STAFF, stage: "second-factor-pending" },
  { path: "/admin", roles: STAFF, linksTo: "/admin/applications/:id" },
  ...REVIEW_TAB_PAGES,
  { path: "/admin?queue=mine", roles: STAFF },
  // Four-eyes approvals waiting for a second staff member (the demo data may hold none: the empty list is walked then).
  { path: "/admin?status=awaiting_confirmation", roles: STAFF },
  { path: "/admin/clients", roles: STAFF, linksTo: "/admin/clients?client=:userId" },
  { path: "/admin/clients?client=:userId", roles: STAFF },
  // After the lists and the clients, which link to every application (whatever its status).
  { path: "/admin/applications/:id", roles: STAFF },
  { path: "/admin/documents", roles: STAFF },
  { path: "/admin/loans", roles: STAFF, linksTo: "/admin/loans/:id" },
  { path: "/admin/loans/:id", roles: STAFF },
  // The collections queue: admins and loan officers (collections.work); the auditor is refused.
  { path: "/admin/collections", roles: ["admin", "loan_officer"] },
  { path: "/admin/ach", roles: STAFF, linksTo: "/admin/ach/:id/file" },
  ...seenBy(STAFF, ["/admin/messages", "/admin/conversations", "/admin/testimonials", "/admin/monitoring", "/admin/security", "/admin/reports"]),
  { path: "/admin/staff", roles: ["admin"] },
];

/** Route paths (as in app/routes.ts) of pages with markup that no walk visits, and why. */
export const PAGES_NOT_WALKED: Record<string, string> = {
  "dev/mailbox": "development only: a production server (as the tests run it) answers 404",
  "auth/sign-out": "signs out and redirects: no page of its own",
  "auth/invite/:token": "signed out, reached by an invitation e-mail: the staff invitation suites walk it",
  "dashboard/loans/:id/plan": "shown only while a hardship plan offer is open (the demo's plan is signed): tests/e2e/hardship-plan.e2e.test.ts walks it with an open offer, axe-checked",
};

/** The route-path form of a listed path ("/admin/clients?client=:id" → "admin/clients"). */
export function routePathOf(path: string): string {
  return path.split("?")[0]!.replace(/^\//, "");
}

/** A regular expression for links (href="…") to pages of this shape; its groups are the `:name` values. */
export function linkPattern(path: string): RegExp {
  const escaped = path
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/:id\b/g, "([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
    .replace(/:[A-Za-z]+/g, "([A-Za-z0-9_-]+)");
  return new RegExp(`href="(${escaped})"`, "g");
}

/** The distinct links to pages of this shape in `html`, in order. */
export function linksIn(html: string, path: string): string[] {
  return [...new Set([...html.matchAll(linkPattern(path))].map((m) => m[1]!))];
}
