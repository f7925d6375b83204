/** A minimal server-sent-events reader for tests: collects events, lets a test wait for one. */
export type SseEvent = { event: string; data: string; at: number };

export async function openEventStream(url: string, cookie: string) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { cookie, accept: "text/event-stream" }, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let index: number;
        while ((index = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, index);
          buffer = buffer.slice(index + 2);
          let event = "message";
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trim());
          }
          if (data.length === 0 && event === "message") continue; // comments, retry lines
          const parsed = { event, data: data.join("\n"), at: Date.now() };
          events.push(parsed);
          for (const w of [...waiters]) {
            if (w.match(parsed)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(parsed);
            }
          }
        }
      }
    } catch {
      /* aborted */
    } finally {
      ended = true;
    }
  })();
  return {
    status: res.status,
    events,
    get ended() {
      return ended;
    },
    waitFor(match: (e: SseEvent) => boolean, timeoutMs = 5000): Promise<SseEvent> {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("timed out waiting for an event")), timeoutMs);
        waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
    close: async () => {
      controller.abort();
      await done;
    },
    done,
  };
}
