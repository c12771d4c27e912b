// The environment `npm start` gives the service process (also the Docker image's, and the bench's,
// so its figures are those of `npm start`). Measures that keep memory down at no cost in
// throughput (figures in bench/README.md, "Embedded weight" and "Campaigns"):
// - services mode (DATABASE_URL): V8's old generation bounded at 256 MB (`--max-old-space-size`,
//   in NODE_OPTIONS). Without a bound V8 sizes it from the machine's memory and lets it grow with
//   garbage it has not collected yet: a send worker reached 360-400 MB during a 30,000-email
//   campaign, and stayed near 200 MB with the bound, at the same throughput. Not in embedded
//   mode, where the same bound cost 20-35% more CPU per request (ping, send);
// - embedded mode (no DATABASE_URL), where one process holds the HTTP API, the workers and PGlite:
//   glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ at 128 KB, so large allocations (the
//   WASM compilation of PostgreSQL at start, big buffers) go to their own mappings and are given
//   back when freed instead of staying in the heap for good; the database's buffer pool
//   (EMBEDDED_DB_BUFFERS_MB, 16 MB) is in the service's own configuration.
// V8 flags that trade CPU for memory (--optimize-for-size, --heap-growing-percent) were measured
// and left out: they cost 20-130% more CPU per request. Values already set in the environment win
// (a NODE_OPTIONS that names --max-old-space-size keeps its own).

const MALLOC_DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const HEAP_LIMIT = '--max-old-space-size=256';

/** The service process's environment, from the one it would get. */
function serviceEnv(env) {
  if (!env.DATABASE_URL) return { ...MALLOC_DEFAULTS, ...env };
  const options = env.NODE_OPTIONS ?? '';
  return /--max-old-space-size\b/.test(options) ? env : { ...env, NODE_OPTIONS: `${options} ${HEAP_LIMIT}`.trim() };
}

module.exports = { serviceEnv };
