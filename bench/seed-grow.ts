import type pg from "pg";
import type { ApplicationStatus } from "~/domain/enums";
import type { Database } from "~/server/platform/db/client.server";
import type { ScaleSeedResult } from "./seed-scale";

/**
 * The fast path to a million applications (issue 24, decision 0045). seedScale builds a template in
 * JavaScript with the submission's own row builders (every column they fill, encrypted SSN and bank
 * numbers included); growScale then multiplies it inside PostgreSQL: INSERT … SELECT over
 * generate_series, new ids from gen_random_uuid(), owners spread over the applicants, dates spread over
 * two years, statuses in the template's mix. Column lists come from information_schema, so a column
 * another change adds to these tables is carried over from the template without touching this file.
 *
 * Beside the copies it writes what seedScale does not: staff assignments (My Queue), a conversation
 * on three applications in ten, monthly payments on every loan, the timeline's first event, and ten
 * audit rows per application, sealed into the audit log's hash chain in SQL (the seal trigger accepts
 * rows that arrive with their hashes, as from a backup), so `npm run audit:verify` passes afterwards.
 *
 * A bulk load on a scratch database only: it runs with session_replication_role = replica (triggers
 * and foreign-key checks off for this session — the rows are consistent by construction) and then
 * rebuilds the derived data those triggers keep: every kept count (portal_rebuild_counts, drizzle/0013),
 * and the reports page's complete_since and report_rollups (portal_rebuild_reports, decision 0049).
 */

export type GrowOptions = {
  /** Applications wanted in total (nothing is removed when there are more). */
  applications: number;
  /** Applicants wanted in total; default one per five applications (200,000 at a million). */
  applicants?: number;
  /** Audit rows written per new application (10 million at a million). */
  auditPerApplication?: number;
};

export type GrowResult = {
  applications: number;
  applicants: number;
  byStatus: Record<ApplicationStatus, number>;
  rows: Record<string, number>;
  seconds: number;
};

const EMAIL_INDEX = `substring(email from '^applicant([0-9]+)@bench[.]example[.]com$')::int`;

type Column = { name: string; type: string };

async function columnsOf(client: pg.PoolClient, table: string): Promise<Column[]> {
  const { rows } = await client.query<{ column_name: string; data_type: string }>(
    `select column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = $1 and is_generated = 'NEVER'
      order by ordinal_position`,
    [table],
  );
  return rows.map((r) => ({ name: r.column_name, type: r.data_type }));
}

/**
 * INSERT INTO table (every column) SELECT … FROM `from`: a column named in `set` gets that
 * expression; with `shift`, times move by na.delta (the copy's submission minus the template's),
 * never past now (an empty time stays empty), and dates with them (a birth date is not a date that moves); the rest is the
 * template row's value (alias src).
 */
async function copyRows(client: pg.PoolClient, table: string, from: string, set: Record<string, string>, shift: boolean): Promise<number> {
  const columns = await columnsOf(client, table);
  const value = ({ name, type }: Column) => {
    if (name in set) return set[name]!;
    // least() skips nulls: without the null test an empty time (withdrawn_at, reviewed_at) would become now().
    if (shift && type === "timestamp with time zone") return `case when src."${name}" is null then null else least(src."${name}" + na.delta, now()) end`;
    if (shift && type === "date" && name !== "date_of_birth") return `(src."${name}" + na.delta)::date`;
    return `src."${name}"`;
  };
  const result = await client.query(`insert into "${table}" (${columns.map((c) => `"${c.name}"`).join(", ")}) select ${columns.map(value).join(", ")} from ${from}`);
  return result.rowCount ?? 0;
}

const newId = `replace(gen_random_uuid()::text, '-', '')`;

