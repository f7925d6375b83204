/**
 * Column and CHECK builders shared by the tables in schema.server.ts, so a rule that several tables
 * follow (how an instant, an amount or a stored enumeration is typed and checked) is written once.
 * The SQL they produce is exactly what the migrations in drizzle/ were generated from: after editing,
 * `npx drizzle-kit generate` must report no schema changes.
 */
import { getTableName, sql, type SQL } from "drizzle-orm";
import { bigint, check, customType, text, timestamp, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";

/** timestamptz read and written as a JS Date. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });
export const createdAt = () => timestamptz("created_at").notNull().defaultNow();
export const updatedAt = () =>
  timestamptz("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
/** created_at and updated_at, spread into a table where both belong (a function: each table gets its own builders). */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** An amount of money in integer cents (~/domain/money), read as a JS number: exact up to 2^53 cents. */
export const cents = (name: string) => bigint(name, { mode: "number" });

/** Binary data (bytea), read as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

export const uuidPk = () => uuid("id").primaryKey().default(sql`gen_random_uuid()`);
/** Better Auth generates its own text ids. */
export const textPk = () => text("id").primaryKey();

/** A literal SQL list for CHECK constraints: ('a', 'b') — values come from our own constants only. */
export function sqlList(values: readonly (string | number)[]): SQL {
  const items = values.map((v) => (typeof v === "number" ? String(v) : `'${v.replaceAll("'", "''")}'`));
  return sql.raw(`(${items.join(", ")})`);
}
/** A number written into the CHECK's text (a bound parameter is not allowed in DDL). */
export const lit = (n: number): SQL => sql.raw(String(n));

/** A CHECK on one column, named the way PostgreSQL names it: <table>_<column>_check. */
export function columnCheck(column: AnyPgColumn, condition: SQL) {
  return check(`${getTableName(column.table)}_${column.name}_check`, condition);
}

/** The condition, or null on an optional column (absent values are not checked). */
export function whenPresent(column: AnyPgColumn, condition: SQL): SQL {
  return column.notNull ? condition : sql`${column} is null or ${condition}`;
}

/** An enumeration stored as text: the column holds one of the values (the lists in app/domain/enums.ts). */
export const oneOf = (column: AnyPgColumn, values: readonly (string | number)[]) =>
  columnCheck(column, sql`${column} in ${sqlList(values)}`);

export const nonNegative = (column: AnyPgColumn) => columnCheck(column, whenPresent(column, sql`${column} >= 0`));

/** The text matches a regular expression (fixed digit counts, upper-case codes). */
export const matches = (column: AnyPgColumn, pattern: string) =>
  columnCheck(column, whenPresent(column, sql`${column} ~ ${sql.raw(`'${pattern}'`)}`));

/** US phone (10 digits, no punctuation), state code and ZIP code, as profiles and applications store them. */
export function usContactChecks(t: { phone: AnyPgColumn; state: AnyPgColumn; zipCode: AnyPgColumn }) {
  return [matches(t.phone, "^[0-9]{10}$"), matches(t.state, "^[A-Z]{2}$"), matches(t.zipCode, "^[0-9]{5}$")];
}
