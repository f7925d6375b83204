import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "~/server/platform/db/client.server";
import { TEST_DATABASE_URL } from "../helpers/test-db";

/**
 * How the portal's PostgreSQL connections are set up (decision 0054): just-in-time compilation is off
 * on every connection of the pool, so a statement the planner overestimates is not compiled on every
 * page view.
 */
describe.skipIf(!TEST_DATABASE_URL)("PostgreSQL connections", () => {
  let database: Database | undefined;
  afterAll(() => database?.close());

  it("have JIT off on every pooled connection, the server's default notwithstanding", async () => {
    database = await openDatabase({ databaseUrl: TEST_DATABASE_URL!, poolSize: 3 });
    const settings = await Promise.all(
      Array.from({ length: 3 }, () => database!.pool!.query<{ jit: string }>("select pg_sleep(0.05), current_setting('jit') as jit")),
    );
    expect(settings.map((r) => r.rows[0]!.jit)).toEqual(["off", "off", "off"]);
    const viaDrizzle = (await database.db.execute(sql`show jit`)) as unknown as { rows: { jit: string }[] };
    expect(viaDrizzle.rows[0]!.jit).toBe("off");
    const serverDefault = await database.pool!.query<{ boot_val: string }>("select boot_val from pg_settings where name = 'jit'");
    expect(serverDefault.rows[0]!.boot_val).toBe("on");
  });
});