/** Applicants n = from … to-1, each a copy of template applicant n mod (template size). */
async function growApplicants(client: pg.PoolClient, templateIds: string[], from: number, to: number): Promise<number> {
  await client.query(`create temp table tpl_user on commit drop as select (n - 1)::int as idx, id from unnest($1::text[]) with ordinality as t(id, n)`, [templateIds]);
  await client.query(
    `create temp table new_user on commit drop as
       select n, ${newId} as id, t.id as tpl_id, 'applicant' || n || '@bench.example.com' as email
       from generate_series($1::int, $2::int - 1) n join tpl_user t on t.idx = n % $3`,
    [from, to, templateIds.length],
  );
  const join = `new_user nu join "user" src on src.id = nu.tpl_id`;
  await copyRows(client, "user", join, { id: "nu.id", email: "nu.email" }, false);
  await copyRows(client, "profiles", `new_user nu join profiles src on src.id = nu.tpl_id`, { id: "nu.id", email: "nu.email" }, false);
  await copyRows(client, "account", `new_user nu join account src on src.user_id = nu.tpl_id and src.provider_id = 'credential'`, { id: newId, account_id: "nu.id", user_id: "nu.id" }, false);
  // One old session each (the template's, most long expired): the token lookup must not care.
  await copyRows(
    client,
    "session",
    `new_user nu join lateral (select * from session s where s.user_id = nu.tpl_id order by s.created_at limit 1) src on true`,
    { id: newId, token: `${newId} || ${newId}`, user_id: "nu.id" },
    false,
  );
  return to - from;
}

