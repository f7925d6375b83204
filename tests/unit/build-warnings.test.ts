import { afterEach, describe, expect, it, vi } from "vitest";

describe("the build's warning filter", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("drops exactly @react-router/dev's envFile deprecation and lets every other warning through", async () => {
    const seen: unknown[][] = [];
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void seen.push(args));
    // @ts-expect-error -- a side-effect module without types, run here as the build runs it
    await import("../../scripts/build-warnings.mjs");
    // Vite colours it when printing to a terminal.
    console.warn("\u001b[33mThe `envFile` option is deprecated, please use `envDir: false` instead.\u001b[39m");
    console.warn("The `envFile` option is deprecated, please use `envDir: false` instead.");
    console.warn("The `envDir` option is invalid");
    console.warn("[INEFFECTIVE_DYNAMIC_IMPORT] app/x.ts is dynamically imported");
    expect(seen).toEqual([["The `envDir` option is invalid"], ["[INEFFECTIVE_DYNAMIC_IMPORT] app/x.ts is dynamically imported"]]);
  });
});
