const PRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_PRELOAD = '<link rel="modulepreload" fetchpriority="low"';

/**
 * Marks React Router's module preloads `fetchpriority="low"` in the rendered HTML (its <Scripts> has no
 * option for it). The page is server-rendered and readable before any script runs, so the stylesheet
 * and images should get the connections and bandwidth first and the scripts that hydrate it come next.
 * At the default High priority Chromium fetches the dozens of preloads alongside the stylesheet, and
 * Lighthouse's simulation counts high-priority scripts as render-blocking (lighthouse#16539, #17163),
 * adding all of the JavaScript to first paint on its slow 4G.
 */
export function lowPriorityModulePreloads(html: string): string {
  return html.replaceAll(PRELOAD, LOW_PRIORITY_PRELOAD);
}