/** Applications m = from … to-1, each a copy of template application m mod T with its bank account, documents and loan. */
async function growApplications(client: pg.PoolClient, from: number, to: number, applicants: { first: number; count: number; total: number }): Promise<Record<string, number>> {
  await client.query(
    `create temp table tpl_app on commit drop as
       select (row_number() over (order by idempotency_key) - 1)::int as idx, id, submitted_at
       from loan_applications where idempotency_key like 'seed-%'`,
  );
  await client.query(`create temp table all_user on commit drop as select ${EMAIL_INDEX} as idx, id, email, name from "user" where email like 'applicant%@bench.example.com'`);
  await client.query(`create unique index on all_user (idx)`);
  await client.query(`analyze tpl_app; analyze all_user`);
  const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from tpl_app`);
  const templateSize = rows[0]!.n;
  const { first: firstNewApplicant, count: newApplicants, total: totalApplicants } = applicants;
  if (!templateSize) throw new Error("growScale needs seedScale's applications as its template");
  // Every new applicant applies once; the rest go to repeat borrowers among the new applicants (skewed
  // as seedScale does). Within the new cohort, so an earlier applicant's dashboard is the same page at
  // every size: what grows is the tables, not the pages. More applications recently (a growing lender).
  await client.query(
    `create temp table new_app on commit drop as
       with g as (
         select m, (m - $1) < $3 as first_of_owner,
                case when (m - $1) < $3 then $6 + (m - $1) when $3 > 0 then $6 + floor($3 * power(random(), 1.3))::int else floor($4 * power(random(), 1.3))::int end as owner_idx,
                now() - interval '730 days' * power(random(), 1.4) - interval '1 day' * random() as submitted_at
         from generate_series($1::int, $2::int - 1) m
       )
       select g.m, gen_random_uuid() as id, t.id as tpl_id, u.id as owner_id, u.email as owner_email, u.name as owner_name,
              g.first_of_owner, g.submitted_at, g.submitted_at - t.submitted_at as delta
       from g join tpl_app t on t.idx = g.m % $5 join all_user u on u.idx = g.owner_idx`,
    [from, to, newApplicants, totalApplicants, templateSize, firstNewApplicant],
  );
  await client.query(`create index on new_app (tpl_id); analyze new_app`);
  const counts: Record<string, number> = {};
  const join = (table: string, key = "application_id") => `new_app na join "${table}" src on src."${key}" = na.tpl_id`;
  counts.loan_applications = await copyRows(
    client,
    "loan_applications",
    join("loan_applications", "id"),
    {
      id: "na.id",
      user_id: "na.owner_id",
      first_name: "split_part(na.owner_name, ' ', 1)",
      last_name: "split_part(na.owner_name, ' ', 2)",
      email: "na.owner_email",
      idempotency_key: "'grow-' || na.m",
      // Queues are dealt afresh (decorate), not copied from the template.
      assigned_to: "null",
      assigned_at: "null",
    },
    true,
  );
  counts.bank_accounts = await copyRows(
    client,
    "bank_accounts",
    join("bank_accounts"),
    { id: "gen_random_uuid()", user_id: "na.owner_id", application_id: "na.id", account_holder_name: "na.owner_name", is_primary: "na.first_of_owner" },
    true,
  );
  counts.loan_documents = await copyRows(
    client,
    "loan_documents",
    `${join("loan_documents")} and src.request_item_id is null`,
    { id: "gen_random_uuid()", user_id: "na.owner_id", application_id: "na.id", file_path: `na.owner_id || '/' || na.id || '/' || split_part(src.file_path, '/', 3)` },
    true,
  );
  counts.approved_loans = await copyRows(client, "approved_loans", join("approved_loans"), { id: "gen_random_uuid()", user_id: "na.owner_id", application_id: "na.id", offer_id: "null" }, true);
  return counts;
}

/**
 * What happens to applications after submission, for those in fresh_app: the timeline's submission
 * event, assignment history, a conversation on 3 in 10, the loans' monthly payments and the audit rows.
 */
async function decorate(client: pg.PoolClient, auditPerApplication: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const run = async (name: string, text: string, values: unknown[] = []) => {
    counts[name] = (counts[name] ?? 0) + ((await client.query(text, values)).rowCount ?? 0);
  };
  await client.query(`create temp table staff on commit drop as
    select (row_number() over (order by u.email) - 1)::int as idx, u.id, u.name, u.email
    from "user" u join user_roles r on r.user_id = u.id`);
  const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from staff`);
  const staffCount = rows[0]!.n;
  await run("application_events", `insert into application_events (application_id, user_id, kind, actor_id, actor_side, summary, internal, created_at)
    select a.id, a.user_id, 'submitted', a.user_id, 'applicant', 'Application submitted', false, a.submitted_at
    from fresh_app f join loan_applications a on a.id = f.id`);
  if (staffCount) {
    // Half the open applications are in an officer's queue (My Queue), spread over the staff.
    await run("assigned", `update loan_applications a set assigned_to = s.id, assigned_at = a.submitted_at + interval '1 hour'
      from fresh_app f, staff s
      where a.id = f.id and a.assigned_to is null and a.status in ('pending', 'under_review')
        and abs(hashtext(a.id::text)) % 2 = 0 and s.idx = abs(hashtext(a.id::text) / 2) % $1`, [staffCount]);
    await run("application_assignments", `insert into application_assignments (application_id, assigned_to, assigned_by, created_at)
      select a.id, a.assigned_to, a.assigned_to, a.assigned_at from fresh_app f join loan_applications a on a.id = f.id where a.assigned_to is not null`);
  }
  // A conversation on 3 applications in 10: 1 to 4 messages, the applicant and the lender in turn.
  await run("application_messages", `insert into application_messages (application_id, user_id, author_id, author_side, body, created_at)
    select a.id, a.user_id, case when k % 2 = 1 then a.user_id else coalesce(a.reviewed_by, a.assigned_to) end,
           case when k % 2 = 1 then 'applicant' else 'staff' end,
           case when k % 2 = 1 then 'Hello, I uploaded my latest bank statement. Is anything else needed for my application?'
                else 'Thank you, we received it. We will let you know as soon as the review is complete.' end,
           least(a.submitted_at + k * interval '5 hours', now())
    from fresh_app f join loan_applications a on a.id = f.id
    cross join lateral generate_series(1, 1 + abs(hashtext(a.id::text || 'm')) % 4) k
    where abs(hashtext(a.id::text)) % 10 < 3`);
  // Every installment due so far was paid (posted by staff, by ACH): the ledger replays them.
  await run("loan_payments", `insert into loan_payments (loan_id, user_id, amount_cents, status, method, source, reference, received_on, posted_at, created_at)
    select l.id, l.user_id, l.payment_cents, 'posted', 'ach', 'staff', 'seed-' || k, (l.start_date + k * interval '1 month')::date,
           l.start_date + k * interval '1 month', l.start_date + k * interval '1 month'
    from fresh_app f join approved_loans l on l.application_id = f.id
    cross join lateral generate_series(1, least(l.term_months, (extract(year from age(current_date, l.start_date)) * 12 + extract(month from age(current_date, l.start_date)))::int)) k`);
  if (staffCount && auditPerApplication > 0) counts.audit_log = await auditRows(client, auditPerApplication, staffCount);
  return counts;
}

