import { index, route, type RouteConfig } from "@react-router/dev/routes";

/** Loan detail pages share one module; each gets its own route id (the spec has no URL parameters). */
const loanSlugs = ["personal", "business", "private", "hard-money", "debt-consolidation", "auto", "home-improvement"] as const;

export default [
  // The public site: pages anyone can read, the calculator, and what search engines fetch.
  index("routes/_site/home.tsx"),
  route("about", "routes/_site/about.tsx"),
  route("services", "routes/_site/services.tsx"),
  ...loanSlugs.map((slug) => route(`services/${slug}`, "routes/_site/loan-detail.tsx", { id: `loan-${slug}` })),
  route("calculator", "routes/_site/calculator.tsx"),
  route("how-it-works", "routes/_site/how-it-works.tsx"),
  route("contact", "routes/_site/contact.tsx"),
  route("testimonials", "routes/_site/testimonials.tsx"),
  route("faq", "routes/_site/faq.tsx"),
  route("privacy", "routes/_site/privacy.tsx"),
  route("terms", "routes/_site/terms.tsx"),
  route("disclosures", "routes/_site/disclosures.tsx"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),

  // Signing in and out, second factors, staff invitations.
  route("auth", "routes/auth/auth.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.tsx"),
  route("auth/two-factor", "routes/auth/two-factor.tsx"),
  route("auth/passkey", "routes/auth/passkey.ts"),
  route("auth/invite/:token", "routes/auth/staff-invite.tsx"),
  route("api/captcha/challenge", "routes/api/captcha-challenge.ts"),

  // Applying: the five-step wizard, its saved drafts and the submission.
  route("apply", "routes/apply/apply.tsx"),
  route("api/drafts", "routes/api/drafts.ts"),
  route("api/applications", "routes/api/applications.ts"),

  // The borrower's dashboard: applications, the conversation with staff, offers and the agreement.
  route("dashboard", "routes/dashboard/dashboard.tsx"),
  route("dashboard/documents/file", "routes/dashboard/document-file.ts"),
  route("dashboard/applications/:id", "routes/dashboard/application.tsx"),
  route("dashboard/applications/:id/messages", "routes/dashboard/application-messages.ts"),
  route("dashboard/applications/:id/requests", "routes/dashboard/application-requests.ts"),
  route("dashboard/applications/:id/offer", "routes/dashboard/application-offer.tsx"),
  route("dashboard/applications/:id/offer-decline", "routes/dashboard/application-offer-decline.ts"),
  route("dashboard/applications/:id/withdraw", "routes/dashboard/application-withdraw.ts"),
  route("dashboard/applications/:id/agreement", "routes/dashboard/application-agreement.ts"),

  // The borrower's loans: servicing, payments, statements and payoff letters.
  route("dashboard/loans/:id", "routes/dashboard/loan.tsx"),
  route("dashboard/loans/:id/documents", "routes/dashboard/loan-document.ts"),
  // Hardship: Request Help with Payments, the plan offered (review, sign or decline), the signed PDF.
  route("dashboard/loans/:id/hardship", "routes/dashboard/loan-hardship.ts"),
  route("dashboard/loans/:id/plan", "routes/dashboard/loan-plan.tsx"),
  route("dashboard/loans/:id/plans/:planId", "routes/dashboard/loan-plan-file.ts"),

  // The borrower's own account: profile, security, privacy and data rights.
  route("account", "routes/account/account.tsx"),
  route("account/privacy", "routes/account/privacy.tsx"),
  route("account/security", "routes/account/security.ts"),
  route("account/settings", "routes/account/settings.ts"),
  route("account/data", "routes/account/data.ts"),
  route("account/data/download/:token", "routes/account/data-download.ts"),

  // Live updates for signed-in pages.
  route("api/events", "routes/api/events.ts"),

  // Staff: applications, reviews, decisions, offers and the conversation with applicants.
  route("admin", "routes/admin/applications.tsx"),
  route("admin/applications/:id", "routes/admin/application.tsx"),
  route("admin/applications/:id/messages", "routes/admin/application-messages.ts"),
  route("admin/applications/:id/requests", "routes/admin/application-requests.ts"),
  route("admin/applications/:id/approval", "routes/admin/application-approval.ts"),
  route("admin/applications/:id/assignment", "routes/admin/application-assignment.ts"),
  route("admin/applications/:id/sanctions", "routes/admin/application-sanctions.ts"),
  route("admin/applications/:id/offer", "routes/admin/application-offer.ts"),
  route("admin/applications/:id/agreement", "routes/admin/application-agreement.ts"),
  route("admin/documents", "routes/admin/documents.tsx"),
  route("admin/clients", "routes/admin/clients.tsx"),
  route("admin/messages", "routes/admin/messages.tsx"),
  route("admin/conversations", "routes/admin/conversations.tsx"),
  route("admin/testimonials", "routes/admin/testimonials.tsx"),
  route("api/admin/reveal", "routes/api/admin-reveal.ts"),
  route("api/documents/file", "routes/api/documents-file.ts"),

  // Staff: loans, payments, ACH files and the loan tape.
  route("admin/loans", "routes/admin/loans.tsx"),
  route("admin/loans/tape", "routes/admin/loan-tape.ts"),
  route("admin/loans/:id", "routes/admin/loan.tsx"),
  route("admin/loans/:id/collections", "routes/admin/loan-collections.ts"),
  route("admin/collections", "routes/admin/collections.tsx"),
  route("admin/loans/:id/charge-off", "routes/admin/loan-charge-off.ts"),
  route("admin/loans/:id/protections", "routes/admin/loan-protections.ts"),
  route("admin/loans/:id/hardship", "routes/admin/loan-hardship.ts"),
  route("admin/loans/:id/plans/:planId", "routes/admin/loan-plan-file.ts"),
  route("admin/ach", "routes/admin/ach.tsx"),
  route("admin/ach/:id/file", "routes/admin/ach-file.ts"),

  // Staff: the team, security, monitoring, reports and exports.
  route("admin/staff", "routes/admin/staff.tsx"),
  route("admin/mfa", "routes/admin/mfa.tsx"),
  route("admin/security", "routes/admin/security.tsx"),
  route("admin/monitoring", "routes/admin/monitoring.tsx"),
  route("admin/reports", "routes/admin/reports.tsx"),
  route("admin/exports/applications", "routes/admin/export-applications.ts"),
  route("admin/exports/audit", "routes/admin/export-audit.ts"),

  // Development only: the local mailbox.
  route("dev/mailbox", "routes/dev/mailbox.tsx"),

  // Every unknown path: the spec's 404 page (and no server stack trace for unmatched URLs).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
