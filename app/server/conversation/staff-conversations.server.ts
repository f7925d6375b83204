import { sql } from "drizzle-orm";
import { CONVERSATION_EXCERPT_LENGTH, type StaffConversationList, type StaffConversationRow } from "~/domain/views/staff-conversations";
import { pageWindow } from "~/server/platform/db/paging.server";
import { writeAudit, type Caller } from "~/server/platform/audit/audit.server";
import { getDb, type Db } from "~/server/platform/db/client.server";

export const CONVERSATIONS_PAGE_SIZE = 25;

/**
 * Application Messages (/admin/conversations): every application with a conversation, those holding
 * applicant messages this staff member has not read first, then by latest message, newest first;
 * each with its latest message (one index probe per row on application_messages' (application_id,
 * created_at) index). Unread is counted as the header's badge counts it (decision 0048): the
 * applicant's messages in conversation_counts less this reader's seen mark. Audited
 * ('conversations.list'), as every staff list read is.
 */
export async function listStaffConversations(page: number, { actor, request }: Caller, db: Db = getDb()): Promise<StaffConversationList> {
  const counted = (await db.execute(sql`select count(*)::int as "n" from "conversation_counts" where "applicant_messages" + "staff_messages" > 0`)) as unknown as { rows: { n: number }[] };
  const total = Number(counted.rows[0]?.n ?? 0);
  const shown = pageWindow(total, page, CONVERSATIONS_PAGE_SIZE);
  const result = (await db.execute(sql`
    select c."application_id" as "applicationId",
           coalesce(nullif(trim(p."full_name"), ''), a."first_name" || ' ' || a."last_name") as "applicantName",
           a."loan_type" as "loanType",
           a."status" as "status",
           greatest(c."applicant_messages" - coalesce(r."seen_applicant", 0), 0)::int as "unread",
           m."author_side" as "side",
           left(m."body", ${CONVERSATION_EXCERPT_LENGTH + 1}) as "body",
           m."created_at" as "at"
      from "conversation_counts" c
      join "loan_applications" a on a."id" = c."application_id"
      left join "profiles" p on p."id" = a."user_id"
      left join "conversation_reads" r on r."application_id" = c."application_id" and r."reader_id" = ${actor.id}
      cross join lateral (
        select "author_side", "body", "created_at" from "application_messages"
         where "application_id" = c."application_id"
         order by "created_at" desc, "id" desc limit 1
      ) m
     where c."applicant_messages" + c."staff_messages" > 0
     order by (c."applicant_messages" - coalesce(r."seen_applicant", 0) > 0) desc, m."created_at" desc, c."application_id"
     limit ${shown.limit} offset ${shown.offset}`)) as unknown as {
    rows: { applicationId: string; applicantName: string; loanType: string; status: string; unread: number; side: "applicant" | "staff"; body: string; at: Date | string }[];
  };
  const rows = result.rows.map(
    (r): StaffConversationRow => ({
      applicationId: r.applicationId,
      applicantName: r.applicantName,
      loanType: r.loanType,
      status: r.status,
      unread: Number(r.unread),
      latest: {
        side: r.side,
        body: r.body.length > CONVERSATION_EXCERPT_LENGTH ? `${r.body.slice(0, CONVERSATION_EXCERPT_LENGTH).trimEnd()}…` : r.body,
        at: new Date(r.at).toISOString(),
      },
    }),
  );
  await writeAudit(db, { actor, action: "conversations.list", table: "application_messages", details: { page: shown.page, count: rows.length, total }, request });
  return { page: shown.page, pageCount: shown.pageCount, total, rows };
}
