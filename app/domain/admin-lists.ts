import type { ContactMessageStatus } from "./enums";

/**
 * What the admin list pages show, as plain data: the server modules return these shapes and the
 * page components render them (types only, so the browser never imports a server module for them).
 */

/** One page of a list. */
export type Page<T> = { items: T[]; page: number; pageCount: number; total: number; pageSize: number };

/** A testimonial waiting for moderation. */
export type PendingTestimonial = {
  id: string;
  fullName: string;
  displayName: string;
  role: string;
  location: string | null;
  content: string;
  rating: number;
  /** The author's account e-mail (null when the account was deleted). */
  authorEmail: string | null;
  /** ISO 8601. */
  createdAt: string;
};

/** A contact-form message in the admin inbox. */
export type InboxMessage = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  subject: string;
  message: string;
  status: ContactMessageStatus;
  /** ISO 8601. */
  createdAt: string;
};
