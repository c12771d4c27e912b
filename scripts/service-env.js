// The environment `npm start` gives the service process (also the Docker image's, and the bench's,
// so its figures are those of `npm start`). Measures that keep memory down at no cost in
// throughput (figures in bench/README.md, "Embedded weight" and "Campaigns"):
// - V8's old generation bounded (`--max-old-space-size`, in NODE_OPTIONS). Without a bound V8
//   sizes it from the machine's memory and lets it grow with garbage it has not collected yet:
//   - services mode (DATABASE_URL), 256 MB: a send worker reached 360-400 MB during a
//     30,000-email campaign, and stayed near 200 MB with the bound, at the same throughput;
//   - embedded mode, 384 MB (the process also holds the database's JS side): the peak under the
//     bench's loads went from ~540 to ~375 MB, and the RSS after them from 335-488 to 314-328 MB,
//     with track and send as fast (256 MB cost 20-35% more CPU per request there);
// - embedded mode (no DATABASE_URL), where one process holds the HTTP API, the workers and PGlite:
//   glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ at 128 KB, so large allocations (the
//   WASM compilation of PostgreSQL at start, big buffers) go to their own mappings and are given
//   back when freed instead of staying in the heap for good; the database's buffer pool
//   (EMBEDDED_DB_BUFFERS_MB, 16 MB) is in the service's own configuration.
// V8 flags that trade CPU for memory (--optimize-for-size, --heap-growing-percent) were measured
// and left out: they cost 20-130% more CPU per request. Values already set in the environment win
// (a NODE_OPTIONS that names --max-old-space-size keeps its own).

const MALLOC_DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const HEAP_MB = { services: 256, embedded: 384 };

/** The service process's environment, from the one it would get. */
function serviceEnv(env) {
  const options = env.NODE_OPTIONS ?? '';
  const heap = /--max-old-space-size\b/.test(options) ? {} : { NODE_OPTIONS: `${options} --max-old-space-size=${env.DATABASE_URL ? HEAP_MB.services : HEAP_MB.embedded}`.trim() };
  return env.DATABASE_URL ? { ...env, ...heap } : { ...MALLOC_DEFAULTS, ...env, ...heap };
}

module.exports = { serviceEnv };
