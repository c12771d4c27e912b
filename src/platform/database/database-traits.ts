/**
 * What the database the service runs on can do, for code whose strategy depends on it.
 * Provided by `DatabaseModule`; inject the class itself.
 */
export class DatabaseTraits {
  /**
   * Whether two connections can each hold a transaction open at once. PostgreSQL: yes. The
   * embedded PGlite is one session behind a socket server that holds every other connection's
   * messages until the open transaction ends, so a transaction that waits (in our code) for
   * another transaction to commit never sees it happen: both hang. Code that keeps transactions
   * side by side and orders their commits (the import's batches) must keep one open there.
   */
  readonly concurrentTransactions: boolean;

  constructor(options: { concurrentTransactions: boolean }) {
    this.concurrentTransactions = options.concurrentTransactions;
  }
}
