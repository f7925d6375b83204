import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Decision 0052: what a signed-in page evaluates while it starts is one long task on a phone
 * (Lighthouse's total blocking time). Building Zod and the forms' schemas was a third of it on the
 * application page and /account, so those pages load their schemas after hydration (dynamic import).
 * This walks the static imports the browser follows from a route module (type-only imports, dynamic
 * imports and *.server modules, which React Router keeps out of the client, are not followed).
 */
const root = path.resolve(import.meta.dirname, "../..");

function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/") ? path.join(root, "app", specifier.slice(2)) : specifier.startsWith(".") ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

/** Every package and app module reached through static, non-type imports from `entry`. */
function startUpGraph(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const queue = [path.join(root, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    const source = fs.readFileSync(file, "utf8");
    // `import x from "y"`, `import { a } from "y"`, `export { a } from "y"`, `import "y"`: not `import type`.
    const statements = source.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^;]*?\sfrom\s+)?["']([^"']+)["']/gms);
    for (const [, specifier] of statements) {
      if (!specifier || /\.server(\.tsx?)?$/.test(specifier) || specifier.includes("/server/")) continue;
      const target = resolve(file, specifier);
      if (target) queue.push(target);
      else packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!);
    }
  }
  return { modules, packages };
}

describe("what the application page and /account evaluate while they start (decision 0052)", () => {
  for (const route of ["app/routes/dashboard/application.tsx", "app/routes/account/account.tsx"]) {
    it(`${route} reaches no Zod and no schema module statically`, () => {
      const { modules, packages } = startUpGraph(route);
      expect(modules.size).toBeGreaterThan(20);
      expect([...packages]).not.toContain("zod");
      const schemaModules = [...modules].map((m) => path.relative(root, m)).filter((m) => m.startsWith("app/domain/validation/") && fs.readFileSync(path.join(root, m), "utf8").includes('from "./zod"'));
      expect(schemaModules).toEqual([]);
    });
  }

  it("the walk does find Zod where a page builds schemas at start-up (the wizard)", () => {
    expect([...startUpGraph("app/routes/apply/apply.tsx").packages]).toContain("zod");
  });
});
