// Browser suites that run alone, after the others: they kill or restart processes, measure time or
// fill a server to a limit, so a second suite sharing the two cores would change what they measure.
export const serialE2eFiles = [
  "tests/e2e/fault-postgres-restart.e2e.test.ts",
  "tests/e2e/fault-sigkill.e2e.test.ts",
  "tests/e2e/fault-smtp-down.e2e.test.ts",
  "tests/e2e/live-stream-capacity.e2e.test.ts",
  "tests/e2e/multi-instance.e2e.test.ts",
  "tests/e2e/cluster.e2e.test.ts",
  "tests/e2e/page-weight.e2e.test.ts",
  "tests/e2e/scripts-after-paint.e2e.test.ts",
  "tests/e2e/public-page-cache.e2e.test.ts",
];
