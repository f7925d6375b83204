/**
 * Contact hours for collections: no call, text or collections notice before 8 a.m. or from 9 p.m. on
 * in the borrower's local time (the FDCPA's presumption of inconvenient hours, which we apply to our own
 * loans as well). The borrower's time zone is derived from the US state on their profile (the
 * application's state when the profile has none); a state spanning two zones takes the zone most of
 * its people live in (decision 0098). Pure, no I/O, safe in the browser.
 */

/** Each US state (and DC) → its IANA time zone; split states take their most populous zone. */
export const STATE_TIME_ZONES: Readonly<Record<string, string>> = {
  AL: "America/Chicago",
  AK: "America/Anchorage",
  AZ: "America/Phoenix",
  AR: "America/Chicago",
  CA: "America/Los_Angeles",
  CO: "America/Denver",
  CT: "America/New_York",
  DC: "America/New_York",
  DE: "America/New_York",
  // The panhandle west of the Apalachicola is Central; most Floridians are Eastern.
  FL: "America/New_York",
  GA: "America/New_York",
  HI: "Pacific/Honolulu",
  // The north (panhandle) is Pacific; Boise and the south are Mountain.
  ID: "America/Boise",
  IL: "America/Chicago",
  // Twelve north-west and south-west counties are Central; the rest, Indianapolis included, Eastern.
  IN: "America/Indiana/Indianapolis",
  IA: "America/Chicago",
  // Four western counties are Mountain.
  KS: "America/Chicago",
  // The west is Central; Louisville, Lexington and the east (most people) are Eastern.
  KY: "America/New_York",
  LA: "America/Chicago",
  ME: "America/New_York",
  MD: "America/New_York",
  MA: "America/New_York",
  // Four Upper Peninsula counties are Central.
  MI: "America/Detroit",
  MN: "America/Chicago",
  MS: "America/Chicago",
  MO: "America/Chicago",
  MT: "America/Denver",
  // The panhandle is Mountain; Omaha and Lincoln are Central.
  NE: "America/Chicago",
  NV: "America/Los_Angeles",
  NH: "America/New_York",
  NJ: "America/New_York",
  NM: "America/Denver",
  NY: "America/New_York",
  NC: "America/New_York",
  // The south-west is Mountain.
  ND: "America/Chicago",
  OH: "America/New_York",
  OK: "America/Chicago",
  // Most of Malheur County is Mountain.
  OR: "America/Los_Angeles",
  PA: "America/New_York",
  RI: "America/New_York",
  SC: "America/New_York",
  // The west (Rapid City) is Mountain; Sioux Falls and the east, Central.
  SD: "America/Chicago",
  // East Tennessee (Knoxville, Chattanooga) is Eastern; Nashville, Memphis and more people, Central.
  TN: "America/Chicago",
  // El Paso and Hudspeth counties are Mountain.
  TX: "America/Chicago",
  UT: "America/Denver",
  VT: "America/New_York",
  VA: "America/New_York",
  WA: "America/Los_Angeles",
  WV: "America/New_York",
  WI: "America/Chicago",
  WY: "America/Denver",
};

/** The first hour contact may start and the hour it must have ended by (local, 24-hour clock). */
export const CONTACT_HOURS = { from: 8, until: 21 } as const;

/**
 * Where a borrower with no known state may be: the day must be within hours on both coasts
 * (8 a.m. in Los Angeles is 11 a.m. in New York; 9 p.m. in New York is 6 p.m. in Los Angeles).
 */
export const UNKNOWN_STATE_ZONES = ["America/New_York", "America/Los_Angeles"] as const;

/** The borrower's zone from a state code ("ny" or " NY " too), or null when it is not a US state. */
export function timeZoneOfState(state: string | null | undefined): string | null {
  const code = state?.trim().toUpperCase() ?? "";
  return Object.hasOwn(STATE_TIME_ZONES, code) ? STATE_TIME_ZONES[code]! : null;
}

/** The hour (0–23) and minute at `now` in `timeZone`. */
export function localClock(now: Date, timeZone: string): { hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "numeric", hourCycle: "h23" }).formatToParts(now);
  const hour = Number(parts.find((p) => p.type === "hour")?.value ?? "0") % 24;
  const minute = Number(parts.find((p) => p.type === "minute")?.value ?? "0");
  return { hour, minute };
}

/** Whether `now` is within contact hours (8:00–20:59) in `timeZone`; null zone: within hours on both coasts. */
export function withinContactHours(now: Date, timeZone: string | null): boolean {
  const zones = timeZone ? [timeZone] : UNKNOWN_STATE_ZONES;
  return zones.every((zone) => {
    const { hour } = localClock(now, zone);
    return hour >= CONTACT_HOURS.from && hour < CONTACT_HOURS.until;
  });
}

/** "3:42 PM EST" at `now` in `timeZone`: what the Collections panel shows staff before they call. */
export function localTimeText(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(now);
}

export const CONTACT_HOURS_MESSAGE = "It is outside the borrower's contact hours (8 a.m. to 9 p.m. their local time): call or text them between those hours.";
