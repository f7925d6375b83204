import path from "node:path";
import { isOneOf } from "~/domain/enums";
import { SANCTIONS_ALIAS_KINDS, type SanctionsAlias, type SanctionsEntityType, type SanctionsList } from "~/domain/sanctions";

/**
 * OFAC's legacy CSV files, as the Treasury publishes them for the SDN list (sdn.csv, add.csv,
 * alt.csv) and the Consolidated list (cons_prim.csv, cons_add.csv, cons_alt.csv): no header row,
 * one record a line, text fields in double quotes, numbers bare, "-0- " for an empty field, and a
 * last line holding only the end-of-file character (0x1A). Field order:
 *   sdn.csv / cons_prim.csv: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign, Vess_type,
 *                            Tonnage, GRT, Vess_flag, Vess_owner, Remarks
 *   add.csv / cons_add.csv:  ent_num, Add_num, Address, City/State/Province/Postal Code, Country, Add_remarks
 *   alt.csv / cons_alt.csv:  ent_num, alt_num, alt_type, alt_name, alt_remarks
 *   sdn_comments.csv / cons_comments.csv (optional): ent_num, Remarks_Extended (the rest of a long Remarks)
 * Dates of birth are only in Remarks ("DOB 01 Jan 1970; alt. DOB circa 1971; ..."), as are
 * nationality and citizenship. A file that does not follow this layout is refused whole, with its
 * name and the line, so a wrong file never replaces a list.
 */

export type OfacFileRole = "primary" | "addresses" | "aliases" | "comments";

/** The published file names, which say which list a file belongs to and what it holds. */
const FILE_ROLES: Record<string, { list: SanctionsList; role: OfacFileRole }> = {
  "sdn.csv": { list: "SDN", role: "primary" },
  "add.csv": { list: "SDN", role: "addresses" },
  "alt.csv": { list: "SDN", role: "aliases" },
  "cons_prim.csv": { list: "Consolidated", role: "primary" },
  "cons_add.csv": { list: "Consolidated", role: "addresses" },
  "cons_alt.csv": { list: "Consolidated", role: "aliases" },
  // Optional: the end of Remarks too long for the main file (ent_num, Remarks_Extended).
  "sdn_comments.csv": { list: "SDN", role: "comments" },
  "cons_comments.csv": { list: "Consolidated", role: "comments" },
};
export const OFAC_FILE_NAMES = Object.keys(FILE_ROLES);

const FIELD_COUNTS: Record<OfacFileRole, number> = { primary: 12, addresses: 6, aliases: 5, comments: 2 };
const REQUIRED_ROLES: readonly OfacFileRole[] = ["primary", "addresses", "aliases"];

export class SanctionsFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    problem: string,
  ) {
    super(line === undefined ? `${file}: ${problem}` : `${file}, line ${line}: ${problem}`);
    this.name = "SanctionsFileError";
  }
}

export type OfacEntry = {
  entityNumber: number;
  primaryName: string;
  entityType: SanctionsEntityType;
  programs: string[];
  aliases: SanctionsAlias[];
  datesOfBirth: string[];
  countries: string[];
};

export type ParsedList = { list: SanctionsList; fileNames: string[]; entries: OfacEntry[] };

export type OfacFile = { name: string; content: Buffer | string };

/** The bytes as text: UTF-8 when they are, else Windows-1252 (the list's older files). */
function decode(content: Buffer | string): string {
  if (typeof content === "string") return content;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(content);
  } catch {
    return new TextDecoder("windows-1252").decode(content);
  }
}

/** One line's fields: "quoted" (a doubled quote inside is a quote) or bare, comma-separated; null when malformed. */
export function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = "";
      i++;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close < 0) return null;
        value += line.slice(i, close);
        if (line[close + 1] === '"') {
          value += '"';
          i = close + 2;
        } else {
          i = close + 1;
          break;
        }
      }
      fields.push(value);
    } else {
      const end = line.indexOf(",", i);
      const value = end < 0 ? line.slice(i) : line.slice(i, end);
      if (value.includes('"')) return null;
      fields.push(value);
      i = end < 0 ? line.length : end;
    }
    if (i === line.length) return fields;
    if (line[i] !== ",") return null;
    i++;
  }
}

/** A Remarks part as written (not trimmed: a long Remarks continues in the comments file mid-text). */
const rawText = (field: string) => (field.trim() === "-0-" ? "" : field);

/** "-0-" (with or without its trailing space) is the list's empty field. */
const valueOf = (field: string) => {
  const value = field.trim();
  return value === "-0-" ? "" : value;
};

