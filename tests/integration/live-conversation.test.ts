import { eq } from "drizzle-orm";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { concernsApplication } from "~/components/application/use-application-live";
import type { LiveChange } from "~/components/live/use-live-updates";
import type { SessionUser } from "~/server/accounts/session.server";
import { recordEvent } from "~/server/conversation/timeline.server";
import { applicationMessages, loanApplications, requestItems } from "~/server/platform/db/schema.server";
import { EventBus, setEventBus, type BusMessage, type ChangeEvent } from "~/server/platform/events/bus.server";
import { closeAllStreams, createEventStream, entitled } from "~/server/platform/events/stream.server";
import { applicationRow } from "../helpers/application-rows";
import { useTestDatabase } from "../helpers/test-db";
import { seedUser } from "../helpers/seed";

/**
 * Live updates for the conversation around an application (issue 19): the triggers on the timeline,
 * request items and messages raise a change that names the application and its owner, only once the
 * transaction commits; the stream forwards it to the owner and to staff past the second factor
 * (never to another applicant), with the application's id and no text; and an open application page
 * reacts only to its own application's changes.
 */

const JANE = "live-jane";
const JOHN = "live-john";
const STAFF = "live-staff";
const MESSAGE = "Please upload the second page of the statement.";

describe("live updates of the conversation around an application", () => {
  const database = useTestDatabase({ global: true });
  const bus = new EventBus();
  const received: ChangeEvent[] = [];
  const applicationId = randomUUID();

  beforeAll(async () => {
    const db = database().db;
    for (const id of [JANE, JOHN, STAFF]) await seedUser(db, { id, name: id, email: `${id}@example.com` });
    await db.insert(loanApplications).values(applicationRow(JANE, { id: applicationId }));
    await bus.start(database(), database().url);
    setEventBus(bus);
    bus.subscribe((m: BusMessage) => {
      if (m.kind === "change") received.push(m.event);
    });
  });
  afterAll(async () => {
    closeAllStreams();
    setEventBus(undefined);
    await bus.stop();
  });

  async function changesAfter(act: () => Promise<unknown>, settle = (list: ChangeEvent[]) => list.length > 0, waitMs = 5000): Promise<ChangeEvent[]> {
    const start = received.length;
    await act();
    const deadline = Date.now() + waitMs;
    while (!settle(received.slice(start)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    // A moment more, so a change that should not be there has the chance to show up.
    await new Promise((r) => setTimeout(r, 100));
    return received.slice(start);
  }

  it("a request, a message and their timeline events committed together each name the application and its owner", async () => {
    const db = database().db;
    const changes = await changesAfter(
      () =>
        db.transaction(async (tx) => {
          await tx.insert(requestItems).values({ requestId: randomUUID(), applicationId, userId: JANE, kind: "bank_statement", dueDate: "2099-01-01", requestedBy: STAFF });
          await recordEvent(tx, { applicationId, ownerId: JANE, kind: "documents_requested", actorId: STAFF, actorSide: "staff", summary: "Bank Statement" });
          await tx.insert(applicationMessages).values({ applicationId, userId: JANE, authorId: STAFF, authorSide: "staff", body: MESSAGE });
          await recordEvent(tx, { applicationId, ownerId: JANE, kind: "message", actorId: STAFF, actorSide: "staff" });
        }),
      (list) => list.length >= 4,
    );
    const conversation = changes.filter((c) => c.t !== "loan_applications");
    expect(conversation.map((c) => c.t).sort()).toEqual(["application_events", "application_events", "application_messages", "request_items"]);
    for (const c of conversation) expect(c).toMatchObject({ op: "INSERT", owner: JANE, app: applicationId });
    expect(conversation.find((c) => c.t === "request_items")?.status).toBe("requested");
    // Only what to refresh travels: never the message's text or the request's summary.
    expect(JSON.stringify(changes)).not.toContain(MESSAGE.slice(0, 20));
    expect(JSON.stringify(changes)).not.toContain("Bank Statement");

    // To the owner and to staff past the second factor; never to another applicant or an admin without it.
    for (const c of conversation) {
      expect(entitled({ id: JANE, isStaff: false, mfaVerified: false }, c)).toBe(true);
      expect(entitled({ id: STAFF, isStaff: true, mfaVerified: true }, c)).toBe(true);
      expect(entitled({ id: JOHN, isStaff: false, mfaVerified: false }, c)).toBe(false);
      expect(entitled({ id: STAFF, isStaff: true, mfaVerified: false }, c)).toBe(false);
    }
  });

  it("a status change names its application too; a rolled-back change raises nothing", async () => {
    const db = database().db;
    const status = await changesAfter(() => db.update(loanApplications).set({ status: "under_review" }).where(eq(loanApplications.id, applicationId)));
    expect(status).toEqual([expect.objectContaining({ t: "loan_applications", id: applicationId, owner: JANE, status: "under_review", app: applicationId })]);

    const none = await changesAfter(() =>
      db
        .transaction(async (tx) => {
          await recordEvent(tx, { applicationId, ownerId: JANE, kind: "message", actorId: JANE, actorSide: "applicant" });
          throw new Error("rolled back");
        })
        .catch(() => undefined),
      undefined,
      1000,
    );
    expect(none).toEqual([]);
  });

  it("the browser's stream carries the application's id to the owner, and nothing of it to another applicant", async () => {
    const db = database().db;
    const session = (id: string): SessionUser => ({ id, name: id, email: `${id}@example.com`, isStaff: false, role: null, mfaVerified: false, sessionId: `s-${id}` });
    const controller = new AbortController();
    const read = async (res: Response) => {
      const reader = res.body!.getReader();
      let text = "";
      const deadline = Date.now() + 1500;
      while (Date.now() < deadline && !text.includes("event: change")) {
        const next = await Promise.race([reader.read(), new Promise<{ value?: undefined; done: true }>((r) => setTimeout(() => r({ done: true }), 500))]);
        if (next.value) text += new TextDecoder().decode(next.value);
      }
      await reader.cancel().catch(() => undefined);
      return text;
    };
    const janes = createEventStream(session(JANE), controller.signal);
    const johns = createEventStream(session(JOHN), controller.signal);
    await db.insert(applicationMessages).values({ applicationId, userId: JANE, authorId: JANE, authorSide: "applicant", body: "Uploaded it just now." });
    const [janeText, johnText] = await Promise.all([read(janes), read(johns)]);
    controller.abort();
    const data = janeText
      .split("\n\n")
      .filter((block) => block.includes("event: change"))
      .map((block) => JSON.parse(block.split("\ndata: ")[1]!) as LiveChange);
    expect(data).toEqual([expect.objectContaining({ table: "application_messages", op: "INSERT", owner: JANE, applicationId })]);
    expect(janeText).not.toContain("Uploaded it just now");
    expect(johnText).not.toContain("event: change");
  });
});

describe("an open application page", () => {
  const mine = randomUUID();
  const other = randomUUID();
  const change = (table: string, id: string, applicationId?: string): LiveChange => ({ table, op: "INSERT", id, owner: "someone", ...(applicationId ? { applicationId } : {}) });

  it("reloads for its own application's changes only", () => {
    expect(concernsApplication(change("loan_applications", mine), mine)).toBe(true);
    expect(concernsApplication(change("loan_applications", other), mine)).toBe(false);
    for (const table of ["application_events", "request_items", "application_messages", "loan_documents"]) {
      expect(concernsApplication(change(table, randomUUID(), mine), mine)).toBe(true);
      expect(concernsApplication(change(table, randomUUID(), other), mine)).toBe(false);
    }
    // A change that names no application (a bank account, an approved loan) is not this page's.
    expect(concernsApplication(change("approved_loans", randomUUID()), mine)).toBe(false);
  });
});
