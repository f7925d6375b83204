import { loadConfig, setConfig } from "~/server/platform/config.server";
import { openDatabase } from "~/server/platform/db/client.server";
import { runMigrations } from "~/server/platform/db/migrate.server";
import { loadSanctionsLists, screenApplicant, screenPerson } from "~/server/sanctions/index.server";
import { loanApplications } from "~/server/platform/db/schema.server";
import { applicationRow } from "../tests/helpers/application-rows";
import { seedApplicant } from "../tests/helpers/seed";
import { DEFAULT_SANCTIONS_MATCH_THRESHOLD } from "~/domain/sanctions";
import { generator } from "../tests/helpers/seeded-random";
import { percentile, type BenchResult } from "./lib";

/**
 * Screening one name against a 20,000-entry list (about the SDN list's size, with aliases), through
 * screenPerson on an embedded database: the goal is under 20 ms a name, so submission stays fast.
 * The list is made in OFAC's CSV layout and loaded with the loader; half the names screened are
 * misspelt list names (potential matches), half are not on the list.
 */

const ENTRIES = 20_000;
const SCREENINGS = 400;
/** Screenings recorded on an application (screenApplicant: the screening, its row and its match rows). */
const RECORDED = 100;
const GOAL_MS = 20;

const SYLLABLES = ["al", "an", "ar", "ba", "da", "el", "fa", "ha", "ib", "ka", "ko", "la", "ma", "mo", "na", "ni", "ov", "ra", "ri", "sa", "se", "ta", "to", "us", "va", "ya", "za", "ed", "in", "ch"];

function makeList(seed: number) {
  const random = generator(seed);
  const word = () => Array.from({ length: random.int(2, 4) }, () => random.pick(SYLLABLES)).join("");
  const upper = (s: string) => s.toUpperCase();
  const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);
  const q = (s: string) => `"${s}"`;
  const E = q("-0- ");
  const names: string[] = [];
  const sdn: string[] = [];
  const alt: string[] = [];
  let altNumber = 1;
  for (let n = 1; n <= ENTRIES; n++) {
    const individual = random.next() < 0.6;
    const name = individual ? `${upper(word())}, ${cap(word())} ${cap(word())}` : `${upper(word())} ${upper(word())} TRADING ${random.pick(["LLC", "CO.", "LTD"])}`;
    names.push(name);
    const remarks = individual ? q(`DOB ${random.int(1, 28)} Mar ${random.int(1940, 2000)}; nationality Examplestan.`) : E;
    sdn.push([String(n), q(name), individual ? q("individual") : E, q("SDGT"), E, E, E, E, E, E, E, remarks].join(","));
    const aliases = random.next() < 0.6 ? random.int(1, 3) : 0;
    for (let a = 0; a < aliases; a++) alt.push([String(n), String(altNumber++), q("aka"), q(individual ? `${upper(word())}, ${cap(word())}` : `${upper(word())} ${upper(word())}`), E].join(","));
  }
  const file = (rows: string[]) => `${rows.join("\r\n")}\r\n\u001a\r\n`;
  return { names, aliasCount: alt.length, files: [{ name: "sdn.csv", content: file(sdn) }, { name: "add.csv", content: file([]) }, { name: "alt.csv", content: file(alt) }] };
}

/** A list name as an applicant might write it: words in another order, one letter changed. */
function misspelt(name: string, random: ReturnType<typeof generator>): string {
  const words = name.replace(",", "").split(" ").reverse();
  const w = random.int(0, words.length - 1);
  const word = words[w]!;
  const at = random.int(1, word.length - 1);
  words[w] = `${word.slice(0, at)}${random.pick(["e", "i", "o"])}${word.slice(at + 1)}`;
  return words.join(" ");
}

export async function sanctionsBench(): Promise<BenchResult> {
  const database = await openDatabase({ memory: true });
  try {
    await runMigrations(database);
    const list = makeList(20_261_206);
    const loadStarted = performance.now();
    await loadSanctionsLists(database.db, list.files, "2026-12-01");
    const loadMs = performance.now() - loadStarted;

    const random = generator(7);
    const people = Array.from({ length: SCREENINGS }, (_, i) =>
      i % 2 === 0 ? misspelt(random.pick(list.names), random) : `${random.pick(["Jane", "John", "Maria", "Wei", "Priya"])} ${random.pick(["Doe", "Smith", "Garcia", "Chen", "Patel"])}${i}`,
    );
    const threshold = DEFAULT_SANCTIONS_MATCH_THRESHOLD;
    const firstStarted = performance.now();
    await screenPerson({ name: "Jane Doe" }, database.db, { threshold });
    const firstMs = performance.now() - firstStarted;

    const times: number[] = [];
    let flagged = 0;
    for (const [i, name] of people.entries()) {
      const started = performance.now();
      const result = await screenPerson({ name, dateOfBirth: "1970-03-01" }, database.db, { threshold });
      times.push(performance.now() - started);
      if (i % 2 === 0 && result.matches.length > 0) flagged++;
    }
    times.sort((a, b) => a - b);

    // What submission pays: the screening and its rows, in a transaction of its own.
    // screenApplicant reads the threshold from the configuration (the default one here).
    setConfig(loadConfig({ PWNED_PASSWORDS_URL: "off" }));
    const owner = await seedApplicant(database.db, { id: "bench-applicant" });
    const [application] = await database.db.insert(loanApplications).values(applicationRow(owner.id)).returning({ id: loanApplications.id });
    const recorded: number[] = [];
    for (let i = 0; i < RECORDED; i++) {
      const started = performance.now();
      await screenApplicant(database.db, { applicationId: application!.id, name: people[i]!, dateOfBirth: "1970-03-01", country: "United States" }, "submission");
      recorded.push(performance.now() - started);
    }
    recorded.sort((a, b) => a - b);
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return {
      bench: "sanctions screening of one name against a 20,000-entry list",
      params: { entries: ENTRIES, aliases: list.aliasCount, screenings: SCREENINGS, threshold, database: "embedded (in memory)" },
      figures: [
        { name: "screening, median", value: round(percentile(times, 50)), unit: "ms", note: `goal < ${GOAL_MS} ms a name` },
        { name: "screening, p95", value: round(percentile(times, 95)), unit: "ms", note: `goal < ${GOAL_MS} ms a name` },
        { name: "screening, slowest", value: round(times.at(-1)!), unit: "ms" },
        { name: "screening recorded on an application (screenApplicant), median", value: round(percentile(recorded, 50)), unit: "ms", note: `goal < ${GOAL_MS} ms a name` },
        { name: "screening recorded on an application (screenApplicant), p95", value: round(percentile(recorded, 95)), unit: "ms" },
        { name: "first screening after a load (reads and indexes the list)", value: round(firstMs), unit: "ms", note: "once per list load and instance" },
        { name: "list load (parse, check, store)", value: Math.round(loadMs), unit: "ms" },
        { name: "misspelt list names flagged", value: flagged, unit: `of ${SCREENINGS / 2}` },
      ],
    };
  } finally {
    await database.close();
  }
}
