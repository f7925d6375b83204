import { StringDecoder } from "node:string_decoder";
import { Transform } from "node:stream";

const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/**
 * Marks React Router's module preloads `fetchpriority="low"` in the streamed HTML (its <Scripts> has no
 * option for it). The page is server-rendered and readable before any script runs, so the stylesheet
 * and images should get the connections and bandwidth first and the scripts that hydrate it come next.
 * At the default High priority Chromium fetches the dozens of preloads alongside the stylesheet, and
 * Lighthouse's simulation counts high-priority scripts as render-blocking (lighthouse#16539, #17163),
 * adding all of the JavaScript to first paint on its slow 4G.
 *
 * A preload split across two chunks is held back until the next chunk completes it.
 */
export function lowPriorityModulePreloads(): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = (pending + decoder.write(chunk)).replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD);
      let keep = Math.min(PRELOAD.length - 1, text.length);
      while (keep > 0 && !PRELOAD.startsWith(text.slice(text.length - keep))) keep--;
      pending = text.slice(text.length - keep);
      callback(null, text.slice(0, text.length - keep));
    },
    flush(callback) {
      callback(null, pending + decoder.end());
    },
  });
}