/** The records of one file: its non-empty lines split into fields, each with its line number. */
function* records(file: string, text: string, role: OfacFileRole): Generator<{ line: number; fields: string[] }> {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const expected = FIELD_COUNTS[role];
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === "") continue;
    if (line.trim() === "\u001a") {
      // The end-of-file mark: only blank lines may follow it.
      const after = lines.findIndex((rest, k) => k > n && rest.trim() !== "");
      if (after >= 0) throw new SanctionsFileError(file, after + 1, "text after the end-of-file mark");
      return;
    }
    if (/(?!\t)\p{Cc}/u.test(line)) throw new SanctionsFileError(file, n + 1, "control characters in the line");
    const fields = splitCsvLine(line);
    if (!fields) throw new SanctionsFileError(file, n + 1, "not a line of comma-separated, double-quoted fields");
    if (fields.length !== expected) throw new SanctionsFileError(file, n + 1, `${fields.length} fields where ${file} has ${expected}`);
    yield { line: n + 1, fields };
  }
}

function number(file: string, line: number, field: string, what: string): number {
  const value = valueOf(field);
  if (!/^\d{1,9}$/.test(value)) throw new SanctionsFileError(file, line, `${what} must be a number (found "${value.slice(0, 40)}")`);
  return Number(value);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * One DOB as the list writes it, as "yyyy-MM-dd", "yyyy-MM" or "yyyy": "01 Jan 1970", "Jan 1970",
 * "1970", "circa 1970"; a range "1966 to 1968" gives each year. What is not a date is left out.
 */
export function listDates(text: string): string[] {
  const value = text.trim().replace(/\.$/, "").replace(/^(circa|approximately|approx\.?)\s+/i, "");
  const day = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  const month = day ? undefined : /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  const range = /^(\d{4}) to (\d{4})$/.exec(value);
  const pad = (n: number) => String(n).padStart(2, "0");
  if (day) {
    const m = MONTHS.indexOf(day[2]!.toLowerCase());
    return m >= 0 && Number(day[1]) >= 1 && Number(day[1]) <= 31 ? [`${day[3]}-${pad(m + 1)}-${pad(Number(day[1]))}`] : [];
  }
  if (month) {
    const m = MONTHS.indexOf(month[1]!.toLowerCase());
    return m >= 0 ? [`${month[2]}-${pad(m + 1)}`] : [];
  }
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    return to >= from && to - from <= 10 ? Array.from({ length: to - from + 1 }, (_, k) => String(from + k)) : [];
  }
  return /^\d{4}$/.test(value) ? [value] : [];
}

/** The dates of birth, nationalities and citizenships the Remarks field states. */
export function remarksFacts(remarks: string): { datesOfBirth: string[]; countries: string[] } {
  const parts = remarks.split(";").map((part) => part.trim().replace(/\.$/, "").replace(/^alt\.\s*/i, ""));
  const datesOfBirth: string[] = [];
  const countries: string[] = [];
  for (const part of parts) {
    const dob = /^DOB\s+(.+)$/i.exec(part);
    if (dob) datesOfBirth.push(...listDates(dob[1]!));
    const country = /^(?:nationality|citizen)\s+(.+)$/i.exec(part);
    if (country) countries.push(country[1]!.trim());
  }
  return { datesOfBirth, countries };
}

function programsOf(field: string): string[] {
  return valueOf(field)
    .split(/\]\s*\[/)
    .map((program) => program.replace(/[[\]]/g, "").trim())
    .filter(Boolean);
}

function entityTypeOf(file: string, line: number, field: string): SanctionsEntityType {
  const value = valueOf(field).toLowerCase();
  if (value === "") return "entity";
  if (value === "individual" || value === "vessel" || value === "aircraft") return value;
  throw new SanctionsFileError(file, line, `SDN_Type must be individual, vessel, aircraft or -0- (found "${value.slice(0, 40)}")`);
}

const unique = (values: string[]) => [...new Set(values)];

function roleOf(name: string): { list: SanctionsList; role: OfacFileRole } {
  const known = FILE_ROLES[path.basename(name).toLowerCase()];
  if (!known) throw new SanctionsFileError(path.basename(name), undefined, `not one of OFAC's CSV files (${OFAC_FILE_NAMES.join(", ")})`);
  return known;
}

/**
 * Reads a set of OFAC CSV files into whole lists. Each list named needs its three files (entries,
 * addresses, aliases): a list without its aliases would screen less than the Treasury publishes.
 * Throws SanctionsFileError on the first problem.
 */
