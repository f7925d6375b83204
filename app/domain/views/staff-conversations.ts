/**
 * What /admin/conversations ("Application Messages") shows, as plain data: the applications that have
 * a conversation, those with applicant messages this staff member has not read first, each with its
 * latest message. Instants as ISO strings.
 */

export type StaffConversationRow = {
  applicationId: string;
  applicantName: string;
  loanType: string;
  status: string;
  /** Applicant messages this staff member has not read. */
  unread: number;
  latest: { side: "applicant" | "staff"; body: string; at: string };
};

export type StaffConversationList = {
  page: number;
  pageCount: number;
  total: number;
  rows: StaffConversationRow[];
};

/** How much of the latest message the list shows (the thread has the rest). */
export const CONVERSATION_EXCERPT_LENGTH = 160;
