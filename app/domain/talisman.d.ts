// talisman ships types for a few of its modules only; this is the one the sanctions matching uses
// (node_modules/talisman/metrics/jaro-winkler.js, whose module.exports is the function).
declare module "talisman/metrics/jaro-winkler.js" {
  /** The Jaro-Winkler similarity of two strings, 0 (nothing in common) to 1 (equal). */
  function jaroWinkler(a: string, b: string): number;
  export default jaroWinkler;
}
