import net from "node:net";

/**
 * The client side of the live-update bench, run in its own process (bench/events.bench.ts forks one or
 * more): thousands of event streams over raw sockets, each writing its GET and looking only for the
 * markers the bench waits for, so one process holds 5,000–10,000 streams without an HTTP client's
 * per-connection cost. Talks to the bench over IPC.
 */

type Start = { kind: "open"; host: string; port: number; cookies: string[]; marker: string };
type Stream = { socket: net.Socket; status: number; ready: boolean; arrivedAt: number; tail: string; heartbeats: number };

const streams: Stream[] = [];
let marker = "";

function openOne(host: string, port: number, cookie: string): Promise<Stream> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const stream: Stream = { socket, status: 0, ready: false, arrivedAt: 0, tail: "", heartbeats: 0 };
    let settled = false;
    const settle = () => {
      if (!settled) {
        settled = true;
        resolve(stream);
      }
    };
    socket.setNoDelay(true);
    socket.on("connect", () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: ${host}:${port}\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`);
    });
    socket.on("data", (chunk: Buffer) => {
      const now = Date.now();
      // A marker may straddle two reads: keep the end of the previous one.
      const text = stream.tail + chunk.toString("latin1");
      stream.tail = text.slice(-96);
      if (!stream.status) stream.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      if (!stream.ready && text.includes("event: ready")) {
        stream.ready = true;
        settle();
      }
      if (stream.status && stream.status !== 200) settle();
      if (text.includes(": heartbeat")) stream.heartbeats += 1;
      if (marker && !stream.arrivedAt && text.includes(marker)) stream.arrivedAt = now;
    });
    socket.on("error", settle);
    socket.on("close", settle);
  });
}

async function openAll(start: Start): Promise<void> {
  marker = start.marker;
  // A bounded number of connects in flight: the server's accept queue is finite.
  const inFlight = 100;
  let next = 0;
  const worker = async () => {
    while (next < start.cookies.length) {
      const cookie = start.cookies[next++]!;
      streams.push(await openOne(start.host, start.port, cookie));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const statuses: Record<string, number> = {};
  for (const s of streams) statuses[s.status || "none"] = (statuses[s.status || "none"] ?? 0) + 1;
  process.send!({ kind: "opened", ready: streams.filter((s) => s.ready).length, statuses });
}

process.on("message", (message: Start | { kind: "report" } | { kind: "close" }) => {
  if (message.kind === "open") void openAll(message);
  else if (message.kind === "report") {
    process.send!({
      kind: "report",
      arrivals: streams.filter((s) => s.arrivedAt).map((s) => s.arrivedAt),
      open: streams.filter((s) => !s.socket.destroyed).length,
      heartbeats: streams.reduce((n, s) => n + s.heartbeats, 0),
    });
  } else {
    for (const s of streams) s.socket.destroy();
    process.send!({ kind: "closed" }, () => process.exit(0));
  }
});
