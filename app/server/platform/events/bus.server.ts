import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { z } from "zod";
import type { Database } from "~/server/platform/db/client.server";

/**
 * Live updates across server instances: database triggers NOTIFY 'portal_changes' (migration 0002);
 * every instance LISTENs here and hands each event to its local subscribers (the event streams),
 * which decide who may see it. On PGlite the listener is the embedded database's own; on PostgreSQL
 * a dedicated connection that reconnects by itself and then announces a resync, so streams can tell
 * browsers to refresh whatever they might have missed.
 */

export const CHANNEL = "portal_changes";

const changeSchema = z.object({
  t: z.enum(["loan_applications", "approved_loans", "bank_accounts", "loan_documents", "session", "application_events", "request_items", "application_messages"]),
  op: z.enum(["INSERT", "UPDATE", "DELETE"]),
  id: z.string(),
  owner: z.string(),
  status: z.string().optional(),
  /** The application the row belongs to (migration 0006), when it belongs to one. */
  app: z.string().optional(),
});

export type ChangeEvent = z.infer<typeof changeSchema>;
export type BusMessage = { kind: "change"; event: ChangeEvent } | { kind: "resync" };
type Listener = (message: BusMessage) => void;

const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000];

export class EventBus {
  private listeners = new Set<Listener>();
  private stopListening: (() => Promise<void>) | undefined;
  private client: pg.Client | undefined;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | undefined;

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  private emit(message: BusMessage): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch (error) {
        console.error("[events] a subscriber failed:", (error as Error).message);
      }
    }
  }

  private onPayload = (payload: string): void => {
    try {
      const parsed = changeSchema.safeParse(JSON.parse(payload));
      if (parsed.success) this.emit({ kind: "change", event: parsed.data });
    } catch {
      /* not ours */
    }
  };

  async start(database: Database, connectionString?: string): Promise<void> {
    this.stopped = false;
    if (database.kind === "pglite") {
      const unsubscribe = await (database.pglite as PGlite).listen(CHANNEL, this.onPayload);
      this.stopListening = () => unsubscribe();
      return;
    }
    if (!connectionString) throw new Error("The event bus needs the PostgreSQL connection string");
    await this.connect(connectionString, 0);
  }

  private async connect(connectionString: string, attempt: number): Promise<void> {
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000, keepAlive: true });
    const retry = () => {
      if (this.stopped || this.client !== client) return;
      this.client = undefined;
      void forget(client);
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
      console.error(`[events] LISTEN connection lost; reconnecting in ${delay} ms`);
      this.reconnectTimer = setTimeout(() => {
        this.connect(connectionString, attempt + 1).catch(() => undefined);
      }, delay);
    };
    this.client = client;
    client.on("error", retry);
    client.on("end", retry);
    client.on("notification", (msg) => {
      if (msg.channel === CHANNEL && msg.payload) this.onPayload(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      if (attempt === 0 && !this.stopped) {
        // The first connection at start-up must work; later ones keep retrying.
        this.client = undefined;
        await forget(client);
        throw error;
      }
      retry();
      return;
    }
    this.stopListening = async () => {
      await forget(client);
    };
    // Whatever happened while we were not listening, streams must refresh.
    if (attempt > 0) this.emit({ kind: "resync" });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const stop = this.stopListening;
    this.stopListening = undefined;
    this.client = undefined;
    await stop?.();
  }
}

/**
 * Lets go of a LISTEN client: its listeners are removed and it is ended, but it keeps a handler for
 * 'error', because a dying connection can still emit one (pg's "Connection terminated unexpectedly"
 * after the server went away), and an 'error' event with no listener ends the process (seen in CI when
 * PostgreSQL restarted under load).
 */
function forget(client: pg.Client): Promise<void> {
  client.removeAllListeners();
  client.on("error", () => undefined);
  return client.end().catch(() => undefined);
}

let bus: EventBus | undefined;

export function getEventBus(): EventBus {
  bus ??= new EventBus();
  return bus;
}

export function setEventBus(value: EventBus | undefined): void {
  bus = value;
}
