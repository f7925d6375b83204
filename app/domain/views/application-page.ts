import type { ApplicationEventKind, ConversationSide, RequestItemKind, RequestItemStatus } from "~/domain/conversation-enums";

/**
 * What the application pages (/dashboard/applications/:id and /admin/applications/:id) show about the
 * conversation around one application: its timeline, the lender's requests (What We Need) and the
 * messages. Types only: the server builds them, the components render them.
 */

/** One entry of the Application Timeline (newest first). `internal` entries reach staff only. */
export type TimelineEntry = {
  id: string;
  kind: ApplicationEventKind;
  /** "Submitted", "Documents Requested"... (APPLICATION_EVENT_LABELS). */
  title: string;
  /** A short line (what was requested, which document, the reason for a rejection); null when none. */
  summary: string | null;
  /** Who acted, as the viewer may see it: staff see names; applicants see "You" or "Private Loans". */
  actor: string | null;
  internal: boolean;
  /** ISO instant. */
  at: string;
};

/** A document uploaded in answer to a request item. */
export type RequestItemDocument = {
  id: string;
  fileName: string;
  fileSize: number;
  uploadedAt: string;
  /** Part of the item's current answer (false: an earlier answer, rejected). */
  current: boolean;
};

/** One item of What We Need. */
export type RequestItemView = {
  id: string;
  requestId: string;
  kind: RequestItemKind;
  /** "Pay Stub", "Question"... */
  kindLabel: string;
  note: string | null;
  /** 'yyyy-MM-dd'. */
  dueDate: string;
  status: RequestItemStatus;
  /** "Requested", "Received (In Review)", "Accepted", "Rejected". */
  statusLabel: string;
  replyText: string | null;
  rejectionReason: string | null;
  /** Answers uploaded for this item, newest first. */
  documents: RequestItemDocument[];
  /** Files in the current answer (a document item takes up to CONVERSATION_LIMITS.filesPerItem). */
  fileCount: number;
  createdAt: string;
  /** The due date has passed and the item is still open (requested or rejected). */
  overdue: boolean;
};

export type ConversationMessage = {
  id: string;
  side: ConversationSide;
  /** Staff see the writer's name; applicants see their own messages as "You" and staff as "Private Loans". */
  author: string;
  /** Plain text; rendered as text, never as HTML. */
  body: string;
  at: string;
  /** Written by the person viewing the page. */
  mine: boolean;
};

export type ConversationView = {
  messages: ConversationMessage[];
  /** Messages from the other side the viewer had not read before this page was loaded. */
  unread: number;
};
