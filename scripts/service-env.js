// The environment `npm start` gives the service process (also used by the bench, so its embedded figures
// are those of `npm start`). In embedded mode (no DATABASE_URL) the one process holds the HTTP
// API, the workers and the PGlite database, and two measures keep its memory down at no cost in
// throughput (figures in bench/README.md, "Embedded weight"):
// - glibc's MALLOC_MMAP_THRESHOLD_ / MALLOC_TRIM_THRESHOLD_ at 128 KB: large allocations (the
//   WASM compilation of PostgreSQL at start, big buffers) go to their own mappings and are given
//   back when freed instead of staying in the heap for good;
// - the database's buffer pool (EMBEDDED_DB_BUFFERS_MB, 16 MB; in the service's configuration).
// V8 flags that bound the heap (--optimize-for-size, --heap-growing-percent) were measured and
// left out: they cost 20-130% more CPU per request. Variables already set in the environment
// win; services mode runs the service unchanged.

const MALLOC_DEFAULTS = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

/** The service process's environment, from the one it would get. */
function serviceEnv(env) {
  return env.DATABASE_URL ? env : { ...MALLOC_DEFAULTS, ...env };
}

module.exports = { serviceEnv };
