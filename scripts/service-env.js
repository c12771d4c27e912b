// The environment and Node flags `npm start` gives the service process (`serviceProcess`) (also the Docker image's,
// and the bench's, so its figures are those of `npm start`). Measures that keep memory down at little
// cost in throughput (figures in bench/README.md, "Embedded weight" and "Campaigns"):
// - services mode (DATABASE_URL): V8's old generation bounded at 256 MB (`--max-old-space-size`,
//   in NODE_OPTIONS). Without a bound V8 sizes it from the machine's memory and lets it grow with
//   garbage it has not collected yet: a send worker reached 360-400 MB during a 30,000-email
//   campaign, and stayed near 200 MB with the bound, at the same throughput. With the bound goes
//   V8's heap growing factor 2 (`--heap-growing-percent=100`, a node argument: NODE_OPTIONS refuses
//   it). V8 derives the factor from the heap's maximum, 1.3 at 256 MB, so the bound alone ran a full
//   collection every ~30% of growth (every ~240 ms under the ping load) and cost the API 10-15% of
//   its req/s; factor 2 gives back most of it for ~40 MB more at the peak (bench/README.md, "The
//   services heap bound's cost");
// - embedded mode (no DATABASE_URL), where one process holds the HTTP API, the workers and PGlite:
//   - `--expose-gc` (a node argument), for the idle collector (src/platform/memory/idle-collector.ts):
//     one full collection once the process falls idle after a load, instead of a bound. A bound
//     (384 MB) kept the RSS after the bench's loads near 310 MB where V8 alone left 320-490 MB,
//     but cost 10-12% of the throughput of ping, track and send even with V8's growing factor
//     raised (bench/README, "Embedded weight");
//   - glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ at 128 KB, so large allocations (the
//     WASM compilation of PostgreSQL at start, big buffers) go to their own mappings and are given
//     back when freed instead of staying in the heap for good; the database's buffer pool
//     (EMBEDDED_DB_BUFFERS_MB, 16 MB) is in the service's own configuration.
// V8 flags that trade CPU for memory (--optimize-for-size, a lower --heap-growing-percent) were
// measured and left out: they cost 20-130% more CPU per request. Values already set in the
// environment win: a NODE_OPTIONS that names --max-old-space-size keeps its own size, and V8's own
// growing factor for it.

const MALLOC_DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const SERVICES_HEAP_MB = 256;
const SERVICES_HEAP_GROWING_PERCENT = 100;

/**
 * How to launch the service process, from the environment it would get: its environment and the
 * Node flags to put before its script.
 */
function serviceProcess(env) {
  if (!env.DATABASE_URL) return { env: { ...MALLOC_DEFAULTS, ...env }, args: ['--expose-gc'] };
  const options = env.NODE_OPTIONS ?? '';
  if (/--max-old-space-size\b/.test(options)) return { env: { ...env }, args: [] };
  return { env: { ...env, NODE_OPTIONS: `${options} --max-old-space-size=${SERVICES_HEAP_MB}`.trim() }, args: [`--heap-growing-percent=${SERVICES_HEAP_GROWING_PERCENT}`] };
}

module.exports = { serviceProcess };
