import { index, route, type RouteConfig } from "@react-router/dev/routes";

/** Loan detail pages share one module; each gets its own route id (the spec has no URL parameters). */
const loanSlugs = ["personal", "business", "private", "hard-money", "debt-consolidation", "auto", "home-improvement"] as const;

export default [
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
  route("apply", "routes/apply/apply.tsx"),
  route("api/applications", "routes/api/applications.ts"),
  route("api/events", "routes/api/events.ts"),
  route("auth", "routes/auth/auth.tsx"),
  route("auth/sign-out", "routes/auth/sign-out.tsx"),
  route("dashboard", "routes/dashboard/dashboard.tsx"),
  route("dashboard/documents/file", "routes/dashboard/document-file.ts"),
  route("admin", "routes/admin/applications.tsx"),
  route("admin/mfa", "routes/admin/mfa.tsx"),
  route("admin/monitoring", "routes/admin/monitoring.tsx"),
  route("admin/security", "routes/admin/security.tsx"),
  route("admin/documents", "routes/admin/documents.tsx"),
  route("admin/clients", "routes/admin/clients.tsx"),
  route("dev/mailbox", "routes/dev/mailbox.tsx"),
  route("api/captcha/challenge", "routes/api/captcha-challenge.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("api/admin/reveal", "routes/api/admin-reveal.ts"),
  route("api/documents/file", "routes/api/documents-file.ts"),
  route("admin/testimonials", "routes/admin/testimonials.tsx"),
  route("admin/messages", "routes/admin/messages.tsx"),
  route("dashboard/applications/:id/messages", "routes/dashboard/application-messages.ts"),
  route("admin/applications/:id/messages", "routes/admin/application-messages.ts"),
  // Every unknown path: the spec's 404 page (and no server stack trace for unmatched URLs).
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
