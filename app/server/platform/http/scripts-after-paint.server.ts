/**
 * Every page is complete as the server renders it, so the browser should spend its first connection
 * time on the HTML and stylesheet, paint, and only then fetch the scripts that hydrate the page
 * (decision 0021). React Router's <Scripts> has no option for that, so the rendered document is
 * rewritten once, here:
 *
 * - its `<link rel="modulepreload">` tags leave the head;
 * - its inline module script (the route modules and `import(entry.client)`) is made inert by its type;
 * - a small classic script right after it waits for the first contentful paint, then adds the preloads
 *   and puts a live copy of the module script in the inert one's place, with the same text and nonce.
 *
 * React hydrates against the live copy (same tag, type and position) and adopts the preload links it
 * finds in the head; the loader removes itself before React runs, so no extra node is left to trip
 * hydration. The public page cache hashes both inline scripts like any other (the copy's text equals
 * the inert script's), so the CSP stays hash- or nonce-only.
 *
 * Anything unexpected (no module script, or more than one) leaves the document as it was: the page then
 * loads its scripts the ordinary way.
 */

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const HREF = /\shref="([^"]*)"/;
// React writes the props in React Router's order: the nonce first.
const MODULE_TYPE = ' type="module" async="">';
const SCRIPT_OPEN = /^<script((?: nonce="[^"]*")?)$/;
export const INERT_TYPE = "text/x-after-first-paint";

/**
 * The loader, in ES5 so it parses everywhere. Hidden tabs do not paint, so they load at once; without
 * Paint Timing it waits one frame; after three seconds it loads whatever happened.
 */
function loaderSource(hrefs: string[]): string {
  const list = JSON.stringify(hrefs).replaceAll("<", "\\u003c");
  return (
    "(function(){var me=document.currentScript,inert=me.previousElementSibling,hrefs=" +
    list +
    ",done=false;function start(){if(done)return;done=true;for(var i=0;i<hrefs.length;i++){var l=document.createElement('link');l.rel='modulepreload';l.href=hrefs[i];document.head.appendChild(l)}" +
    "var s=document.createElement('script');s.type='module';s.async=true;s.nonce=inert.nonce;s.textContent=inert.textContent;inert.parentNode.replaceChild(s,inert)}" +
    "function soon(){setTimeout(start,0)}" +
    "var P=window.PerformanceObserver,types=P&&P.supportedEntryTypes||[];" +
    "if(document.visibilityState!=='visible')start();" +
    "else if(types.indexOf('paint')>=0)new P(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();soon()}}).observe({type:'paint',buffered:true});" +
    "else requestAnimationFrame(soon);" +
    "setTimeout(start,3000);me.parentNode.removeChild(me)})();"
  );
}

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|quot|#x27|#39|lt|gt);/g, (_, name: string) => ({ amp: "&", quot: '"', "#x27": "'", "#39": "'", lt: "<", gt: ">" })[name]!);
}

/**
 * Works on the rendered bytes: plain byte searches (every marker is ASCII), not regular expressions over
 * the whole document, and no decoding of it into a string and encoding back (the admin list is ~90 KB
 * and this runs on every page). React hoists the preload links into the head, so only the head is
 * decoded and scanned for them.
 */
export function scriptsAfterFirstPaint(html: Buffer): Buffer {
  const typeAt = html.indexOf(MODULE_TYPE);
  if (typeAt < 0 || html.indexOf(MODULE_TYPE, typeAt + 1) >= 0) return html;
  const scriptAt = html.lastIndexOf("<script", typeAt);
  const open = scriptAt < 0 ? null : SCRIPT_OPEN.exec(html.toString("utf8", scriptAt, typeAt));
  const bodyAt = typeAt + MODULE_TYPE.length;
  const closeAt = html.indexOf("</script>", bodyAt);
  if (!open || closeAt < 0) return html;

  const headEnd = html.indexOf("</head>");
  const hasHead = headEnd >= 0 && headEnd < scriptAt;
  // Without a head, everything before the script is searched (a document React Router never sends).
  const searched = html.toString("utf8", 0, hasHead ? headEnd : scriptAt);
  const hrefs: string[] = [];
  for (const link of searched.matchAll(MODULE_PRELOAD)) {
    const href = HREF.exec(link[0])?.[1];
    if (href !== undefined && !hrefs.includes(decodeAttribute(href))) hrefs.push(decodeAttribute(href));
  }

  const nonceAttribute = open[1] ?? "";
  const afterScript = closeAt + "</script>".length;
  return Buffer.concat([
    Buffer.from(searched.replace(MODULE_PRELOAD, ""), "utf8"),
    hasHead ? html.subarray(headEnd, scriptAt) : Buffer.alloc(0),
    // No async: HTML allows it only on scripts that run, and a data block does not (vnu reports it).
    Buffer.from(`<script${nonceAttribute} type="${INERT_TYPE}">`, "utf8"),
    html.subarray(bodyAt, afterScript),
    Buffer.from(`<script${nonceAttribute}>${loaderSource(hrefs)}</script>`, "utf8"),
    html.subarray(afterScript),
  ]);
}