export function parseOfacFiles(files: readonly OfacFile[]): ParsedList[] {
  const byList = new Map<SanctionsList, Partial<Record<OfacFileRole, { name: string; text: string }>>>();
  for (const file of files) {
    const { list, role } = roleOf(file.name);
    const name = path.basename(file.name);
    const set = byList.get(list) ?? {};
    if (set[role]) throw new SanctionsFileError(name, undefined, "given twice");
    set[role] = { name, text: decode(file.content) };
    byList.set(list, set);
  }
  if (byList.size === 0) throw new SanctionsFileError("(no file)", undefined, `name the list's files: ${OFAC_FILE_NAMES.join(", ")}`);
  const lists: ParsedList[] = [];
  for (const [list, set] of byList) {
    const names = Object.entries(FILE_ROLES).filter(([, r]) => r.list === list && REQUIRED_ROLES.includes(r.role));
    const missing = names.filter(([, r]) => !set[r.role]).map(([n]) => n);
    if (missing.length) throw new SanctionsFileError(missing.join(", "), undefined, `missing: the ${list} list is loaded from ${names.map(([n]) => n).join(", ")} together`);
    lists.push(parseList(list, set.primary!, set.addresses!, set.aliases!, set.comments));
  }
  return lists;
}

type NamedText = { name: string; text: string };

function parseList(list: SanctionsList, primary: NamedText, addresses: NamedText, aliases: NamedText, comments: NamedText | undefined): ParsedList {
  const entries = new Map<number, OfacEntry>();
  const remarks = new Map<number, string>();
  for (const { line, fields } of records(primary.name, primary.text, "primary")) {
    const entityNumber = number(primary.name, line, fields[0]!, "ent_num");
    if (entries.has(entityNumber)) throw new SanctionsFileError(primary.name, line, `ent_num ${entityNumber} appears twice`);
    const primaryName = valueOf(fields[1]!);
    if (!primaryName) throw new SanctionsFileError(primary.name, line, "SDN_Name is empty");
    remarks.set(entityNumber, rawText(fields[11]!));
    entries.set(entityNumber, {
      entityNumber,
      primaryName,
      entityType: entityTypeOf(primary.name, line, fields[2]!),
      programs: programsOf(fields[3]!),
      aliases: [],
      datesOfBirth: [],
      countries: [],
    });
  }
  const entryOf = (file: string, line: number, field: string) => {
    const entityNumber = number(file, line, field, "ent_num");
    const entry = entries.get(entityNumber);
    if (!entry) throw new SanctionsFileError(file, line, `ent_num ${entityNumber} is not in ${primary.name}`);
    return entry;
  };
  for (const { line, fields } of records(addresses.name, addresses.text, "addresses")) {
    const entry = entryOf(addresses.name, line, fields[0]!);
    number(addresses.name, line, fields[1]!, "Add_num");
    const country = valueOf(fields[4]!);
    if (country) entry.countries.push(country);
  }
  for (const { line, fields } of records(aliases.name, aliases.text, "aliases")) {
    const entry = entryOf(aliases.name, line, fields[0]!);
    number(aliases.name, line, fields[1]!, "alt_num");
    const kind = valueOf(fields[2]!).toLowerCase().replace(/\./g, "");
    if (!isOneOf(SANCTIONS_ALIAS_KINDS, kind)) throw new SanctionsFileError(aliases.name, line, `alt_type must be aka, fka or nka (found "${kind.slice(0, 40)}")`);
    const name = valueOf(fields[3]!);
    if (!name) throw new SanctionsFileError(aliases.name, line, "alt_name is empty");
    entry.aliases.push({ kind, name });
  }
  if (comments) {
    for (const { line, fields } of records(comments.name, comments.text, "comments")) {
      const entry = entryOf(comments.name, line, fields[0]!);
      remarks.set(entry.entityNumber, `${remarks.get(entry.entityNumber) ?? ""}${rawText(fields[1]!)}`);
    }
  }
  for (const entry of entries.values()) {
    const facts = remarksFacts(remarks.get(entry.entityNumber) ?? "");
    entry.datesOfBirth = unique(facts.datesOfBirth);
    entry.countries = unique([...facts.countries, ...entry.countries]);
  }
  if (entries.size === 0) throw new SanctionsFileError(primary.name, undefined, "holds no entry");
  const fileNames = [primary.name, addresses.name, aliases.name, ...(comments ? [comments.name] : [])];
  return { list, fileNames, entries: [...entries.values()] };
}
