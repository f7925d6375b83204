import { joined } from "./joined";

/**
 * The enumerations and limits of the conversation after submission: requests, the timeline
 * and messages. Apart from ./enums.ts because that module ships with every public page (the loan types
 * and limits the calculator and wizard need), and these are only for signed-in pages. The database's
 * CHECK constraints are built from the same arrays (app/server/platform/db/schema.server.ts).
 */

/** The documents staff can ask for after submission (What We Need; each is also a loan_documents.document_type). */
export const REQUEST_DOCUMENT_KINDS = [
  "id_document",
  "bank_statement",
  "pay_stub",
  "tax_return",
  "proof_of_address",
  "business_license",
  "other_document",
] as const;
export type RequestDocumentKind = (typeof REQUEST_DOCUMENT_KINDS)[number];

/** What a request item asks for: a document of one kind, or an answer in words. */
export const REQUEST_ITEM_KINDS = /* @__PURE__ */ joined(REQUEST_DOCUMENT_KINDS, ["question"] as const);
export type RequestItemKind = (typeof REQUEST_ITEM_KINDS)[number];

/** requested → received (the applicant answered) → accepted, or rejected (answer again → received). */
export const REQUEST_ITEM_STATUSES = ["requested", "received", "accepted", "rejected"] as const;
export type RequestItemStatus = (typeof REQUEST_ITEM_STATUSES)[number];

/** Events on an application's timeline (application_events.kind). */
export const APPLICATION_EVENT_KINDS = [
  "submitted",
  "review_started",
  "documents_requested",
  "document_received",
  "reply_received",
  "document_accepted",
  "document_rejected",
  "message",
  "note",
  "approved",
  "denied",
  "closed_incomplete",
  // The applicant withdrew the application (Withdraw Application).
  "withdrawn",
  // The offer and the agreement.
  "offer_made",
  "offer_withdrawn",
  "offer_declined",
  "offer_expired",
  "esign_consented",
  "esign_withdrawn",
  "agreement_signed",
  // Funding: the proceeds' credit settled, came back from the bank, or the loan was cancelled unfunded.
  "loan_funded",
  "funds_returned",
  "loan_cancelled",
  // Autopay and returned payments: set up, changed, cancelled or stopped; a debit returned, a retry queued.
  "autopay_on",
  "autopay_changed",
  "autopay_off",
  "payment_returned",
  "payment_retry",
  // Late loans: a borrower's request for help, a hardship plan offered / signed / declined / withdrawn,
  // the loan charged off or settled.
  "hardship_requested",
  "plan_offered",
  "plan_signed",
  "plan_declined",
  "plan_withdrawn",
  "loan_charged_off",
  "loan_settled",
  // Four-eyes approval and assignment (internal: staff only).
  "approval_proposed",
  "approval_sent_back",
  "assigned",
] as const;
export type ApplicationEventKind = (typeof APPLICATION_EVENT_KINDS)[number];

/** Which side of the conversation wrote a message or made an event. */
export const CONVERSATION_SIDES = ["applicant", "staff"] as const;
export type ConversationSide = (typeof CONVERSATION_SIDES)[number];

/** Limits the database enforces on the conversation (the forms say so first). */
export const CONVERSATION_LIMITS = {
  /** One message in an application's conversation. */
  messageMaxLength: 5000,
  /** Staff's note to the applicant on a request, and a reason for rejecting an answer. */
  requestNoteMaxLength: 1000,
  /** The applicant's written reply to a question item. */
  requestReplyMaxLength: 5000,
  /** Items in one Request Documents. */
  requestItemsMax: 10,
  /** Files in one answer to a document item ("two most recent pay stubs" may be two or more files). */
  filesPerItem: 5,
} as const;
