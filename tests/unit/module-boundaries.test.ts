import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The module boundaries of app/server (decision 0083) are ESLint rules: a reach into another module's
 * insides fails `npm run lint`. These cases lint snippets as if they lived at the given paths.
 */
const root = path.resolve(import.meta.dirname, "../..");
const modules = fs
  .readdirSync(path.join(root, "app/server"), { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== "platform")
  .map((e) => e.name);

let eslint: ESLint;
/** The ownership lists eslint.config.js builds its rules from. */
let TABLES: Record<string, string[]>;
let WHOLE_SCHEMA: Record<string, string>;
beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  ({ TABLES, WHOLE_SCHEMA } = (await import(pathToFileURL(path.join(root, "eslint.config.js")).href)) as { TABLES: typeof TABLES; WHOLE_SCHEMA: typeof WHOLE_SCHEMA });
});

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const use = (spec: string) => `import { x } from "${spec}";\nexport const y = x;\n`;

describe("module boundaries", () => {
  it("every module folder has a front door and a lint block (a new folder must be added to MODULES)", async () => {
    for (const module of modules) {
      expect(fs.existsSync(path.join(root, "app/server", module, "index.server.ts")), module).toBe(true);
      const other = modules.find((m) => m !== module)!;
      expect(await refusals(`app/server/${module}/probe.server.ts`, use(`~/server/${other}/internal.server`)), module).toHaveLength(1);
    }
  }, 60_000);

  it("a module may use platform/, its own files and other modules' front doors", async () => {
    const file = "app/server/offers/probe.server.ts";
    for (const spec of ["~/server/platform/db/client.server", "~/server/offers/offers.server", "./offers.server", "~/server/loans/index.server", "~/domain/formats", "../../domain/enums", "../platform/db/columns.server"]) {
      expect(await refusals(file, use(spec)), spec).toEqual([]);
    }
  }, 60_000);

  it("a module may not reach into another module's files, directly or by a relative path", async () => {
    const file = "app/server/offers/probe.server.ts";
    for (const spec of ["~/server/loans/payments.server", "~/server/applications/reviews.server", "../loans/payments.server", "../applications/index.server"]) {
      expect(await refusals(file, use(spec)), spec).toHaveLength(1);
    }
  }, 60_000);

  it("platform/ imports nothing from the modules, not even a front door", async () => {
    for (const spec of ["~/server/accounts/index.server", "~/server/accounts/session.server"]) {
      expect(await refusals("app/server/platform/events/probe.server.ts", use(spec)), spec).toHaveLength(1);
    }
    expect(await refusals("app/server/platform/events/probe.server.ts", use("~/server/platform/db/client.server"))).toEqual([]);
  }, 60_000);

  it("routes, the app shell and the server entry use front doors and platform/ only", async () => {
    for (const file of ["app/routes/admin/probe.tsx", "app/root.tsx", "server/probe.ts", "scripts/probe.ts"]) {
      expect(await refusals(file, use("~/server/loans/payments.server")), file).toHaveLength(1);
      expect(await refusals(file, use("~/server/loans/index.server")), file).toEqual([]);
      expect(await refusals(file, use("~/server/platform/http/origin.server")), file).toEqual([]);
    }
  }, 60_000);

  it("components still import no server module at all", async () => {
    expect(await refusals("app/components/probe.tsx", use("~/server/loans/index.server"))).toHaveLength(1);
  }, 60_000);

  it("every table of the schema has one owner", () => {
    const schema = fs.readFileSync(path.join(root, "app/server/platform/db/schema.server.ts"), "utf8");
    const tables = [...schema.matchAll(/^export const (\w+) = pgTable\(/gm)].map((m) => m[1]).sort();
    const owned = Object.values(TABLES).flat().sort();
    expect(owned).toEqual(tables);
  });

  it("only the owning module imports a table from the schema; retention/ and the auth adapter excepted", async () => {
    const schema = "~/server/platform/db/schema.server";
    expect(await refusals("app/server/offers/probe.server.ts", use(schema).replace("{ x }", "{ loanOffers as x }"))).toEqual([]);
    expect(await refusals("app/server/offers/probe.server.ts", use(schema).replace("{ x }", "{ loanApplications as x }"))).toHaveLength(1);
    expect(await refusals("app/server/platform/probe.server.ts", use(schema).replace("{ x }", "{ approvedLoans as x }"))).toHaveLength(1);
    expect(await refusals("app/server/retention/probe.server.ts", use(schema).replace("{ x }", "{ approvedLoans as x }"))).toEqual([]);
    // The one exception: Better Auth's adapter takes the schema as one object.
    expect(Object.keys(WHOLE_SCHEMA)).toEqual(["app/server/accounts/auth.server.ts"]);
  }, 60_000);
});