const AUDIT_ACTIONS = ["application.view", "applications.list", "application.view", "ssn.reveal", "application.note", "application.view", "document.list", "application.start_review", "loan.view", "client.view"];

/**
 * `perApplication` audit rows for each application in fresh_app, chained after the last sealed row:
 * SHA-256 over the app's own audit_log_canonical text, prev_hash the row before, in chain_seq order
 * (a running aggregate over a window computes the chain in one pass).
 */
async function auditRows(client: pg.PoolClient, perApplication: number, staffCount: number): Promise<number> {
  await client.query(`create temp table audit_stage (like audit_log) on commit drop`);
  const { rows: last } = await client.query<{ id: string; seq: string; hash: string | null }>(
    `select coalesce((select max(id) from audit_log), 0)::text as id,
            coalesce((select max(chain_seq) from audit_log), 0)::text as seq,
            (select row_hash from audit_log where chain_seq is not null order by chain_seq desc limit 1) as hash`,
  );
  const { id: lastId, seq: lastSeq, hash: lastHash } = last[0]!;
  await client.query(
    `insert into audit_stage (id, actor_id, actor_name, actor_email, action, table_name, record_id, details, ip_address, user_agent, created_at, chain_seq)
     select $1::bigint + n, actor_id, actor_name, actor_email, action, 'loan_applications', record_id, details, ip_address, user_agent, created_at, $2::bigint + n
     from (
       select row_number() over (order by t) as n, s.id as actor_id, s.name as actor_name, s.email as actor_email,
              ($3::text[])[1 + (k - 1) % ${AUDIT_ACTIONS.length}] as action, a.id::text as record_id,
              jsonb_build_object('applicationId', a.id) as details, '198.51.100.' || (1 + abs(hashtext(a.id::text)) % 200) as ip_address,
              'Mozilla/5.0 (X11; Linux x86_64) seeded' as user_agent, t as created_at
       from fresh_app f join loan_applications a on a.id = f.id
       cross join lateral generate_series(1, $4::int) k
       cross join lateral (select least(a.submitted_at + k * interval '7 hours', now() - interval '1 second') as t) tt
       join staff s on s.idx = (abs(hashtext(a.id::text)) + k) % $5
     ) x`,
    [lastId, lastSeq, AUDIT_ACTIONS, perApplication, staffCount],
  );
  await client.query(`create or replace function pg_temp.audit_chain_step(state text, r audit_log, first_prev text) returns text language sql immutable as
    $$ select encode(sha256(convert_to(audit_log_canonical(r, r.chain_seq, case when state = '' then first_prev else state end), 'UTF8')), 'hex') $$`);
  await client.query(`drop aggregate if exists pg_temp.audit_chain(audit_log, text)`);
  await client.query(`create aggregate pg_temp.audit_chain(audit_log, text) (sfunc = pg_temp.audit_chain_step, stype = text, initcond = '')`);
  const result = await client.query(
    `insert into audit_log (id, actor_id, actor_name, actor_email, action, table_name, record_id, details, ip_address, user_agent, created_at, chain_seq, prev_hash, row_hash)
     overriding system value
     select id, actor_id, actor_name, actor_email, action, table_name, record_id, details, ip_address, user_agent, created_at, chain_seq,
            case when chain_seq = $1::bigint + 1 then $2 else lag(h) over (order by chain_seq) end, h
     from (select s.*, pg_temp.audit_chain(row(s.*)::audit_log, $2::text) over (order by s.chain_seq rows between unbounded preceding and current row) as h
           from audit_stage s) x`,
    [lastSeq, lastHash],
  );
  await client.query(`select setval(pg_get_serial_sequence('audit_log', 'id'), (select max(id) from audit_log))`);
  // The audit log's hourly rollups are rebuilt with every other kept count (portal_rebuild_counts).
  return result.rowCount ?? 0;
}

/**
 * Grows a database seedScale made (its applications are the template) to `options.applications`.
 * Called at the size seedScale made, it only adds what happens after submission to those.
 */
