// The environment and Node flags `npm start` gives the service process (`serviceProcess`) (also the Docker image's,
// and the bench's, so its figures are those of `npm start`). Measures that keep memory down at no
// cost in throughput (figures in bench/README.md, "Embedded weight" and "Campaigns"):
// - V8's old generation bounded (`--max-old-space-size`, in NODE_OPTIONS). Without a bound V8
//   sizes it from the machine's memory and lets it grow with garbage it has not collected yet:
//   - services mode (DATABASE_URL), 256 MB: a send worker reached 360-400 MB during a
//     30,000-email campaign, and stayed near 200 MB with the bound;
//   - embedded mode, 384 MB (the process also holds the database's JS side): the peak under the
//     bench's loads went from ~540 to ~420 MB, and the RSS after them from 320-488 to ~320 MB;
// - embedded mode: with the bound, V8's heap growing factor held at 2 (`--heap-growing-percent=100`,
//   a node argument: NODE_OPTIONS does not take it). V8 derives the factor from the bound: 4 for
//   a heap of 2 GB or more, but ~1.35 for 384 MB and 1.3 for 256 MB, so a bounded heap ran a full
//   mark-compact after every ~35% of growth: 46% more CPU per ping and 18-28% more per track and
//   send. Held at 2 the CPU per request is that of the unbounded heap again, and the bound still
//   caps the heap. Not in services mode: there it bought nothing measurable in a campaign's
//   throughput and raised the send worker's peak from ~205 to ~250 MB;
// - embedded mode (no DATABASE_URL), where one process holds the HTTP API, the workers and PGlite:
//   glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ at 128 KB, so large allocations (the
//   WASM compilation of PostgreSQL at start, big buffers) go to their own mappings and are given
//   back when freed instead of staying in the heap for good; the database's buffer pool
//   (EMBEDDED_DB_BUFFERS_MB, 16 MB) is in the service's own configuration.
// V8 flags that trade CPU for memory (--optimize-for-size, a lower --heap-growing-percent) were
// measured and left out: they cost 20-130% more CPU per request. Values already set in the
// environment win: a NODE_OPTIONS that names --max-old-space-size keeps its own size, and V8's own
// growing factor for it.

const MALLOC_DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
const HEAP_MB = { services: 256, embedded: 384 };
const HEAP_GROWING_PERCENT = 100;

/**
 * How to launch the service process, from the environment it would get: its environment and the
 * Node flags to put before its script.
 */
function serviceProcess(env) {
  const embedded = !env.DATABASE_URL;
  const base = embedded ? { ...MALLOC_DEFAULTS, ...env } : { ...env };
  const options = env.NODE_OPTIONS ?? '';
  if (/--max-old-space-size\b/.test(options)) return { env: base, args: [] };
  return {
    env: { ...base, NODE_OPTIONS: `${options} --max-old-space-size=${embedded ? HEAP_MB.embedded : HEAP_MB.services}`.trim() },
    args: embedded ? [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`] : [],
  };
}

module.exports = { serviceProcess };
