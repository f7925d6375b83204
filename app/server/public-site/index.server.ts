/**
 * The public-site module's front door: what routes and other modules may use. Everything else in
 * app/server/public-site/ is internal; ESLint (no-restricted-imports in eslint.config.js) refuses an import of it
 * from outside the module, so the module can change its insides without touching its callers.
 */
export { listContactMessages, newContactMessages, parseMessageView, setContactMessageStatus } from "./contact-inbox.server";
export { submitContactRequest } from "./contact.server";
export { listPendingTestimonials, moderateTestimonial, parsePageNumber } from "./moderation.server";
export { createTestimonial, listApprovedTestimonials, submitTestimonialRequest } from "./testimonials.server";