export async function growScale(database: Database, seeded: Pick<ScaleSeedResult, "applicants">, options: GrowOptions): Promise<GrowResult> {
  if (!database.pool) throw new Error("growScale runs on PostgreSQL (DATABASE_URL)");
  const started = performance.now();
  const auditPerApplication = options.auditPerApplication ?? 10;
  const client = await database.pool.connect();
  const rows: Record<string, number> = {};
  const add = (counts: Record<string, number>) => {
    for (const [name, n] of Object.entries(counts)) rows[name] = (rows[name] ?? 0) + n;
  };
  try {
    const count = async (text: string) => (await client.query<{ n: number }>(text)).rows[0]!.n;
    const haveApplications = await count(`select count(*)::int as n from loan_applications`);
    const haveApplicants = await count(`select count(*)::int as n from "user" where email like 'applicant%@bench.example.com'`);
    const wantApplicants = Math.max(haveApplicants, options.applicants ?? Math.round(options.applications / 5));
    const decorated = (await count(`select count(*)::int as n from application_events where summary = 'Application submitted'`)) > 0;

    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    await client.query("set local synchronous_commit = off");
    await client.query("set local work_mem = '256MB'");
    if (!decorated) {
      await client.query(`create temp table fresh_app on commit drop as select id from loan_applications`);
      add(await decorate(client, auditPerApplication));
      await client.query("commit");
      await client.query("begin");
      await client.query("set local session_replication_role = replica");
      await client.query("set local synchronous_commit = off");
      await client.query("set local work_mem = '256MB'");
    }
    if (options.applications > haveApplications) {
      const newApplicants = wantApplicants - haveApplicants;
      if (newApplicants > 0) rows.user = await growApplicants(client, seeded.applicants.map((a) => a.id), haveApplicants, wantApplicants);
      const applicants = { first: haveApplicants, count: Math.min(Math.max(0, newApplicants), options.applications - haveApplications), total: wantApplicants };
      add(await growApplications(client, haveApplications, options.applications, applicants));
      await client.query(`create temp table fresh_app on commit drop as select id from new_app`);
      add(await decorate(client, auditPerApplication));
    }
    // The derived data the (disabled) triggers keep: every kept count (tab counts, client total,
    // row_counts, the audit log's hourly rollups, conversation counts; drizzle/0013)...
    // And the reports page's (decision 0049): complete_since and report_rollups, rebuilt from the rows.
    await client.query(`select portal_rebuild_counts()`);
    await client.query(`select portal_rebuild_reports()`);
    // The pages are measured in the servicing job's steady state: today's run is done (decisions 0053,
    // 0056). Otherwise every server the bench starts begins today's run over every loan (at 1,000,000
    // applications 312,210 loans, all behind in this data), minutes of writes under the measured pages.
    await client.query(
      `update approved_loans set serviced_on = (now() at time zone 'UTC')::date
        where status in ('active', 'approved') and serviced_on is distinct from (now() at time zone 'UTC')::date`,
    );
    // Likewise the collections notices (decision 0098): each late loan's notice for the threshold it is
    // in was sent when it crossed it, as the hourly pass would have done. Otherwise the servers' first
    // pass sends them all (tens of thousands at 1,000,000, every loan being behind) under the pages.
    await client.query(
      `insert into servicing_notices (loan_id, kind, installment_number, sent_at)
       select l.id, w.kind,
              coalesce((extract(year from age(l.next_due_date, l.first_payment_due)) * 12 + extract(month from age(l.next_due_date, l.first_payment_due)))::int + 1, 1),
              now()
         from approved_loans l
         join (values ('collections_15', 15, 29), ('collections_30', 30, 59), ('collections_60', 60, 66)) as w(kind, from_days, through_days)
           on l.next_due_date between (now() at time zone 'UTC')::date - w.through_days and (now() at time zone 'UTC')::date - w.from_days
        where l.status = 'active'
       on conflict do nothing`,
    );
    await client.query("commit");
    // What autovacuum does some time after a bulk load: statistics and a visibility map.
    await client.query("vacuum analyze");
    const byStatus = Object.fromEntries(
      (await client.query<{ status: ApplicationStatus; applications: number }>(`select status, applications from application_status_counts`)).rows.map((r) => [r.status, r.applications]),
    ) as Record<ApplicationStatus, number>;
    return {
      applications: Math.max(haveApplications, options.applications),
      applicants: wantApplicants,
      byStatus,
      rows,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } catch (error) {
    await client.query("rollback").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
