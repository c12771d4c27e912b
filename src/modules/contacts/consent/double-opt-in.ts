/** The part of an upsert's input that decides its subscription (`UpsertContactInput`). */
interface SubscriptionInput {
  subscribed?: boolean;
  defaultSubscribed: boolean;
}

/** How long a resend waits for the previous confirmation email (also what repeated sign-ups wait). */
export const CONFIRMATION_RESEND_INTERVAL_SECONDS = 600;

/** How long a confirmation link stays valid. */
export const CONFIRMATION_LINK_TTL_SECONDS = 7 * 24 * 3600;

/** What starts double opt-in for a call: the public key on `/v1/track`, or `doubleOptIn: true` in the body. */
export interface OptInTrigger {
  publicKey?: boolean;
  requested?: boolean;
}

/** Whether this upsert would make the contact subscribed (explicitly, or as a new contact by default). */
export function wantsSubscription(input: SubscriptionInput): boolean {
  return input.subscribed === true || (input.subscribed === undefined && input.defaultSubscribed);
}

/**
 * The upsert under double opt-in: nothing it does subscribes the contact (a new contact starts
 * unsubscribed, an existing one keeps its state); an explicit `false` still unsubscribes.
 */
export function withoutSubscription<T extends SubscriptionInput>(input: T): T {
  return { ...input, subscribed: input.subscribed === false ? false : undefined, defaultSubscribed: false };
}
